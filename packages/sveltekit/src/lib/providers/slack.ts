export * from "@latch/core/providers/slack"
export { default } from "@latch/core/providers/slack"
