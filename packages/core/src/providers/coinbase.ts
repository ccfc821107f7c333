/**
 * Sign in with Coinbase.
 *
 * @module providers/coinbase
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The signed-in user, as `GET /v2/user` returns it (inside `data`).
 *
 * @see https://docs.cdp.coinbase.com/coinbase-app/oauth2-integration/available-apis
 */
export interface CoinbaseProfile {
  data: {
    /** The user's id (a UUID). */
    id: string
    name: string | null
    username: string | null
    profile_location: string | null
    profile_bio: string | null
    profile_url: string | null
    avatar_url: string
    resource: "user"
    resource_path: string
    /** With the `wallet:user:email` scope. */
    email?: string
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Adds Coinbase sign-in.
 *
 * Create an OAuth client in the Coinbase Developer Platform (API Keys → OAuth) with the redirect
 * URI `https://example.com/auth/callback/coinbase`, then set:
 *
 * - `AUTH_COINBASE_ID`: the client ID
 * - `AUTH_COINBASE_SECRET`: the client secret
 *
 * The authorization asks for `wallet:user:read,wallet:user:email` (Coinbase separates scopes
 * with commas); the token request sends the id and secret in its body. Access tokens last two
 * hours and come with a refresh token. The profile is `GET https://api.coinbase.com/v2/user`.
 *
 * @example
 * ```ts
 * import Coinbase from "@latch/core/providers/coinbase"
 *
 * export const config = { providers: [Coinbase] }
 * ```
 */
const Coinbase = oauthProvider<CoinbaseProfile>({
  id: "coinbase",
  name: "Coinbase",
  authorization: "https://login.coinbase.com/oauth2/auth",
  params: { scope: "wallet:user:read,wallet:user:email" },
  token: "https://login.coinbase.com/oauth2/token",
  userinfo: "https://api.coinbase.com/v2/user",
  client: { token_endpoint_auth_method: "client_secret_post" },
  profile: ({ data }) => ({
    id: data.id,
    name: data.name ?? data.username ?? null,
    email: data.email ?? null,
    image: data.avatar_url ?? null,
  }),
  style: { brandColor: "#0052ff", text: "#ffffff" },
})

export default Coinbase
