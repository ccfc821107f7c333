/**
 * Sign in with a Duende IdentityServer (v6 and later), through OpenID Connect.
 *
 * @module providers/duende-identity-server6
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of a Duende IdentityServer ID token with the `openid profile email` scopes (the
 * standard identity resources).
 *
 * @see https://docs.duendesoftware.com/identityserver/fundamentals/resources/identity/
 */
export interface DuendeISUser {
  /** The user's id at the server. */
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/**
 * Adds Duende IdentityServer sign-in.
 *
 * Register a client with the authorization code grant (PKCE), a secret, the scopes
 * `openid profile email` and the redirect URI
 * `https://example.com/auth/callback/duende-identity-server6`, then set:
 *
 * - `AUTH_DUENDE_IDENTITY_SERVER6_ID`: the client ID
 * - `AUTH_DUENDE_IDENTITY_SERVER6_SECRET`: the client secret
 * - `AUTH_DUENDE_IDENTITY_SERVER6_ISSUER`: the server's URL, e.g. `https://demo.duendesoftware.com`
 *
 * The endpoints come from the server's discovery document (`/connect/authorize`,
 * `/connect/token`…).
 *
 * @example
 * ```ts
 * import DuendeIdentityServer6 from "@latch/core/providers/duende-identity-server6"
 *
 * export const config = { providers: [DuendeIdentityServer6] }
 * ```
 */
const DuendeIdentityServer6 = oidcProvider<DuendeISUser>({
  id: "duende-identity-server6",
  name: "DuendeIdentityServer6",
  style: { brandColor: "#1a1a1a", text: "#ffffff" },
})

export default DuendeIdentityServer6
