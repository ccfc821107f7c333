export * from "@latch/core/providers/pinterest"
export { default } from "@latch/core/providers/pinterest"
