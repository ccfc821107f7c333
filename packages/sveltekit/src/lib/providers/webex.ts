export * from "@latch/core/providers/webex"
export { default } from "@latch/core/providers/webex"
