export * from "@latch/core/providers/azure-ad-b2c"
export { default } from "@latch/core/providers/azure-ad-b2c"
