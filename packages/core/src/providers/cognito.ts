/**
 * Sign in with Amazon Cognito, through OpenID Connect.
 *
 * @module providers/cognito
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of a Cognito ID token (and of its `oauth2/userInfo` endpoint).
 *
 * @see https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html
 */
export interface CognitoProfile {
  /** The user's id in the user pool (a UUID). */
  sub: string
  "cognito:username"?: string
  "cognito:groups"?: string[]
  name?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  picture?: string
  preferred_username?: string
  [claim: string]: unknown
}

/**
 * Adds Amazon Cognito sign-in.
 *
 * In the user pool, create an app client with a client secret, the OAuth 2.0 grant "Authorization
 * code grant", the scopes `openid profile email` and the callback URL
 * `https://example.com/auth/callback/cognito`, then set:
 *
 * - `AUTH_COGNITO_ID`: the app client id
 * - `AUTH_COGNITO_SECRET`: the app client secret
 * - `AUTH_COGNITO_ISSUER`: the user pool's issuer,
 *   `https://cognito-idp.<region>.amazonaws.com/<user pool id>`
 *
 * The endpoints come from the issuer's discovery document (they are on the pool's domain).
 * The name falls back to `cognito:username` when the pool keeps no `name`.
 *
 * @example
 * ```ts
 * import Cognito from "@latch/core/providers/cognito"
 *
 * export const config = { providers: [Cognito] }
 * ```
 */
const Cognito = oidcProvider<CognitoProfile>({
  id: "cognito",
  name: "Cognito",
  profile: (profile) => ({
    id: profile.sub,
    name: profile.name ?? profile["cognito:username"] ?? profile.preferred_username ?? null,
    email: profile.email ?? null,
    image: profile.picture ?? null,
  }),
  style: { brandColor: "#ff9900", text: "#ffffff" },
})

export default Cognito
