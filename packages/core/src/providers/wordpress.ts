/**
 * Sign in with WordPress.com.
 *
 * @module providers/wordpress
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The signed-in user, as `GET /rest/v1/me` returns it.
 *
 * @see https://developer.wordpress.com/docs/api/1.1/get/me/
 */
export interface WordPressProfile {
  /** The user's numeric id. */
  ID: number
  display_name: string
  username: string
  email: string
  email_verified?: boolean
  primary_blog?: number
  primary_blog_url?: string
  language?: string
  locale?: string
  /** URL of the user's Gravatar. */
  avatar_URL?: string
  profile_URL?: string
  verified?: boolean
  site_count?: number
  date?: string
  [field: string]: unknown
}

/**
 * Adds WordPress.com sign-in.
 *
 * Create an application at `https://developer.wordpress.com/apps/` with the redirect URL
 * `https://example.com/auth/callback/wordpress`, then set:
 *
 * - `AUTH_WORDPRESS_ID`: the client ID
 * - `AUTH_WORDPRESS_SECRET`: the client secret
 *
 * The scope is `auth` (the user's identity only); the token request carries the secret in its
 * body. The profile is `GET /rest/v1/me`; the account is stored under its `ID`.
 *
 * @example
 * ```ts
 * import WordPress from "@latch/core/providers/wordpress"
 *
 * export const config = { providers: [WordPress] }
 * ```
 */
const WordPress = oauthProvider<WordPressProfile>({
  id: "wordpress",
  name: "WordPress.com",
  authorization: "https://public-api.wordpress.com/oauth2/authorize",
  params: { scope: "auth" },
  token: "https://public-api.wordpress.com/oauth2/token",
  client: { token_endpoint_auth_method: "client_secret_post" },
  userinfo: "https://public-api.wordpress.com/rest/v1/me",
  profile: (profile) => ({
    id: String(profile.ID),
    name: profile.display_name || profile.username || null,
    email: profile.email || null,
    image: profile.avatar_URL || null,
  }),
  style: { brandColor: "#3858e9", text: "#ffffff" },
})

export default WordPress
