export * from "@latch/core/providers/credentials"
export { default } from "@latch/core/providers/credentials"
