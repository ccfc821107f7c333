export * from "@latch/core/providers/medium"
export { default } from "@latch/core/providers/medium"
