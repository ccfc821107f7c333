export * from "@latch/core/providers/asgardeo"
export { default } from "@latch/core/providers/asgardeo"
