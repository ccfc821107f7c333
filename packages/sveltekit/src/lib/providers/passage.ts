export * from "@latch/core/providers/passage"
export { default } from "@latch/core/providers/passage"
