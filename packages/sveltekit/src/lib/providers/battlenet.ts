export * from "@latch/core/providers/battlenet"
export { default } from "@latch/core/providers/battlenet"
