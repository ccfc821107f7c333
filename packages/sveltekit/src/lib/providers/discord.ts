export * from "@latch/core/providers/discord"
export { default } from "@latch/core/providers/discord"
