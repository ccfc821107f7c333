export { default, discordAvatarUrl } from "@latch/core/providers/discord"
export type * from "@latch/core/providers/discord"
