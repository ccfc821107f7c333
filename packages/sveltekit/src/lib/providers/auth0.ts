export * from "@latch/core/providers/auth0"
export { default } from "@latch/core/providers/auth0"
