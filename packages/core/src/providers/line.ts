/**
 * Sign in with LINE (LINE Login v2.1), through OpenID Connect.
 *
 * @module providers/line
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of a LINE Login ID token with the `openid profile email` scopes.
 *
 * @see https://developers.line.biz/en/docs/line-login/verify-id-token/
 */
export interface LineProfile {
  /** `https://access.line.me` */
  iss: string
  /** The user's ID for the channel's provider, e.g. `U1234567890abcdef1234567890abcdef`. */
  sub: string
  /** The channel ID. */
  aud: string
  exp: number
  iat: number
  auth_time?: number
  nonce?: string
  /** How the user signed in: `pwd`, `lineautologin`, `lineqr`, `linesso`, `mfa`. */
  amr?: string[]
  /** The user's display name. */
  name?: string
  /** The URL of the user's profile picture. */
  picture?: string
  /** Only when the channel may read email addresses and the user agreed. */
  email?: string
  [claim: string]: unknown
}

/**
 * Adds LINE sign-in.
 *
 * In the LINE Developers Console, create a LINE Login channel for a web app with the callback
 * URL `https://example.com/auth/callback/line` (apply for "Email address permission" to receive
 * email addresses), then set:
 *
 * - `AUTH_LINE_ID`: the channel ID
 * - `AUTH_LINE_SECRET`: the channel secret
 *
 * LINE signs the ID tokens of web logins with HS256, keyed with the channel secret (not with a
 * key of its JWKS, which serves the ES256 tokens of its SDKs), and takes the client's
 * credentials in the body of the token request.
 *
 * @example
 * ```ts
 * import LINE from "@latch/core/providers/line"
 *
 * export const config = { providers: [LINE] }
 * ```
 */
const LINE = oidcProvider<LineProfile>({
  id: "line",
  name: "LINE",
  issuer: "https://access.line.me",
  client: {
    id_token_signed_response_alg: "HS256",
    token_endpoint_auth_method: "client_secret_post",
  },
  style: { brandColor: "#06c755", text: "#ffffff" },
})

export default LINE
