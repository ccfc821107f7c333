/**
 * Sign in with osu!.
 *
 * @module providers/osu
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The short form of a user in osu!'s API v2.
 *
 * @see https://osu.ppy.sh/docs/index.html#usercompact
 */
export interface OsuUserCompact {
  avatar_url: string
  country_code: string
  default_group: string
  /** The user's id. */
  id: number
  is_active: boolean
  is_bot: boolean
  is_deleted: boolean
  is_online: boolean
  is_supporter: boolean
  last_visit: string | null
  pm_friends_only: boolean
  profile_colour: string | null
  username: string
}

/**
 * The signed-in user, as `GET /api/v2/me` returns it (scope `identify`).
 *
 * @see https://osu.ppy.sh/docs/index.html#get-own-data
 */
export interface OsuProfile extends OsuUserCompact {
  discord: string | null
  has_supported: boolean
  interests: string | null
  join_date: string
  kudosu: { available: number; total: number }
  location: string | null
  max_blocks: number
  max_friends: number
  occupation: string | null
  playmode: string
  playstyle: string[]
  post_count: number
  profile_order: string[]
  title: string | null
  title_url: string | null
  twitter: string | null
  website: string | null
  country: { code: string; name: string }
  cover: { custom_url: string | null; url: string; id: string | null }
  is_restricted: boolean
  [field: string]: unknown
}

/**
 * Adds osu! sign-in.
 *
 * Under Settings → OAuth on osu.ppy.sh, register a new OAuth application with the callback URL
 * `https://example.com/auth/callback/osu`, then set:
 *
 * - `AUTH_OSU_ID`: the client ID
 * - `AUTH_OSU_SECRET`: the client secret
 *
 * The scope is `identify`. The token request carries the id and secret in its body. The profile
 * is `GET /api/v2/me`; osu! gives no email address.
 *
 * @example
 * ```ts
 * import Osu from "@latch/core/providers/osu"
 *
 * export const config = { providers: [Osu] }
 * ```
 */
const Osu = oauthProvider<OsuProfile>({
  id: "osu",
  name: "osu!",
  authorization: "https://osu.ppy.sh/oauth/authorize",
  params: { scope: "identify" },
  token: "https://osu.ppy.sh/oauth/token",
  userinfo: "https://osu.ppy.sh/api/v2/me",
  client: { token_endpoint_auth_method: "client_secret_post" },
  profile: (profile) => ({
    id: String(profile.id),
    name: profile.username ?? null,
    email: null,
    image: profile.avatar_url ?? null,
  }),
  style: { brandColor: "#ff66aa", text: "#ffffff" },
})

export default Osu
