export * from "@latch/core/providers/twitter"
export { default } from "@latch/core/providers/twitter"
