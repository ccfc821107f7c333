export * from "@latch/core/providers/huggingface"
export { default } from "@latch/core/providers/huggingface"
