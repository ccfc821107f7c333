export * from "@latch/core/providers/netsuite"
export { default } from "@latch/core/providers/netsuite"
