/**
 * Sign in with Todoist.
 *
 * @module providers/todoist
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The signed-in user, as Todoist API v1 `GET /api/v1/user` returns it.
 *
 * @see https://developer.todoist.com/api/v1/#tag/User
 */
export interface TodoistProfile {
  /** The user's id, e.g. `"2671355"`. */
  id: string
  email: string
  full_name: string
  avatar_big?: string | null
  avatar_medium?: string | null
  avatar_s640?: string | null
  avatar_small?: string | null
  image_id?: string | null
  lang?: string
  is_premium?: boolean
  premium_status?: string
  inbox_project_id?: string
  joined_at?: string
  tz_info?: Record<string, unknown>
  [field: string]: unknown
}

/**
 * Adds Todoist sign-in.
 *
 * Create an app in Todoist's App Management console with the OAuth redirect URL
 * `https://example.com/auth/callback/todoist`, then set:
 *
 * - `AUTH_TODOIST_ID`: the client ID
 * - `AUTH_TODOIST_SECRET`: the client secret
 *
 * The scope is `data:read`; the token request carries the secret in its body. The profile is
 * `GET https://api.todoist.com/api/v1/user`.
 *
 * @example
 * ```ts
 * import Todoist from "@latch/core/providers/todoist"
 *
 * export const config = { providers: [Todoist] }
 * ```
 */
const Todoist = oauthProvider<TodoistProfile>({
  id: "todoist",
  name: "Todoist",
  authorization: "https://todoist.com/oauth/authorize",
  params: { scope: "data:read" },
  token: "https://todoist.com/oauth/access_token",
  client: { token_endpoint_auth_method: "client_secret_post" },
  userinfo: "https://api.todoist.com/api/v1/user",
  profile: (profile) => ({
    id: String(profile.id),
    name: profile.full_name || null,
    email: profile.email ?? null,
    image: profile.avatar_big ?? null,
  }),
  style: { brandColor: "#e44332", text: "#ffffff" },
})

export default Todoist
