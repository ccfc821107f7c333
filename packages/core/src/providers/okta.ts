/**
 * Sign in with Okta, through OpenID Connect.
 *
 * @module providers/okta
 */
import type { OAuthUserConfig, OIDCConfig } from "./index.js"
import { userFromClaims } from "../lib/claims.js"
import { withDefaults } from "../lib/endpoint.js"

/**
 * The claims of an Okta ID token with the `openid profile email` scopes.
 *
 * @see https://developer.okta.com/docs/api/openapi/okta-oauth/guides/overview/#id-token
 */
export interface OktaProfile {
  /** The user's Okta ID. */
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  middle_name?: string
  nickname?: string
  /** The Okta login, usually an email address. */
  preferred_username?: string
  profile?: string
  picture?: string
  website?: string
  gender?: string
  birthdate?: string
  zoneinfo?: string
  locale?: string
  updated_at?: number
  email?: string
  email_verified?: boolean
  [claim: string]: unknown
}

/**
 * Adds Okta sign-in.
 *
 * Create an app integration (OIDC, "Web Application") with the sign-in redirect URI
 * `https://example.com/auth/callback/okta`, then set:
 *
 * - `AUTH_OKTA_ID`: the client ID
 * - `AUTH_OKTA_SECRET`: the client secret
 * - `AUTH_OKTA_ISSUER`: the authorization server: `https://<your-org>.okta.com` (the org
 *   server) or `https://<your-org>.okta.com/oauth2/default` (a custom one)
 *
 * @example
 * ```ts
 * import Okta from "@latch/core/providers/okta"
 *
 * export const config = { providers: [Okta] }
 * ```
 */
export default function Okta<P extends OktaProfile = OktaProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const { authorization, ...rest } = options
  return {
    id: "okta",
    name: "Okta",
    type: "oidc",
    authorization: withDefaults(undefined, { scope: "openid profile email" }, authorization),
    profile: userFromClaims,
    style: { brandColor: "#007dc1", text: "#ffffff" },
    ...rest,
  }
}
