/**
 * Sign in with ZITADEL, through OpenID Connect.
 *
 * @module providers/zitadel
 */
import type { OAuthUserConfig, OIDCConfig } from "./index.js"
import { userFromClaims } from "../lib/claims.js"
import { withDefaults } from "../lib/endpoint.js"

/**
 * The claims of ZITADEL's userinfo endpoint with the `openid profile email` scopes.
 *
 * @see https://zitadel.com/docs/apis/openidoauth/claims
 */
export interface ZitadelProfile {
  /** The user's ID. */
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  nickname?: string
  preferred_username?: string
  picture?: string
  gender?: string
  locale?: string
  updated_at?: number
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  [claim: string]: unknown
}

/**
 * Adds ZITADEL sign-in.
 *
 * In a project, create a "Web" application with the authentication method "Code" (client
 * secret) and the redirect URI `https://example.com/auth/callback/zitadel`, then set:
 *
 * - `AUTH_ZITADEL_ID`: the client ID
 * - `AUTH_ZITADEL_SECRET`: the client secret
 * - `AUTH_ZITADEL_ISSUER`: your instance's URL, e.g. `https://my-instance.zitadel.cloud`
 *
 * ZITADEL puts the profile claims in the ID token only when the application's "User Info inside
 * ID Token" option is on, so the profile is read from the userinfo endpoint (`idToken: false`);
 * the ID token is still validated.
 *
 * @example
 * ```ts
 * import Zitadel from "@latch/core/providers/zitadel"
 *
 * export const config = { providers: [Zitadel] }
 * ```
 */
export default function Zitadel<P extends ZitadelProfile = ZitadelProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const { authorization, ...rest } = options
  return {
    id: "zitadel",
    name: "ZITADEL",
    type: "oidc",
    idToken: false,
    authorization: withDefaults(undefined, { scope: "openid profile email" }, authorization),
    profile: userFromClaims,
    style: { brandColor: "#ff6f61", text: "#ffffff" },
    ...rest,
  }
}
