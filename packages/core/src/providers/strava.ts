/**
 * Sign in with Strava.
 *
 * @module providers/strava
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The signed-in athlete, as `GET /api/v3/athlete` returns it (the detailed representation with
 * `profile:read_all`, the summary one with `read`).
 *
 * @see https://developers.strava.com/docs/reference/#api-Athletes-getLoggedInAthlete
 */
export interface StravaProfile {
  /** The athlete's numeric id. */
  id: number
  username?: string | null
  resource_state?: number
  firstname: string
  lastname: string
  bio?: string | null
  city?: string | null
  state?: string | null
  country?: string | null
  sex?: "M" | "F" | null
  premium?: boolean
  summit?: boolean
  created_at?: string
  updated_at?: string
  badge_type_id?: number
  weight?: number | null
  /** URL of a 62×62 pixel picture. */
  profile_medium?: string
  /** URL of the athlete's 124×124 pixel picture ("large"). */
  profile: string
  [field: string]: unknown
}

/**
 * Adds Strava sign-in.
 *
 * Create an API application in Strava's settings (My API Application) with the authorization
 * callback domain `example.com` (Strava checks the redirect URI's domain, here
 * `https://example.com/auth/callback/strava`), then set:
 *
 * - `AUTH_STRAVA_ID`: the client ID
 * - `AUTH_STRAVA_SECRET`: the client secret
 *
 * The scope is `read` (Strava's scopes are comma-separated) with `approval_prompt=auto`; the
 * token request carries the secret in its body. Strava gives no email address.
 *
 * @example
 * ```ts
 * import Strava from "@latch/core/providers/strava"
 *
 * export const config = { providers: [Strava] }
 * ```
 */
const Strava = oauthProvider<StravaProfile>({
  id: "strava",
  name: "Strava",
  authorization: "https://www.strava.com/oauth/authorize",
  params: { scope: "read", approval_prompt: "auto" },
  token: "https://www.strava.com/oauth/token",
  client: { token_endpoint_auth_method: "client_secret_post" },
  userinfo: "https://www.strava.com/api/v3/athlete",
  profile: (profile) => ({
    id: String(profile.id),
    name: [profile.firstname, profile.lastname].filter(Boolean).join(" ") || null,
    email: null,
    image: profile.profile || null,
  }),
  style: { brandColor: "#fc4c02", text: "#ffffff" },
})

export default Strava
