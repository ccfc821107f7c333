export * from "@latch/core/providers/reddit"
export { default } from "@latch/core/providers/reddit"
