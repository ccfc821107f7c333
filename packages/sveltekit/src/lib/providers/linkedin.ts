export * from "@latch/core/providers/linkedin"
export { default } from "@latch/core/providers/linkedin"
