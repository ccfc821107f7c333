export * from "@latch/core/providers/loops"
export { default } from "@latch/core/providers/loops"
