export * from "@latch/core/providers/descope"
export { default } from "@latch/core/providers/descope"
