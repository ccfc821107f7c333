/**
 * Sign in with Twitch, through OpenID Connect.
 *
 * @module providers/twitch
 */
import { customFetch } from "../markers.js"
import type { OAuthUserConfig, OIDCConfig, ProviderFetch } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"

/**
 * The claims of a Twitch ID token, with the optional claims Latch requests.
 *
 * @see https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/#requesting-claims
 */
export interface TwitchProfile {
  iss: string
  /** The Twitch user ID. */
  sub: string
  aud: string
  azp?: string
  exp: number
  iat: number
  nonce?: string
  /** The login name. */
  preferred_username?: string
  email?: string
  email_verified?: boolean
  /** The profile image URL. */
  picture?: string
  updated_at?: string
  [claim: string]: unknown
}

/** The claims Latch asks Twitch to put in the ID token (the `claims` request parameter). */
const CLAIMS = JSON.stringify({
  id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
})

/**
 * Twitch answers the token request with `scope` as a JSON array, where RFC 6749 §5.1 has a
 * space-separated string (and the token response parser insists on one): this `fetch` rewrites
 * that one field of JSON answers to POST requests.
 */
function conformingFetch(inner: ProviderFetch): ProviderFetch {
  return async (input, init) => {
    const response = await inner(input, init)
    const json = (response.headers.get("content-type") ?? "").includes("json")
    if ((init?.method ?? "GET").toUpperCase() !== "POST" || !json) return response
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => undefined)
    if (typeof body !== "object" || body === null) return response
    const { scope } = body as { scope?: unknown }
    if (!Array.isArray(scope)) return response
    const headers = new Headers(response.headers)
    headers.delete("content-length")
    headers.delete("content-encoding")
    return new Response(JSON.stringify({ ...body, scope: scope.join(" ") }), {
      status: response.status,
      statusText: response.statusText,
      headers,
    })
  }
}

/**
 * Adds Twitch sign-in.
 *
 * Register an application in the Twitch Developer Console (category "Website Integration", client
 * type "Confidential") with the OAuth redirect URL `https://example.com/auth/callback/twitch`, then
 * set:
 *
 * - `AUTH_TWITCH_ID`: the client ID
 * - `AUTH_TWITCH_SECRET`: a client secret
 *
 * Issuer `https://id.twitch.tv/oauth2`; scope `openid user:read:email`, with the `claims`
 * parameter asking for the email, picture and login name in the ID token. The token endpoint
 * takes the secret in the body (`client_secret_post`). Twitch's token responses carry `scope` as
 * an array: the provider's `fetch` (yours, if you set one) is wrapped to turn it into a string.
 *
 * @example
 * ```ts
 * import Twitch from "@latch/core/providers/twitch"
 *
 * export const config = { providers: [Twitch] }
 * ```
 */
export default function Twitch<P extends TwitchProfile = TwitchProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const { authorization, ...rest } = options
  const inner: ProviderFetch = options[customFetch] ?? ((input, init) => fetch(input, init))
  return {
    id: "twitch",
    name: "Twitch",
    type: "oidc",
    issuer: "https://id.twitch.tv/oauth2",
    authorization: withDefaults(
      undefined,
      { scope: "openid user:read:email", claims: CLAIMS },
      authorization,
    ),
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile: (profile) => ({
      id: profile.sub,
      name: profile.preferred_username ?? null,
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: "#9146ff", text: "#ffffff" },
    ...rest,
    [customFetch]: conformingFetch(inner),
  }
}
