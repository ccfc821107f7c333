/**
 * Sign in with Pinterest.
 *
 * @module providers/pinterest
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The signed-in account, as API v5 `GET /v5/user_account` returns it.
 *
 * @see https://developers.pinterest.com/docs/api/v5/user_account-get/
 */
export interface PinterestProfile {
  /** The account's numeric id, as a string. */
  id?: string
  account_type: "BUSINESS" | "PINNER"
  /** The account's username, unique on Pinterest. */
  username: string
  profile_image: string
  website_url: string
  business_name?: string | null
  about?: string
  board_count?: number
  pin_count?: number
  follower_count?: number
  following_count?: number
  monthly_views?: number
  [field: string]: unknown
}

/**
 * Adds Pinterest sign-in.
 *
 * Create an app in the Pinterest developer platform with the redirect URI
 * `https://example.com/auth/callback/pinterest`, then set:
 *
 * - `AUTH_PINTEREST_ID`: the app ID
 * - `AUTH_PINTEREST_SECRET`: the app secret key
 *
 * The scope is `user_accounts:read`; the token request authenticates with HTTP Basic. Pinterest
 * gives no email address. The account is stored under its `username`, the identifier Auth.js
 * stores too.
 *
 * @example
 * ```ts
 * import Pinterest from "@latch/core/providers/pinterest"
 *
 * export const config = { providers: [Pinterest] }
 * ```
 */
const Pinterest = oauthProvider<PinterestProfile>({
  id: "pinterest",
  name: "Pinterest",
  authorization: "https://www.pinterest.com/oauth/",
  params: { scope: "user_accounts:read" },
  token: "https://api.pinterest.com/v5/oauth/token",
  userinfo: "https://api.pinterest.com/v5/user_account",
  profile: (profile) => ({
    id: profile.username,
    name: profile.username,
    email: null,
    image: profile.profile_image || null,
  }),
  style: { brandColor: "#e60023", text: "#ffffff" },
})

export default Pinterest
