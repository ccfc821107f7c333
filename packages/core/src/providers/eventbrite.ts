/**
 * Sign in with Eventbrite.
 *
 * @module providers/eventbrite
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The signed-in user, as `GET /v3/users/me/` returns it.
 *
 * @see https://www.eventbrite.com/platform/api#/reference/user/retrieve-your-user/retrieve-your-user
 */
export interface EventbriteProfile {
  /** The user's id, a string of digits. */
  id: string
  name: string
  first_name: string
  last_name: string
  emails: { email: string; verified: boolean; primary: boolean }[]
  is_public: boolean
  /** The id of the user's image, if any. */
  image_id: string | null
  [field: string]: unknown
}

/**
 * Adds Eventbrite sign-in.
 *
 * Create an API key (Account Settings → Developer Links → API Keys) with the OAuth redirect URI
 * `https://example.com/auth/callback/eventbrite`, then set:
 *
 * - `AUTH_EVENTBRITE_ID`: the API key
 * - `AUTH_EVENTBRITE_SECRET`: the client secret
 *
 * The token request sends the key and secret in its body; the profile is
 * `GET https://www.eventbriteapi.com/v3/users/me/`, and the email the primary one of `emails`.
 * The user's image is known only by its `image_id`, so no image URL is given.
 *
 * @example
 * ```ts
 * import Eventbrite from "@latch/core/providers/eventbrite"
 *
 * export const config = { providers: [Eventbrite] }
 * ```
 */
const Eventbrite = oauthProvider<EventbriteProfile>({
  id: "eventbrite",
  name: "Eventbrite",
  authorization: "https://www.eventbrite.com/oauth/authorize",
  params: { scope: "user.profile" },
  token: "https://www.eventbrite.com/oauth/token",
  userinfo: "https://www.eventbriteapi.com/v3/users/me/",
  client: { token_endpoint_auth_method: "client_secret_post" },
  profile: (profile) => ({
    id: profile.id,
    name: profile.name ?? null,
    email: (profile.emails?.find((e) => e.primary) ?? profile.emails?.[0])?.email ?? null,
    image: null,
  }),
  style: { brandColor: "#f05537", text: "#ffffff" },
})

export default Eventbrite
