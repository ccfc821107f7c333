/**
 * Sign in with Instagram (the Instagram API with Instagram Login).
 *
 * @module providers/instagram
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"

/**
 * The Instagram account, as `GET https://graph.instagram.com/me` returns the requested fields.
 *
 * @see https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/get-started
 */
export interface InstagramProfile {
  /** The account's app-scoped id. */
  id: string
  /** The professional account's id. */
  user_id?: string
  username: string
  name?: string
  /** `BUSINESS` or `MEDIA_CREATOR`. */
  account_type?: string
  profile_picture_url?: string
  [field: string]: unknown
}

/**
 * The token response: `{ access_token, user_id, permissions }`, possibly wrapped in a `data`
 * array, and without `token_type`.
 */
function tokenResponse(body: Record<string, unknown>): Record<string, unknown> {
  const inner = Array.isArray(body.data) ? (body.data[0] as Record<string, unknown>) : body
  if (!inner || typeof inner !== "object" || !("access_token" in inner)) return body
  const { user_id, ...rest } = inner
  return {
    token_type: "bearer",
    ...rest,
    ...(user_id !== undefined ? { user_id: String(user_id) } : {}),
  }
}

/**
 * Adds Instagram sign-in.
 *
 * In the Meta App Dashboard, add the Instagram product, set up "API setup with Instagram login"
 * with the OAuth redirect URI `https://example.com/auth/callback/instagram`, then set:
 *
 * - `AUTH_INSTAGRAM_ID`: the Instagram app ID
 * - `AUTH_INSTAGRAM_SECRET`: the Instagram app secret
 *
 * The scope is `instagram_business_basic`; only professional (business and creator) accounts
 * can sign in. The token request carries the app id and secret in its body; its answer has no
 * `token_type` and the user's id as a number (kept as the string `user_id` of the token set).
 * The profile is `GET /me` on `graph.instagram.com`, the token in the `access_token` parameter.
 * Instagram gives no email address. The short-lived token lasts an hour.
 *
 * @example
 * ```ts
 * import Instagram from "@latch/core/providers/instagram"
 *
 * export const config = { providers: [Instagram] }
 * ```
 */
const Instagram = oauthProvider<InstagramProfile>({
  id: "instagram",
  name: "Instagram",
  authorization: "https://www.instagram.com/oauth/authorize",
  params: { scope: "instagram_business_basic" },
  token: "https://api.instagram.com/oauth/access_token",
  client: { token_endpoint_auth_method: "client_secret_post" },
  conform: tokenResponse,
  userinfo: profileFrom({
    url: "https://graph.instagram.com/me",
    query: { fields: "id,user_id,username,name,account_type,profile_picture_url" },
    auth: { query: "access_token" },
  }),
  profile: (profile) => ({
    id: String(profile.id),
    name: profile.username ?? profile.name ?? null,
    email: null,
    image: profile.profile_picture_url ?? null,
  }),
  style: { brandColor: "#e1306c", text: "#ffffff" },
})

export default Instagram
