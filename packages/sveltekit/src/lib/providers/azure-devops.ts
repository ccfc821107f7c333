export * from "@latch/core/providers/azure-devops"
export { default } from "@latch/core/providers/azure-devops"
