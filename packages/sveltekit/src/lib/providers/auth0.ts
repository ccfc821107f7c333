export { default } from "@latch/core/providers/auth0"
export type * from "@latch/core/providers/auth0"
