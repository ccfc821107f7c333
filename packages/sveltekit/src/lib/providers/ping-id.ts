export * from "@latch/core/providers/ping-id"
export { default } from "@latch/core/providers/ping-id"
