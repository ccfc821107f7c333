/**
 * Sign in with Webex.
 *
 * @module providers/webex
 */
import { oauthProvider } from "../lib/provider-shapes.js"
import type { OAuthConfig, OAuthUserConfig } from "./index.js"

/**
 * The signed-in person, as `GET /v1/people/me` returns it.
 *
 * @see https://developer.webex.com/docs/api/v1/people/get-my-own-details
 */
export interface WebexProfile {
  /** The person's id (a base64 string). */
  id: string
  emails: string[]
  displayName?: string
  nickName?: string
  firstName?: string
  lastName?: string
  /** URL of the person's avatar. */
  avatar?: string
  orgId?: string
  created?: string
  lastModified?: string
  status?: string
  type?: "person" | "bot" | "appuser"
  [field: string]: unknown
}

const shaped = (base: string) =>
  oauthProvider<WebexProfile>({
    id: "webex",
    name: "Webex",
    authorization: `${base}/authorize`,
    params: { scope: "spark:kms spark:people_read" },
    token: `${base}/access_token`,
    client: { token_endpoint_auth_method: "client_secret_post" },
    userinfo: `${base}/people/me`,
    profile: (profile) => ({
      id: profile.id,
      name: profile.displayName || null,
      email: profile.emails?.[0] ?? null,
      image: profile.avatar ?? null,
    }),
    style: { brandColor: "#07c1e4", text: "#ffffff" },
  })

/**
 * Adds Webex sign-in.
 *
 * Create an integration on the Webex developer portal with the redirect URI
 * `https://example.com/auth/callback/webex` and the scopes `spark:kms` and `spark:people_read`,
 * then set:
 *
 * - `AUTH_WEBEX_ID`: the client ID
 * - `AUTH_WEBEX_SECRET`: the client secret
 *
 * The token request carries the secret in its body. The profile is `GET /v1/people/me`; its
 * first `emails` entry is the user's email. `apiBaseUrl` moves every endpoint to another Webex
 * API base (default `https://webexapis.com/v1`).
 *
 * @example
 * ```ts
 * import Webex from "@latch/core/providers/webex"
 *
 * export const config = { providers: [Webex] }
 * ```
 */
export default function Webex<P extends WebexProfile = WebexProfile>(
  options: OAuthUserConfig<P> & { apiBaseUrl?: string } = {},
): OAuthConfig<P> {
  const { apiBaseUrl = "https://webexapis.com/v1", ...rest } = options
  return shaped(apiBaseUrl.replace(/\/+$/, ""))<P>(rest as OAuthUserConfig<P>)
}
