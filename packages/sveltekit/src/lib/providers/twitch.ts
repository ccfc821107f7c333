export * from "@latch/core/providers/twitch"
export { default } from "@latch/core/providers/twitch"
