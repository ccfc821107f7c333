/**
 * Sign in with Trakt.
 *
 * @module providers/trakt
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"
import type { UserinfoEndpointHandler } from "./oauth.js"

/**
 * The signed-in user, as `GET /users/me?extended=full` returns it.
 *
 * @see https://trakt.docs.apiary.io/#reference/users/profile/get-user-profile
 */
export interface TraktUser {
  username: string
  private: boolean
  name: string | null
  vip: boolean
  vip_ep: boolean
  /** `slug` is the user's id in URLs, and the one the account is stored under. */
  ids: { slug: string; uuid?: string; [id: string]: unknown }
  joined_at?: string
  location?: string | null
  about?: string | null
  gender?: string | null
  age?: number | null
  images?: { avatar: { full: string } }
  vip_og?: boolean
  vip_years?: number
  [field: string]: unknown
}

const url = "https://api.trakt.tv/users/me?extended=full"

/** Every Trakt API call names the app (`trakt-api-key`, the client id) and the API version. */
const userinfo: UserinfoEndpointHandler = {
  url,
  request: (context) =>
    profileFrom({
      url,
      headers: { "trakt-api-version": "2", "trakt-api-key": context.provider.clientId ?? "" },
    }).request!(context),
}

/**
 * Adds Trakt sign-in.
 *
 * Create an OAuth application in Trakt's settings (Your API Apps) with the redirect URI
 * `https://example.com/auth/callback/trakt`, then set:
 *
 * - `AUTH_TRAKT_ID`: the client ID
 * - `AUTH_TRAKT_SECRET`: the client secret
 *
 * The token request carries the secret in its body. The profile is `GET /users/me?extended=full`
 * with the `trakt-api-key` (the client id) and `trakt-api-version: 2` headers every Trakt API
 * call needs. Trakt gives no email address; the account is stored under `ids.slug`.
 *
 * @example
 * ```ts
 * import Trakt from "@latch/core/providers/trakt"
 *
 * export const config = { providers: [Trakt] }
 * ```
 */
const Trakt = oauthProvider<TraktUser>({
  id: "trakt",
  name: "Trakt",
  authorization: "https://trakt.tv/oauth/authorize",
  token: "https://api.trakt.tv/oauth/token",
  client: { token_endpoint_auth_method: "client_secret_post" },
  userinfo,
  profile: (profile) => ({
    id: profile.ids.slug,
    name: profile.name || profile.username || null,
    email: null,
    image: profile.images?.avatar?.full ?? null,
  }),
  style: { brandColor: "#ed2224", text: "#ffffff" },
})

export default Trakt
