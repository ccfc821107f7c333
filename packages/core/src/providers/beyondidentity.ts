/**
 * Sign in with Beyond Identity (passwordless, passkeys), through OpenID Connect.
 *
 * @module providers/beyondidentity
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of a Beyond Identity ID token.
 *
 * @see https://developer.beyondidentity.com/docs/next-auth
 */
export interface BeyondIdentityProfile {
  /** The identity's id in the realm. */
  sub: string
  name?: string
  /** The identity's username. */
  preferred_username?: string
  email?: string
  [claim: string]: unknown
}

/**
 * Adds Beyond Identity sign-in.
 *
 * In the Beyond Identity Admin Console, add an application (OIDC, confidential client,
 * authorization code with PKCE, token endpoint auth "Client Secret Basic") with the redirect URI
 * `https://example.com/auth/callback/beyondidentity`, then set:
 *
 * - `AUTH_BEYONDIDENTITY_ID`: the client ID
 * - `AUTH_BEYONDIDENTITY_SECRET`: the client secret
 * - `AUTH_BEYONDIDENTITY_ISSUER`: the application's issuer,
 *   `https://auth-<region>.beyondidentity.com/v1/tenants/<tenant>/realms/<realm>/applications/<application>`
 *
 * The endpoints come from the issuer's discovery document. The name falls back to the username.
 *
 * @example
 * ```ts
 * import BeyondIdentity from "@latch/core/providers/beyondidentity"
 *
 * export const config = { providers: [BeyondIdentity] }
 * ```
 */
const BeyondIdentity = oidcProvider<BeyondIdentityProfile>({
  id: "beyondidentity",
  name: "Beyond Identity",
  style: { brandColor: "#5077c5", text: "#ffffff" },
})

export default BeyondIdentity
