/**
 * Sign in with ClickUp.
 *
 * @module providers/click-up
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The signed-in user, as `GET /api/v2/user` returns it.
 *
 * @see https://developer.clickup.com/reference/getauthorizeduser
 */
export interface ClickUpProfile {
  user: {
    /** The user's numeric id. */
    id: number
    username: string
    email: string
    color: string
    profilePicture: string | null
    initials: string
    week_start_day: number | null
    global_font_support: boolean
    timezone: string
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Adds ClickUp sign-in.
 *
 * A Workspace owner or admin creates an OAuth app (Settings → Integrations → ClickUp API) with
 * the redirect URL `https://example.com/auth/callback/click-up`, then set:
 *
 * - `AUTH_CLICK_UP_ID`: the client ID
 * - `AUTH_CLICK_UP_SECRET`: the client secret
 *
 * The authorization page is `https://app.clickup.com/api` (no scopes: the user picks the
 * Workspaces); the sign-in is protected by `state`. The token request sends the id, secret and
 * code as parameters, and its answer is `{ access_token }` alone: the token type (bearer) is
 * added before it is read. The profile is `GET /api/v2/user`.
 *
 * @example
 * ```ts
 * import ClickUp from "@latch/core/providers/click-up"
 *
 * export const config = { providers: [ClickUp] }
 * ```
 */
const ClickUp = oauthProvider<ClickUpProfile>({
  id: "click-up",
  name: "ClickUp",
  authorization: "https://app.clickup.com/api",
  token: "https://api.clickup.com/api/v2/oauth/token",
  userinfo: "https://api.clickup.com/api/v2/user",
  client: { token_endpoint_auth_method: "client_secret_post" },
  checks: ["state"],
  conform: (body) =>
    body.access_token !== undefined && body.token_type === undefined
      ? { ...body, token_type: "bearer" }
      : body,
  profile: ({ user }) => ({
    id: String(user.id),
    name: user.username ?? null,
    email: user.email ?? null,
    image: user.profilePicture ?? null,
  }),
  style: { brandColor: "#7b68ee", text: "#ffffff" },
})

export default ClickUp
