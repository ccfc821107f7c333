/**
 * Sign in with Netlify.
 *
 * @module providers/netlify
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The user, as `GET https://api.netlify.com/api/v1/user` returns it.
 *
 * @see https://open-api.netlify.com/#tag/user/operation/getCurrentUser
 */
export interface NetlifyProfile {
  /** The user's id. */
  id: string
  uid?: string | null
  full_name?: string | null
  avatar_url?: string | null
  email: string
  affiliate_id?: string
  site_count?: number
  created_at?: string
  last_login?: string
  login_providers?: string[]
  slug?: string
  [field: string]: unknown
}

/**
 * Adds Netlify sign-in.
 *
 * Under User settings → Applications → OAuth, create an OAuth application with the redirect URI
 * `https://example.com/auth/callback/netlify`, then set:
 *
 * - `AUTH_NETLIFY_ID`: the client ID
 * - `AUTH_NETLIFY_SECRET`: the secret
 *
 * Netlify has no scopes: a token acts for the user on the whole API. The token request carries
 * the id and secret in its body. The profile is `GET /api/v1/user`.
 *
 * @example
 * ```ts
 * import Netlify from "@latch/core/providers/netlify"
 *
 * export const config = { providers: [Netlify] }
 * ```
 */
const Netlify = oauthProvider<NetlifyProfile>({
  id: "netlify",
  name: "Netlify",
  authorization: "https://app.netlify.com/authorize",
  token: "https://api.netlify.com/oauth/token",
  userinfo: "https://api.netlify.com/api/v1/user",
  client: { token_endpoint_auth_method: "client_secret_post" },
  profile: (profile) => ({
    id: String(profile.id),
    name: profile.full_name ?? null,
    email: profile.email ?? null,
    image: profile.avatar_url ?? null,
  }),
  style: { brandColor: "#32e6e2", text: "#000000" },
})

export default Netlify
