export * from "@latch/core/providers/coinbase"
export { default } from "@latch/core/providers/coinbase"
