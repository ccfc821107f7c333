export * from "@latch/core/providers/logto"
export { default } from "@latch/core/providers/logto"
