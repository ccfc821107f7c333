export * from "@latch/core/providers/kinde"
export { default } from "@latch/core/providers/kinde"
