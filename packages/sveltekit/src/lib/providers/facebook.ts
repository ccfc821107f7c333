export * from "@latch/core/providers/facebook"
export { default } from "@latch/core/providers/facebook"
