export * from "@latch/core/providers/salesforce"
export { default } from "@latch/core/providers/salesforce"
