export * from "@latch/core/providers/duende-identity-server6"
export { default } from "@latch/core/providers/duende-identity-server6"
