export * from "@latch/core/providers/azure-ad"
export { default } from "@latch/core/providers/azure-ad"
