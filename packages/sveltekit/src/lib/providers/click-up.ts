export * from "@latch/core/providers/click-up"
export { default } from "@latch/core/providers/click-up"
