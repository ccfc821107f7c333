/**
 * Sign in with an account on a Mattermost server.
 *
 * @module providers/mattermost
 */
import { hostedAt, oauthProvider } from "../lib/provider-shapes.js"

/**
 * The user, as `GET /api/v4/users/me` returns it.
 *
 * @see https://developers.mattermost.com/api-documentation/#/operations/GetUser
 */
export interface MattermostProfile {
  /** The user's id (26 characters). */
  id: string
  create_at: number
  update_at: number
  delete_at: number
  username: string
  auth_data: string
  auth_service: string
  email: string
  email_verified: boolean
  nickname: string
  first_name: string
  last_name: string
  position: string
  roles: string
  notify_props: Record<string, string>
  last_password_update: number
  locale: string
  timezone: {
    automaticTimezone: string
    manualTimezone: string
    useAutomaticTimezone: string
  }
  disable_welcome_email: boolean
  terms_of_service_id?: string
  terms_of_service_create_at?: number
  [field: string]: unknown
}

/**
 * Adds sign-in with a Mattermost server.
 *
 * Enable "OAuth 2.0 Service Provider" in the System Console, then under Integrations → OAuth 2.0
 * Applications add an application with the callback URL
 * `https://example.com/auth/callback/mattermost`, and set:
 *
 * - `AUTH_MATTERMOST_ID`: the client ID
 * - `AUTH_MATTERMOST_SECRET`: the client secret
 * - `AUTH_MATTERMOST_ISSUER`: the server's URL, e.g. `https://chat.example.com` (or the
 *   `issuer` option)
 *
 * The endpoints are the server's `/oauth/authorize` and `/oauth/access_token` (the client in the
 * token request's body); the profile is `GET /api/v4/users/me`. The name is the username.
 *
 * @example
 * ```ts
 * import Mattermost from "@latch/core/providers/mattermost"
 *
 * export const config = { providers: [Mattermost({ issuer: "https://chat.example.com" })] }
 * ```
 */
const Mattermost = oauthProvider<MattermostProfile>({
  id: "mattermost",
  name: "Mattermost",
  client: { token_endpoint_auth_method: "client_secret_post" },
  finish: hostedAt("the Mattermost server's URL", (base) => ({
    authorization: `${base}/oauth/authorize`,
    token: `${base}/oauth/access_token`,
    userinfo: `${base}/api/v4/users/me`,
  })),
  profile: (profile) => ({
    id: String(profile.id),
    name: profile.username ?? null,
    email: profile.email ?? null,
    image: null,
  }),
  style: { brandColor: "#1e325c", text: "#ffffff" },
})

export default Mattermost
