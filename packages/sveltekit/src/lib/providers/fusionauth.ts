export * from "@latch/core/providers/fusionauth"
export { default } from "@latch/core/providers/fusionauth"
