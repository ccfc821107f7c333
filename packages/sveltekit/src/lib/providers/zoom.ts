export * from "@latch/core/providers/zoom"
export { default } from "@latch/core/providers/zoom"
