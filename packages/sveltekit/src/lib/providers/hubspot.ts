export * from "@latch/core/providers/hubspot"
export { default } from "@latch/core/providers/hubspot"
