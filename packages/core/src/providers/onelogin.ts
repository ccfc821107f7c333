/**
 * Sign in with OneLogin, through OpenID Connect.
 *
 * @module providers/onelogin
 */
import { oidcProvider } from "../lib/provider-shapes.js"
import { issuerFromEnv, type FinishProvider } from "../lib/provider-rules.js"

/**
 * The claims of a OneLogin ID token with the `openid profile email` scopes.
 *
 * @see https://developers.onelogin.com/openid-connect/scopes
 */
export interface OneLoginProfile {
  /** The user's OneLogin ID. */
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  email?: string
  updated_at?: number
  groups?: string[]
  [claim: string]: unknown
}

/**
 * OneLogin's OpenID Provider is at `/oidc/2` on the account's domain: an issuer given as the
 * bare domain is completed, since nothing is served at the domain's own discovery URL.
 */
const finish: FinishProvider = (provider, context) => {
  const settled = issuerFromEnv(provider, context)
  if (!settled.issuer || !URL.canParse(settled.issuer)) return settled
  const url = new URL(settled.issuer)
  return url.pathname === "/" ? { ...settled, issuer: `${url.origin}/oidc/2` } : settled
}

/**
 * Adds OneLogin sign-in.
 *
 * In the OneLogin admin, add the "OpenId Connect (OIDC)" application with the redirect URI
 * `https://example.com/auth/callback/onelogin` and, under SSO, the token endpoint
 * authentication method "Basic", then set:
 *
 * - `AUTH_ONELOGIN_ID`: the client ID
 * - `AUTH_ONELOGIN_SECRET`: the client secret
 * - `AUTH_ONELOGIN_ISSUER`: `https://<subdomain>.onelogin.com/oidc/2` (the bare
 *   `https://<subdomain>.onelogin.com` is completed with `/oidc/2`)
 *
 * @example
 * ```ts
 * import OneLogin from "@latch/core/providers/onelogin"
 *
 * export const config = { providers: [OneLogin] }
 * ```
 */
const OneLogin = oidcProvider<OneLoginProfile>({
  id: "onelogin",
  name: "OneLogin",
  finish,
  style: { brandColor: "#1c1f2a", text: "#ffffff" },
})

export default OneLogin
