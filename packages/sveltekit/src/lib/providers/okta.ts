export { default } from "@latch/core/providers/okta"
export type * from "@latch/core/providers/okta"
