/**
 * Sign in with Patreon.
 *
 * @module providers/patreon
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"

/**
 * The signed-in user, as the API v2 `GET /api/oauth2/v2/identity` returns it (a JSON:API
 * document whose `data` is the user resource).
 *
 * @see https://docs.patreon.com/#get-api-oauth2-v2-identity
 */
export interface PatreonProfile {
  data: {
    /** The user's id, e.g. `"12345678"`. */
    id: string
    type: "user"
    attributes: {
      full_name?: string
      first_name?: string | null
      last_name?: string | null
      /** Present with the `identity[email]` scope. */
      email?: string
      is_email_verified?: boolean
      image_url?: string
      thumb_url?: string
      vanity?: string | null
      url?: string
      created?: string
      [field: string]: unknown
    }
    relationships?: Record<string, unknown>
  }
  links?: { self: string }
  [field: string]: unknown
}

/**
 * Adds Patreon sign-in.
 *
 * Register a client in the Patreon developer portal (Clients & API Keys) with the redirect URI
 * `https://example.com/auth/callback/patreon`, then set:
 *
 * - `AUTH_PATREON_ID`: the client ID
 * - `AUTH_PATREON_SECRET`: the client secret
 *
 * The scope is `identity identity[email]`; the token request carries the secret in its body.
 * The profile is API v2's identity endpoint with the user's `email`, `full_name`, `image_url`
 * and `vanity` fields asked for (API v2 returns only the fields named).
 *
 * @example
 * ```ts
 * import Patreon from "@latch/core/providers/patreon"
 *
 * export const config = { providers: [Patreon] }
 * ```
 */
const Patreon = oauthProvider<PatreonProfile>({
  id: "patreon",
  name: "Patreon",
  authorization: "https://www.patreon.com/oauth2/authorize",
  params: { scope: "identity identity[email]" },
  token: "https://www.patreon.com/api/oauth2/token",
  client: { token_endpoint_auth_method: "client_secret_post" },
  userinfo: profileFrom({
    url: "https://www.patreon.com/api/oauth2/v2/identity",
    query: { "fields[user]": "email,full_name,image_url,vanity" },
  }),
  profile: ({ data }) => ({
    id: data.id,
    name: data.attributes.full_name || data.attributes.vanity || null,
    email: data.attributes.email ?? null,
    image: data.attributes.image_url ?? null,
  }),
  style: { brandColor: "#ff424d", text: "#ffffff" },
})

export default Patreon
