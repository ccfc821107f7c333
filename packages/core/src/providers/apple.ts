/**
 * Sign in with Apple, on the web, through OpenID Connect.
 *
 * @module providers/apple
 */
import type { OAuthUserConfig, OIDCConfig } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"

/**
 * The claims of an Apple ID token.
 *
 * @see https://developer.apple.com/documentation/signinwithapplerestapi/authenticating-users-with-sign-in-with-apple
 */
export interface AppleProfile {
  /** `https://appleid.apple.com` */
  iss: string
  /** Your Services ID. */
  aud: string
  iat: number
  exp: number
  /** The user's stable identifier for your team. */
  sub: string
  nonce?: string
  nonce_supported?: boolean
  at_hash?: string
  c_hash?: string
  auth_time?: number
  /** The user's address, or a private relay address (`…@privaterelay.appleid.com`). */
  email?: string
  /** A boolean, or the strings `"true"`/`"false"`. */
  email_verified?: boolean | "true" | "false"
  /** Whether `email` is a private relay address. */
  is_private_email?: boolean | "true" | "false"
  /** 0 unsupported, 1 unknown, 2 likely real. */
  real_user_status?: 0 | 1 | 2
  /** Set when the app was transferred to another team. */
  transfer_sub?: string
  /**
   * The `user` form field Apple posts on the very first sign-in (not a claim of the ID token).
   * Latch's profile reads the ID token only, so this is not set by Latch itself.
   */
  user?: AppleNonConformUser
  [claim: string]: unknown
}

/** The `user` form field Apple posts once, on a user's first sign-in, as JSON. */
export interface AppleNonConformUser {
  name: {
    firstName: string
    lastName: string
  }
  email: string
}

/**
 * Adds Sign in with Apple.
 *
 * In the Apple Developer account: an App ID with "Sign in with Apple", a Services ID (its
 * identifier is the client ID) configured with your domain and the return URL
 * `https://example.com/auth/callback/apple`, and a key for Sign in with Apple. Then set:
 *
 * - `AUTH_APPLE_ID`: the Services ID, e.g. `com.example.web`
 * - `AUTH_APPLE_SECRET`: the client secret, which for Apple is a JWT you sign (ES256) with that
 *   key: header `kid` = the key ID; claims `iss` = your team ID, `sub` = the Services ID,
 *   `aud` = `https://appleid.apple.com`, `iat`, and `exp` at most six months later. Renew it
 *   before it expires.
 *
 * Apple requires `response_mode=form_post` when the name or email is asked for: the callback is
 * a cross-site POST, which Latch answers with a redirect to itself so that the browser sends the
 * sign-in cookies. Apple requires HTTPS return URLs, also in development (no localhost).
 *
 * Apple puts the email in the ID token but never the name: the name arrives only once, as the
 * `user` form field of the very first sign-in, which the profile does not see, so `name` is
 * `null`. The token endpoint authenticates with `client_secret_post`.
 *
 * @example
 * ```ts
 * import Apple from "@latch/core/providers/apple"
 *
 * export const config = { providers: [Apple] }
 * ```
 */
export default function Apple<P extends AppleProfile = AppleProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const { authorization, ...rest } = options
  return {
    id: "apple",
    name: "Apple",
    type: "oidc",
    issuer: "https://appleid.apple.com",
    authorization: withDefaults(
      undefined,
      { scope: "openid name email", response_mode: "form_post" },
      authorization,
    ),
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile: (profile) => ({
      id: profile.sub,
      name: null,
      email: profile.email ?? null,
      image: null,
    }),
    style: { brandColor: "#000000", text: "#ffffff" },
    ...rest,
  }
}
