/**
 * Sign in with Reddit.
 *
 * @module providers/reddit
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"
import { fixedEndpoints, withFinish } from "../lib/provider-rules.js"

/**
 * The identity of the user, as `GET /api/v1/me` (scope `identity`) returns it.
 *
 * @see https://www.reddit.com/dev/api/#GET_api_v1_me
 */
export interface RedditProfile {
  /** The account ID, base 36 (the fullname is `t2_<id>`). */
  id: string
  /** The username. */
  name: string
  /** The avatar URL, HTML-escaped (`&amp;`) as Reddit sends it. */
  icon_img?: string
  /** The Snoovatar, when the user has made one. */
  snoovatar_img?: string
  has_verified_email?: boolean
  verified?: boolean
  created_utc?: number
  total_karma?: number
  link_karma?: number
  comment_karma?: number
  over_18?: boolean
  is_suspended?: boolean
  [field: string]: unknown
}

/** Reddit's image URLs carry HTML-escaped ampersands. */
function unescapeUrl(url: string | undefined): string | null {
  return url ? url.replace(/&amp;/g, "&") : null
}

/**
 * Adds Reddit sign-in.
 *
 * Create a "web app" at https://www.reddit.com/prefs/apps with the redirect URI
 * `https://example.com/auth/callback/reddit`, then set:
 *
 * - `AUTH_REDDIT_ID`: the client ID (under the app's name)
 * - `AUTH_REDDIT_SECRET`: the secret
 *
 * The scope is `identity` and `duration` is `temporary` (set `duration: "permanent"` for a
 * refresh token). Reddit gives no email address. Its API wants a descriptive User-Agent:
 * the profile request sends `web:<client id>:latch`.
 *
 * @example
 * ```ts
 * import Reddit from "@latch/core/providers/reddit"
 *
 * export const config = { providers: [Reddit] }
 *
 * Reddit({ authorization: { params: { duration: "permanent" } } })
 * ```
 */
export default function Reddit<P extends RedditProfile = RedditProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  const { authorization, ...rest } = options
  const provider: OAuthConfig<P> = {
    id: "reddit",
    name: "Reddit",
    type: "oauth",
    authorization: withDefaults(
      "https://www.reddit.com/api/v1/authorize",
      { scope: "identity", duration: "temporary" },
      authorization,
    ),
    token: "https://www.reddit.com/api/v1/access_token",
    userinfo: {
      url: "https://oauth.reddit.com/api/v1/me",
      async request({ tokens, provider, fetch }) {
        const response = await fetch("https://oauth.reddit.com/api/v1/me", {
          headers: {
            Authorization: `Bearer ${String(tokens.access_token)}`,
            Accept: "application/json",
            "User-Agent": `web:${provider.clientId ?? "app"}:latch`,
          },
        })
        if (!response.ok) throw new Error(`Reddit answered ${response.status} to GET /api/v1/me`)
        return (await response.json()) as Record<string, unknown>
      },
    },
    profile: (profile) => ({
      id: profile.id,
      name: profile.name,
      email: null,
      image: unescapeUrl(profile.snoovatar_img) ?? unescapeUrl(profile.icon_img),
    }),
    style: { brandColor: "#ff4500", text: "#ffffff" },
    ...rest,
  }
  return withFinish(provider, fixedEndpoints())
}
