export * from "@latch/core/providers/mailru"
export { default } from "@latch/core/providers/mailru"
