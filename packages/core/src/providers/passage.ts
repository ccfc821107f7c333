/**
 * Sign in with Passage by 1Password, through OpenID Connect.
 *
 * @module providers/passage
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of a Passage ID token; Passage releases `email`, `email_verified`, `phone_number`
 * and `phone_number_verified` with the `email` and `phone` scopes, and no name or picture.
 *
 * @see https://docs.passage.id/hosted-login/oidc-client-configuration
 */
export interface PassageProfile {
  /** The user's ID in the Passage app. */
  sub: string
  iss?: string
  aud?: string | string[]
  exp?: number
  iat?: number
  auth_time?: number
  azp?: string
  client_id?: string
  at_hash?: string
  c_hash?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  [claim: string]: unknown
}

/**
 * Adds Passage sign-in.
 *
 * In the Passage Console, set up hosted login (OIDC) for your app with the redirect URI
 * `https://example.com/auth/callback/passage`; the "OIDC" settings show the client and the
 * endpoints. Then set:
 *
 * - `AUTH_PASSAGE_ID`: the client ID
 * - `AUTH_PASSAGE_SECRET`: the client secret
 * - `AUTH_PASSAGE_ISSUER`: the app's issuer, the URL of its OpenID configuration without
 *   `/.well-known/openid-configuration`
 *
 * The client authenticates with HTTP Basic at the token endpoint. Passage gives no name or
 * picture, so the user has none.
 *
 * @example
 * ```ts
 * import Passage from "@latch/core/providers/passage"
 *
 * export const config = { providers: [Passage] }
 * ```
 */
const Passage = oidcProvider<PassageProfile>({
  id: "passage",
  name: "Passage",
  client: { token_endpoint_auth_method: "client_secret_basic" },
  style: { brandColor: "#3d53f6", text: "#ffffff" },
})

export default Passage
