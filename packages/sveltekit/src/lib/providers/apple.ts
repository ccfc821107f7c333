export * from "@latch/core/providers/apple"
export { default } from "@latch/core/providers/apple"
