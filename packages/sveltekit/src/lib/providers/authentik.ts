export * from "@latch/core/providers/authentik"
export { default } from "@latch/core/providers/authentik"
