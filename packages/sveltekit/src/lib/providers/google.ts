export * from "@latch/core/providers/google"
export { default } from "@latch/core/providers/google"
