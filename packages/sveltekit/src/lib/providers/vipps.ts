export * from "@latch/core/providers/vipps"
export { default } from "@latch/core/providers/vipps"
