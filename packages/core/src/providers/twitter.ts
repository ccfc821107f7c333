/**
 * Sign in with X (formerly Twitter), through OAuth 2.0 with PKCE.
 *
 * @module providers/twitter
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"
import { fixedEndpoints, withFinish } from "../lib/provider-rules.js"

/**
 * The answer of the X API v2 `GET /2/users/me`: the user is under `data`.
 *
 * @see https://docs.x.com/x-api/users/get-my-user
 */
export interface TwitterProfile {
  data: {
    id: string
    /** The display name. */
    name: string
    /** The handle, without `@`. */
    username: string
    /** With `user.fields=profile_image_url` (the default here). */
    profile_image_url?: string
    /** With `user.fields=confirmed_email` and the `users.email` scope. */
    confirmed_email?: string
    created_at?: string
    description?: string
    location?: string
    protected?: boolean
    verified?: boolean
    url?: string
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Adds X (Twitter) sign-in, with OAuth 2.0 (not the legacy OAuth 1.0a).
 *
 * In the X Developer Console, set up the app's user authentication: OAuth 2.0, type "Web App"
 * (a confidential client), callback URI `https://example.com/auth/callback/twitter`. Then set the
 * OAuth 2.0 credentials (not the API key and secret):
 *
 * - `AUTH_TWITTER_ID`: the OAuth 2.0 client ID
 * - `AUTH_TWITTER_SECRET`: the OAuth 2.0 client secret
 *
 * The scope is `users.read tweet.read` (X requires `tweet.read` with `users.read`); the profile
 * is `GET /2/users/me?user.fields=profile_image_url`. X gives no email address by default: add
 * the `users.email` scope and `confirmed_email` to `user.fields` to get one. For a public client,
 * use `client: { token_endpoint_auth_method: "none" }` and no secret.
 *
 * @example
 * ```ts
 * import Twitter from "@latch/core/providers/twitter"
 *
 * export const config = { providers: [Twitter] }
 *
 * // With the email address:
 * Twitter({
 *   authorization: { params: { scope: "users.read tweet.read users.email" } },
 *   userinfo: "https://api.x.com/2/users/me?user.fields=profile_image_url,confirmed_email",
 * })
 * ```
 */
export default function Twitter<P extends TwitterProfile = TwitterProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  const { authorization, ...rest } = options
  const provider: OAuthConfig<P> = {
    id: "twitter",
    name: "Twitter",
    type: "oauth",
    authorization: withDefaults(
      "https://x.com/i/oauth2/authorize",
      { scope: "users.read tweet.read" },
      authorization,
    ),
    token: "https://api.x.com/2/oauth2/token",
    userinfo: "https://api.x.com/2/users/me?user.fields=profile_image_url",
    checks: ["pkce", "state"],
    profile: ({ data }) => ({
      id: data.id,
      name: data.name ?? data.username,
      email: data.confirmed_email ?? null,
      image: data.profile_image_url ?? null,
    }),
    style: { brandColor: "#000000", text: "#ffffff" },
    ...rest,
  }
  return withFinish(provider, fixedEndpoints())
}
