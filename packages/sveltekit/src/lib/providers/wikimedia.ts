export * from "@latch/core/providers/wikimedia"
export { default } from "@latch/core/providers/wikimedia"
