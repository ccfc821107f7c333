/**
 * Sign in with an IdentityServer4 server, through OpenID Connect.
 *
 * @module providers/identity-server4
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/** The claims of an IdentityServer4 ID token with the `openid profile email` scopes. */
export interface IdentityServer4Profile {
  /** The user's id at the server. */
  sub: string
  name?: string
  preferred_username?: string
  email?: string
  picture?: string
  [claim: string]: unknown
}

/**
 * Adds IdentityServer4 sign-in.
 *
 * IdentityServer4 is discontinued (security fixes ended in November 2022); its successor is
 * Duende IdentityServer, with `@latch/core/providers/duende-identity-server6`, which works the
 * same way. This provider is kept for existing deployments and their accounts.
 *
 * Register a client with the authorization code grant, a secret, the scopes
 * `openid profile email` and the redirect URI `https://example.com/auth/callback/identity-server4`,
 * then set:
 *
 * - `AUTH_IDENTITY_SERVER4_ID`: the client ID
 * - `AUTH_IDENTITY_SERVER4_SECRET`: the client secret
 * - `AUTH_IDENTITY_SERVER4_ISSUER`: the server's URL
 *
 * The endpoints come from the server's discovery document.
 *
 * @example
 * ```ts
 * import IdentityServer4 from "@latch/core/providers/identity-server4"
 *
 * export const config = { providers: [IdentityServer4] }
 * ```
 */
const IdentityServer4 = oidcProvider<IdentityServer4Profile>({
  id: "identity-server4",
  name: "IdentityServer4",
  style: { brandColor: "#000000", text: "#ffffff" },
})

export default IdentityServer4
