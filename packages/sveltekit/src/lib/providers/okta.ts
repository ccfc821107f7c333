export * from "@latch/core/providers/okta"
export { default } from "@latch/core/providers/okta"
