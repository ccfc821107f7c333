export * from "@latch/core/providers/identity-server4"
export { default } from "@latch/core/providers/identity-server4"
