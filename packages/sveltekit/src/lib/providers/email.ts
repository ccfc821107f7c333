export * from "@latch/core/providers/email"
export { default } from "@latch/core/providers/email"
