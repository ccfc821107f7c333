export * from "@latch/core/providers/instagram"
export { default } from "@latch/core/providers/instagram"
