export * from "@latch/core/providers/line"
export { default } from "@latch/core/providers/line"
