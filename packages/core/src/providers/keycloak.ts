/**
 * Sign in with Keycloak, through OpenID Connect.
 *
 * @module providers/keycloak
 */
import type { OAuthUserConfig, OIDCConfig } from "./index.js"
import { userFromClaims } from "../lib/claims.js"
import { withDefaults } from "../lib/endpoint.js"

/**
 * The claims of a Keycloak ID token with the default client scopes (`profile`, `email`).
 *
 * @see https://www.keycloak.org/docs/latest/server_admin/#_oidc
 */
export interface KeycloakProfile {
  /** The user's ID in the realm. */
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  picture?: string
  email?: string
  email_verified?: boolean
  locale?: string
  /** The client the token was issued to. */
  azp?: string
  sid?: string
  [claim: string]: unknown
}

/**
 * Adds Keycloak sign-in.
 *
 * In the realm, create an OpenID Connect client with "Client authentication" on, the standard
 * flow enabled and the valid redirect URI `https://example.com/auth/callback/keycloak`, then set:
 *
 * - `AUTH_KEYCLOAK_ID`: the client ID
 * - `AUTH_KEYCLOAK_SECRET`: the client secret (Credentials tab)
 * - `AUTH_KEYCLOAK_ISSUER`: the realm's URL, e.g. `https://keycloak.example.com/realms/acme`
 *   (before Keycloak 17: `…/auth/realms/acme`)
 *
 * @example
 * ```ts
 * import Keycloak from "@latch/core/providers/keycloak"
 *
 * export const config = { providers: [Keycloak] }
 * ```
 */
export default function Keycloak<P extends KeycloakProfile = KeycloakProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const { authorization, ...rest } = options
  return {
    id: "keycloak",
    name: "Keycloak",
    type: "oidc",
    authorization: withDefaults(undefined, { scope: "openid profile email" }, authorization),
    profile: userFromClaims,
    style: { brandColor: "#008aaa", text: "#ffffff" },
    ...rest,
  }
}
