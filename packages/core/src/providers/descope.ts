/**
 * Sign in with Descope, through OpenID Connect.
 *
 * @module providers/descope
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of a Descope ID token.
 *
 * @see https://docs.descope.com/identity-federation/
 */
export interface DescopeProfile {
  /** The user's id in the project. */
  sub: string
  name?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/**
 * Adds Descope sign-in.
 *
 * In the Descope console, under Applications, open the OIDC application (or add one) with the
 * redirect URL `https://example.com/auth/callback/descope`, then set:
 *
 * - `AUTH_DESCOPE_ID`: the project ID (the issuer's last path segment)
 * - `AUTH_DESCOPE_SECRET`: an access key (Manage → Access Keys)
 * - `AUTH_DESCOPE_ISSUER`: the application's issuer, `https://api.descope.com/<project ID>`
 *
 * The endpoints come from the issuer's discovery document. The sign-in uses PKCE and state
 * (no nonce).
 *
 * @example
 * ```ts
 * import Descope from "@latch/core/providers/descope"
 *
 * export const config = { providers: [Descope] }
 * ```
 */
const Descope = oidcProvider<DescopeProfile>({
  id: "descope",
  name: "Descope",
  checks: ["pkce", "state"],
  style: { brandColor: "#1c1c23", text: "#ffffff" },
})

export default Descope
