/**
 * Sign in with Box.
 *
 * @module providers/box
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The signed-in user, as `GET /2.0/users/me` returns it.
 *
 * @see https://developer.box.com/reference/get-users-me/
 */
export interface BoxProfile {
  /** The user's id, e.g. `"11446498"`. */
  id: string
  type: "user"
  name: string
  /** The primary email address the user signs in with. */
  login: string
  created_at: string
  modified_at: string
  language: string
  timezone: string
  space_amount: number
  space_used: number
  max_upload_size: number
  status: string
  job_title: string
  phone: string
  address: string
  avatar_url: string
  notification_email?: { email: string; is_confirmed: boolean } | null
  [field: string]: unknown
}

/**
 * Adds Box sign-in.
 *
 * In the Box Developer Console, create a Custom App with "User Authentication (OAuth 2.0)" and
 * the redirect URI `https://example.com/auth/callback/box`, then set:
 *
 * - `AUTH_BOX_ID`: the client ID
 * - `AUTH_BOX_SECRET`: the client secret
 *
 * The token request sends the id and secret in its body, as Box's `POST /oauth2/token`
 * documents; the profile is `GET /2.0/users/me`, whose `login` is the user's email address.
 *
 * @example
 * ```ts
 * import Box from "@latch/core/providers/box"
 *
 * export const config = { providers: [Box] }
 * ```
 */
const Box = oauthProvider<BoxProfile>({
  id: "box",
  name: "Box",
  authorization: "https://account.box.com/api/oauth2/authorize",
  token: "https://api.box.com/oauth2/token",
  userinfo: "https://api.box.com/2.0/users/me",
  client: { token_endpoint_auth_method: "client_secret_post" },
  profile: (profile) => ({
    id: profile.id,
    name: profile.name ?? null,
    email: profile.login ?? null,
    image: profile.avatar_url ?? null,
  }),
  style: { brandColor: "#0061d5", text: "#ffffff" },
})

export default Box
