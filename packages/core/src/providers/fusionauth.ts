/**
 * Sign in with FusionAuth, through OpenID Connect.
 *
 * @module providers/fusionauth
 */
import type { OAuthUserConfig, OIDCConfig } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"
import { finishing, oidcProvider } from "../lib/provider-shapes.js"
import { issuerFromEnv, type FinishProvider } from "../lib/provider-rules.js"

/**
 * The claims of a FusionAuth ID token (a JWT populate lambda may add more).
 *
 * @see https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/tokens#id-token
 */
export interface FusionAuthProfile {
  /** The user's id (a UUID). */
  sub: string
  iss?: string
  aud?: string
  exp?: number
  iat?: number
  jti?: string
  at_hash?: string
  c_hash?: string
  sid?: string
  scope?: string
  /** How the user signed in: `PASSWORD`, `PASSWORDLESS`, `PING`… */
  authenticationType?: string
  /** The application's id. */
  applicationId?: string
  /** The user's roles in the application. */
  roles?: string[]
  email?: string
  email_verified?: boolean
  /** The user's username, with the `profile` scope. */
  preferred_username?: string
  name?: string
  given_name?: string
  middle_name?: string
  family_name?: string
  picture?: string
  birthdate?: string
  [claim: string]: unknown
}

/** Options of `FusionAuth()`. */
export interface FusionAuthOptions<P extends FusionAuthProfile> extends OAuthUserConfig<P> {
  /** The tenant, on a multi-tenant instance: sent with the sign-in so its theme is used. */
  tenantId?: string
}

/** With a `tenantId`: the tenant's discovery document, and `tenantId` on the sign-in request. */
const tenant: FinishProvider = (provider) => {
  const { tenantId } = (provider.options ?? {}) as { tenantId?: string }
  if (!tenantId || !provider.issuer) return provider
  const wellKnown = `${provider.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration?tenantId=${encodeURIComponent(tenantId)}`
  return {
    ...provider,
    wellKnown: provider.wellKnown ?? wellKnown,
    authorization: withDefaults(undefined, { tenantId }, provider.authorization),
  }
}

/**
 * Adds FusionAuth sign-in.
 *
 * In FusionAuth's admin UI, create an application (Applications → Add) with the authorized
 * redirect URL `https://example.com/auth/callback/fusionauth` and the authorization code and
 * refresh token grants, then set:
 *
 * - `AUTH_FUSIONAUTH_ID`: the application's client ID
 * - `AUTH_FUSIONAUTH_SECRET`: its client secret
 * - `AUTH_FUSIONAUTH_ISSUER`: the tenant's issuer (Tenants → Edit → General → Issuer), which
 *   must be the instance's URL, e.g. `https://auth.example.com`
 *
 * The endpoints come from the discovery document. On a multi-tenant instance give `tenantId`:
 * the discovery document is then the tenant's (`?tenantId=…`) and the sign-in request names the
 * tenant, for its theme. The sign-in asks for `openid offline_access email profile` (a refresh
 * token) with PKCE and state. The name falls back to the username.
 *
 * @example
 * ```ts
 * import FusionAuth from "@latch/core/providers/fusionauth"
 *
 * export const config = { providers: [FusionAuth({ tenantId: process.env.FUSIONAUTH_TENANT_ID })] }
 * ```
 */
const FusionAuth: <P extends FusionAuthProfile = FusionAuthProfile>(
  options?: FusionAuthOptions<P>,
) => OIDCConfig<P> = oidcProvider<FusionAuthProfile>({
  id: "fusionauth",
  name: "FusionAuth",
  params: { scope: "openid offline_access email profile" },
  checks: ["pkce", "state"],
  style: { brandColor: "#f58320", text: "#ffffff" },
  finish: finishing(issuerFromEnv, tenant),
})

export default FusionAuth
