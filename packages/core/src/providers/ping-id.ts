/**
 * Sign in with PingOne (Ping Identity), through OpenID Connect.
 *
 * @module providers/ping-id
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of a PingOne ID token with the `openid profile email` scopes.
 *
 * @see https://developer.pingidentity.com/pingone-api/foundations/authentication-concepts/access-tokens-and-id-tokens/token-claims.html
 */
export interface PingProfile {
  /** The user's ID in the environment (a UUID). */
  sub: string
  iss?: string
  aud?: string
  iat?: number
  exp?: number
  acr?: string
  amr?: string[]
  auth_time?: number
  sid?: string
  name?: string
  given_name?: string
  family_name?: string
  middle_name?: string
  preferred_username?: string
  nickname?: string
  picture?: string
  email?: string
  email_verified?: boolean
  updated_at?: number
  /** The environment's ID. */
  env?: string
  /** The organization's ID. */
  org?: string
  [claim: string]: unknown
}

/**
 * Adds PingOne sign-in.
 *
 * In a PingOne environment, add an "OIDC Web App" application with the grant type
 * "Authorization Code", the redirect URI `https://example.com/auth/callback/ping-id` and the
 * scopes `openid profile email`, then set:
 *
 * - `AUTH_PING_ID_ID`: the client ID
 * - `AUTH_PING_ID_SECRET`: the client secret
 * - `AUTH_PING_ID_ISSUER`: the environment's issuer, `https://auth.pingone.com/<environment ID>/as`
 *   (`auth.pingone.eu`, `.ca`, `.asia` in other regions)
 *
 * @example
 * ```ts
 * import PingId from "@latch/core/providers/ping-id"
 *
 * export const config = { providers: [PingId] }
 * ```
 */
const PingId = oidcProvider<PingProfile>({
  id: "ping-id",
  name: "Ping Identity",
  style: { brandColor: "#b3282d", text: "#ffffff" },
})

export default PingId
