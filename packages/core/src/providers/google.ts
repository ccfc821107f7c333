/**
 * Sign in with Google, through OpenID Connect.
 *
 * @module providers/google
 */
import type { OAuthUserConfig, OIDCConfig } from "./index.js"
import { userFromClaims } from "../lib/claims.js"
import { withDefaults } from "../lib/endpoint.js"
import { narrowingParam, withFinish, type SignInFacts } from "../lib/provider-rules.js"

/**
 * The claims of a Google ID token.
 *
 * @see https://developers.google.com/identity/openid-connect/openid-connect#an-id-tokens-payload
 */
export interface GoogleProfile {
  iss: string
  azp: string
  aud: string
  sub: string
  email: string
  email_verified: boolean
  at_hash?: string
  name?: string
  picture?: string
  given_name?: string
  family_name?: string
  locale?: string
  /** The Google Workspace domain of the account, absent for consumer accounts. */
  hd?: string
  nonce?: string
  iat: number
  exp: number
  [claim: string]: unknown
}

/**
 * Whether the ID token's `hd` claim is the configured hosted domain: the claim, signed by Google,
 * is what it vouches for; the parameter can be changed by anyone who edits the request.
 *
 * @see https://developers.google.com/identity/openid-connect/openid-connect#hd-param
 */
function checkHostedDomain(hd: string, { claims }: SignInFacts): string | undefined {
  const wanted = hd.trim().toLowerCase()
  const domain = typeof claims?.hd === "string" ? claims.hd.toLowerCase() : undefined
  if (!domain) return `the account belongs to no Google Workspace domain (hd ${hd} is required)`
  if (wanted !== "*" && domain !== wanted)
    return `the account's domain is ${JSON.stringify(String(domain))}, not ${wanted}`
  return undefined
}

/**
 * Adds Google sign-in (OpenID Connect, issuer `https://accounts.google.com`).
 *
 * Create an OAuth client ID of type "Web application" in the Google Cloud console (APIs &
 * Services → Credentials) with the authorized redirect URI
 * `https://example.com/auth/callback/google`, then set:
 *
 * - `AUTH_GOOGLE_ID`: the client ID
 * - `AUTH_GOOGLE_SECRET`: the client secret
 *
 * The user comes from the ID token (scope `openid profile email`). Google issues a refresh token
 * only when asked: add `access_type: "offline"` and `prompt: "consent"` to the authorization
 * parameters.
 *
 * `hd` (a Workspace domain, or `*` for any Workspace account) limits who may sign in: Google only
 * uses the parameter to tailor its account chooser, so Latch also refuses (`AccessDenied`) any
 * sign-in whose ID token lacks that `hd` claim, and a sign-in request cannot replace the value.
 *
 * @example
 * ```ts
 * import Google from "@latch/core/providers/google"
 *
 * export const config = { providers: [Google] }
 *
 * // With a refresh token:
 * Google({ authorization: { params: { access_type: "offline", prompt: "consent" } } })
 *
 * // Only the accounts of one Google Workspace domain:
 * Google({ authorization: { params: { hd: "example.com" } } })
 * ```
 */
export default function Google<P extends GoogleProfile = GoogleProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const { authorization, ...rest } = options
  const provider: OIDCConfig<P> = {
    id: "google",
    name: "Google",
    type: "oidc",
    issuer: "https://accounts.google.com",
    authorization: withDefaults(undefined, { scope: "openid profile email" }, authorization),
    profile: userFromClaims,
    style: { brandColor: "#4285f4", text: "#ffffff" },
    ...rest,
  }
  return withFinish(provider, narrowingParam("hd", checkHostedDomain))
}
