/**
 * Sign in with HubSpot.
 *
 * @module providers/hubspot
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"

/**
 * The access token's metadata, as `GET /oauth/v1/access-tokens/{token}` returns it: who
 * installed the app, in which HubSpot account.
 *
 * @see https://developers.hubspot.com/docs/api-reference/legacy/authentication/oauth-tokens/v1/get-oauth-token-metadata
 */
export interface HubSpotProfile {
  /** The email address of the user who authorized the app. */
  user: string
  /** The user's id in HubSpot. */
  user_id: number
  /** The domain of the HubSpot account. */
  hub_domain: string
  /** The id of the HubSpot account (portal). */
  hub_id: number
  app_id: number
  scopes: string[]
  token: string
  token_type: string
  expires_in: number
  [field: string]: unknown
}

/**
 * Adds HubSpot sign-in.
 *
 * Create an app in a HubSpot developer account with the redirect URL
 * `https://example.com/auth/callback/hubspot` and the `oauth` scope, then set:
 *
 * - `AUTH_HUBSPOT_ID`: the app's client ID
 * - `AUTH_HUBSPOT_SECRET`: the app's client secret
 *
 * The token request carries the client id and secret in its body. HubSpot has no profile API:
 * the user is the access token's metadata, `GET /oauth/v1/access-tokens/{token}`, which takes
 * the token in its path. HubSpot gives no name or picture: the name is the user's email address.
 *
 * @example
 * ```ts
 * import HubSpot from "@latch/core/providers/hubspot"
 *
 * export const config = { providers: [HubSpot] }
 * ```
 */
const HubSpot = oauthProvider<HubSpotProfile>({
  id: "hubspot",
  name: "HubSpot",
  authorization: "https://app.hubspot.com/oauth/authorize",
  params: { scope: "oauth" },
  token: "https://api.hubapi.com/oauth/v1/token",
  client: { token_endpoint_auth_method: "client_secret_post" },
  userinfo: profileFrom({
    url: (tokens) =>
      `https://api.hubapi.com/oauth/v1/access-tokens/${encodeURIComponent(String(tokens.access_token))}`,
  }),
  profile: (profile) => ({
    id: String(profile.user_id),
    name: profile.user ?? null,
    email: profile.user ?? null,
    image: null,
  }),
  style: { brandColor: "#ff7a59", text: "#ffffff" },
})

export default HubSpot
