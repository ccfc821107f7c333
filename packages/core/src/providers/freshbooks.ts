/**
 * Sign in with FreshBooks.
 *
 * @module providers/freshbooks
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The answer of `GET /auth/api/v1/users/me`: the identity inside `response`.
 *
 * @see https://www.freshbooks.com/api/me_endpoint
 */
export interface FreshbooksProfile {
  response: {
    /** The identity's numeric id. */
    id: number
    identity_id?: number
    first_name: string
    last_name: string
    email: string
    confirmed_at: string | null
    created_at: string
    language: string | null
    business_memberships: Record<string, unknown>[]
    roles: Record<string, unknown>[]
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Adds FreshBooks sign-in.
 *
 * Create an app at https://my.freshbooks.com/#/developer with the redirect URI
 * `https://example.com/auth/callback/freshbooks` (https only, no query string) and the scope
 * `user:profile:read`, then set:
 *
 * - `AUTH_FRESHBOOKS_ID`: the client ID
 * - `AUTH_FRESHBOOKS_SECRET`: the client secret
 *
 * The token request sends the id and secret in its body; access tokens last 12 hours. The
 * profile is `GET https://api.freshbooks.com/auth/api/v1/users/me`.
 *
 * @example
 * ```ts
 * import Freshbooks from "@latch/core/providers/freshbooks"
 *
 * export const config = { providers: [Freshbooks] }
 * ```
 */
const Freshbooks = oauthProvider<FreshbooksProfile>({
  id: "freshbooks",
  name: "Freshbooks",
  authorization: "https://auth.freshbooks.com/oauth/authorize",
  token: "https://api.freshbooks.com/auth/oauth/token",
  userinfo: "https://api.freshbooks.com/auth/api/v1/users/me",
  client: { token_endpoint_auth_method: "client_secret_post" },
  profile: ({ response: user }) => ({
    id: String(user.id),
    name: [user.first_name, user.last_name].filter(Boolean).join(" ") || null,
    email: user.email ?? null,
    image: null,
  }),
  style: { brandColor: "#0075dd", text: "#ffffff" },
})

export default Freshbooks
