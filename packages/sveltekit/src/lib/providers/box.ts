export * from "@latch/core/providers/box"
export { default } from "@latch/core/providers/box"
