export * from "@latch/core/providers/cognito"
export { default } from "@latch/core/providers/cognito"
