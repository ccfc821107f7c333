/**
 * Sign in with Zoom.
 *
 * @module providers/zoom
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"
import { fixedEndpoints, withFinish } from "../lib/provider-rules.js"

/**
 * The user, as `GET /v2/users/me` returns it.
 *
 * @see https://developers.zoom.us/docs/api/users/#tag/users/GET/users/{userId}
 */
export interface ZoomProfile {
  id: string
  first_name?: string
  last_name?: string
  display_name?: string
  email: string
  /** 1 basic, 2 licensed, 4 unassigned without Meetings, 99 none. */
  type: number
  pic_url?: string
  account_id?: string
  timezone?: string
  language?: string
  verified?: number
  status?: string
  role_name?: string
  dept?: string
  created_at?: string
  last_login_time?: string
  [field: string]: unknown
}

/**
 * Adds Zoom sign-in.
 *
 * Create a "General App" (user-managed) in the Zoom App Marketplace with the OAuth redirect URL
 * `https://example.com/auth/callback/zoom` (also on the allow list) and the scope to read the
 * user (`user:read:user`, or `user:read` for older apps), then set:
 *
 * - `AUTH_ZOOM_ID`: the client ID
 * - `AUTH_ZOOM_SECRET`: the client secret
 *
 * Zoom takes the scopes from the app's configuration, so none is sent. The profile is
 * `GET /v2/users/me`.
 *
 * @example
 * ```ts
 * import Zoom from "@latch/core/providers/zoom"
 *
 * export const config = { providers: [Zoom] }
 * ```
 */
export default function Zoom<P extends ZoomProfile = ZoomProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  const { authorization, ...rest } = options
  const provider: OAuthConfig<P> = {
    id: "zoom",
    name: "Zoom",
    type: "oauth",
    authorization: withDefaults("https://zoom.us/oauth/authorize", {}, authorization),
    token: "https://zoom.us/oauth/token",
    userinfo: "https://api.zoom.us/v2/users/me",
    profile: (profile) => ({
      id: profile.id,
      name:
        profile.display_name ||
        [profile.first_name, profile.last_name].filter(Boolean).join(" ") ||
        null,
      email: profile.email ?? null,
      image: profile.pic_url || null,
    }),
    style: { brandColor: "#0b5cff", text: "#ffffff" },
    ...rest,
  }
  return withFinish(provider, fixedEndpoints())
}
