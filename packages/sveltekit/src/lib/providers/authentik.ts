export { default } from "@latch/core/providers/authentik"
export type * from "@latch/core/providers/authentik"
