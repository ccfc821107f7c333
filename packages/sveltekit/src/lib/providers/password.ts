export * from "@latch/core/providers/password"
export { default } from "@latch/core/providers/password"
