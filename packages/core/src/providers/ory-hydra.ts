/**
 * Sign in with Ory Hydra (or Ory Network's OAuth2 service), through OpenID Connect.
 *
 * @module providers/ory-hydra
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of an ID token from Ory Hydra. Besides these, the login and consent app puts in the
 * ID token the claims it chooses (`session.id_token`).
 *
 * @see https://www.ory.sh/docs/oauth2-oidc/authorization-code-flow
 */
export interface OryHydraProfile {
  /** The subject the login app accepted for the user. */
  sub: string
  iss?: string
  aud?: string[]
  iat?: number
  exp?: number
  auth_time?: number
  jti?: string
  sid?: string
  amr?: string[]
  acr?: string
  name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/**
 * Adds Ory Hydra sign-in. The provider's id is `hydra`.
 *
 * Create an OAuth 2.0 client (`hydra create oauth2-client` or the Ory Console) with the grant
 * types `authorization_code refresh_token`, the response type `code`, the scopes
 * `openid profile email` and the redirect URI `https://example.com/auth/callback/hydra`, then set:
 *
 * - `AUTH_HYDRA_ID`: the client ID
 * - `AUTH_HYDRA_SECRET`: the client secret
 * - `AUTH_HYDRA_ISSUER`: Hydra's public URL (`urls.self.issuer`), e.g.
 *   `https://<project-slug>.projects.oryapis.com` on Ory Network
 *
 * @example
 * ```ts
 * import OryHydra from "@latch/core/providers/ory-hydra"
 *
 * export const config = { providers: [OryHydra] }
 * ```
 */
const OryHydra = oidcProvider<OryHydraProfile>({
  id: "hydra",
  name: "Hydra",
  style: { brandColor: "#0f172a", text: "#ffffff" },
})

export default OryHydra
