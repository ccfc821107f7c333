export * from "@latch/core/providers/threads"
export { default } from "@latch/core/providers/threads"
