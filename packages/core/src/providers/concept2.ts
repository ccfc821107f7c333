/**
 * Sign in with the Concept2 Logbook.
 *
 * @module providers/concept2
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"

/** A Logbook user, as the API's user resource describes it. */
export interface Concept2User {
  /** The user's numeric id. */
  id: number
  username: string
  first_name: string
  last_name: string
  gender: string
  dob: string
  email: string
  country: string
  profile_image: string
  age_restricted: boolean
  email_permission: boolean | null
  max_heart_rate: number | null
  weight: number | null
  logbook_privacy: string | null
  [field: string]: unknown
}

/**
 * The answer of `GET /api/users/me`: the user inside `data`.
 *
 * @see https://log.concept2.com/developers/documentation/#users-me
 */
export interface Concept2Profile {
  data: Concept2User
  [field: string]: unknown
}

/**
 * Adds Concept2 Logbook sign-in.
 *
 * Ask Concept2 for API access, register the application (first on
 * `https://log-dev.concept2.com`) with the redirect URI
 * `https://example.com/auth/callback/concept2`, then set:
 *
 * - `AUTH_CONCEPT2_ID`: the client ID
 * - `AUTH_CONCEPT2_SECRET`: the client secret
 *
 * The authorization asks for `user:read`; the token request sends the id and secret in its
 * body. The profile is `GET /api/users/me` with the API version in `Accept`
 * (`application/vnd.c2logbook.v1+json`), as the API asks; the name is the Logbook username.
 *
 * @example
 * ```ts
 * import Concept2 from "@latch/core/providers/concept2"
 *
 * export const config = { providers: [Concept2] }
 * ```
 */
const Concept2 = oauthProvider<Concept2Profile>({
  id: "concept2",
  name: "Concept2",
  authorization: "https://log.concept2.com/oauth/authorize",
  params: { scope: "user:read" },
  token: "https://log.concept2.com/oauth/access_token",
  userinfo: profileFrom({
    url: "https://log.concept2.com/api/users/me",
    headers: { accept: "application/vnd.c2logbook.v1+json" },
  }),
  client: { token_endpoint_auth_method: "client_secret_post" },
  profile: ({ data }) => ({
    id: String(data.id),
    name: data.username ?? null,
    email: data.email ?? null,
    image: data.profile_image ?? null,
  }),
  style: { brandColor: "#003a70", text: "#ffffff" },
})

export default Concept2
