export * from "@latch/core/providers/workos"
export { default } from "@latch/core/providers/workos"
