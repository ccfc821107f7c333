/**
 * Sign in with Threads.
 *
 * @module providers/threads
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"

/**
 * The signed-in Threads user, as `GET /v1.0/me` returns the fields asked for.
 *
 * @see https://developers.facebook.com/docs/threads/threads-profiles
 */
export interface ThreadsProfile {
  /** The Threads user's id. */
  id: string
  username: string
  name?: string
  threads_profile_picture_url?: string
  threads_biography?: string
  [field: string]: unknown
}

/**
 * Adds Threads sign-in.
 *
 * In the Meta App Dashboard, create an app with the "Access the Threads API" use case and the
 * redirect callback URL `https://example.com/auth/callback/threads`, then set:
 *
 * - `AUTH_THREADS_ID`: the Threads app ID
 * - `AUTH_THREADS_SECRET`: the Threads app secret
 *
 * The scope is `threads_basic`; the callback is checked with `state` (Threads takes no PKCE).
 * The token request carries the secret in its body and answers `{ access_token, user_id }`
 * without a `token_type`, which is added as `bearer`. The profile is `GET /v1.0/me` with the
 * token in the `access_token` query parameter. Threads gives no email address.
 *
 * @example
 * ```ts
 * import Threads from "@latch/core/providers/threads"
 *
 * export const config = { providers: [Threads] }
 * ```
 */
const Threads = oauthProvider<ThreadsProfile>({
  id: "threads",
  name: "Threads",
  authorization: "https://threads.net/oauth/authorize",
  params: { scope: "threads_basic" },
  token: "https://graph.threads.net/oauth/access_token",
  client: { token_endpoint_auth_method: "client_secret_post" },
  checks: ["state"],
  conform: (body) => ({ token_type: "bearer", ...body }),
  userinfo: profileFrom({
    url: "https://graph.threads.net/v1.0/me",
    query: { fields: "id,username,name,threads_profile_picture_url" },
    auth: { query: "access_token" },
  }),
  profile: (profile) => ({
    id: profile.id,
    name: profile.username || profile.name || null,
    email: null,
    image: profile.threads_profile_picture_url ?? null,
  }),
  style: { brandColor: "#000000", text: "#ffffff" },
})

export default Threads
