/**
 * Sign in with United Effects, through OpenID Connect.
 *
 * @module providers/united-effects
 */
import { oidcProvider } from "../lib/provider-shapes.js"
import { configuredParam, issuerFromEnv, type FinishProvider } from "../lib/provider-rules.js"

/**
 * The claims of a United Effects ID token with the `openid email profile` scopes.
 *
 * @see https://docs.unitedeffects.com/integrations/nextauthjs
 */
export interface UnitedEffectsProfile {
  /** The user's account ID in the Auth Group. */
  sub: string
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  [claim: string]: unknown
}

/**
 * The authorization asks for the Auth Group itself as the resource (RFC 8707), unless the
 * configuration names another.
 */
const finish: FinishProvider = (provider, context) => {
  const settled = issuerFromEnv(provider, context)
  if (!settled.issuer || configuredParam(settled, "resource") !== undefined) return settled
  const endpoint = settled.authorization
  const url = typeof endpoint === "string" ? endpoint : endpoint?.url
  const params = typeof endpoint === "object" ? endpoint.params : undefined
  return {
    ...settled,
    authorization: { ...(url ? { url } : {}), params: { ...params, resource: settled.issuer } },
  }
}

/**
 * Adds United Effects sign-in.
 *
 * In your Auth Group, create a client with the redirect URI
 * `https://example.com/auth/callback/united-effects`, then set:
 *
 * - `AUTH_UNITED_EFFECTS_ID`: the client ID
 * - `AUTH_UNITED_EFFECTS_SECRET`: the client secret
 * - `AUTH_UNITED_EFFECTS_ISSUER`: the Auth Group's issuer, `https://auth.unitedeffects.com/<Auth
 *   Group ID>`
 *
 * The authorization request names the Auth Group's issuer as its `resource`.
 *
 * @example
 * ```ts
 * import UnitedEffects from "@latch/core/providers/united-effects"
 *
 * export const config = { providers: [UnitedEffects] }
 * ```
 */
const UnitedEffects = oidcProvider<UnitedEffectsProfile>({
  id: "united-effects",
  name: "United Effects",
  params: { scope: "openid email profile" },
  finish,
  style: { brandColor: "#000000", text: "#ffffff" },
})

export default UnitedEffects
