/**
 * Sign in with Discord.
 *
 * @module providers/discord
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"
import { fixedEndpoints, withFinish } from "../lib/provider-rules.js"

/**
 * The user object of `GET /users/@me`; `email` and `verified` need the `email` scope.
 *
 * @see https://discord.com/developers/docs/resources/user#user-object
 */
export interface DiscordProfile {
  /** A snowflake, as a string. */
  id: string
  username: string
  /** `"0"` for users on the unique-username system, else the legacy four digits. */
  discriminator: string
  /** The display name, if set. */
  global_name: string | null
  /** An avatar hash; `a_` in front means animated. */
  avatar: string | null
  bot?: boolean
  system?: boolean
  mfa_enabled?: boolean
  banner?: string | null
  accent_color?: number | null
  locale?: string
  verified?: boolean
  email?: string | null
  flags?: number
  premium_type?: number
  public_flags?: number
  [field: string]: unknown
}

/** The CDN URL of the user's avatar, or of the default avatar Discord shows for them. */
export function discordAvatarUrl(profile: Pick<DiscordProfile, "id" | "avatar" | "discriminator">) {
  if (profile.avatar) {
    const format = profile.avatar.startsWith("a_") ? "gif" : "png"
    return `https://cdn.discordapp.com/avatars/${profile.id}/${profile.avatar}.${format}`
  }
  // Default avatars: from the id for unique usernames, from the discriminator for legacy ones.
  const index =
    profile.discriminator && profile.discriminator !== "0"
      ? Number(profile.discriminator) % 5
      : /^\d+$/.test(profile.id)
        ? Number((BigInt(profile.id) >> 22n) % 6n)
        : 0
  return `https://cdn.discordapp.com/embed/avatars/${index}.png`
}

/**
 * Adds Discord sign-in.
 *
 * Create an application in the Discord Developer Portal; under OAuth2 add the redirect
 * `https://example.com/auth/callback/discord`, then set:
 *
 * - `AUTH_DISCORD_ID`: the client ID
 * - `AUTH_DISCORD_SECRET`: the client secret
 *
 * The default scope is `identify email`; the profile is `GET /users/@me`. Discord does not
 * require a verified email address: check `verified` before trusting `email`.
 *
 * @example
 * ```ts
 * import Discord from "@latch/core/providers/discord"
 *
 * export const config = { providers: [Discord] }
 *
 * Discord({ authorization: { params: { scope: "identify email guilds" } } })
 * ```
 */
export default function Discord<P extends DiscordProfile = DiscordProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  const { authorization, ...rest } = options
  const provider: OAuthConfig<P> = {
    id: "discord",
    name: "Discord",
    type: "oauth",
    authorization: withDefaults(
      "https://discord.com/oauth2/authorize",
      { scope: "identify email" },
      authorization,
    ),
    token: "https://discord.com/api/oauth2/token",
    userinfo: "https://discord.com/api/users/@me",
    profile: (profile) => ({
      id: profile.id,
      name: profile.global_name ?? profile.username,
      email: profile.email ?? null,
      image: discordAvatarUrl(profile),
    }),
    style: { brandColor: "#5865f2", text: "#ffffff" },
    ...rest,
  }
  return withFinish(provider, fixedEndpoints())
}
