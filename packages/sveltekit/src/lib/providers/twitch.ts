export { default } from "@latch/core/providers/twitch"
export type * from "@latch/core/providers/twitch"
