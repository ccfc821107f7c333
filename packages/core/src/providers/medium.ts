/**
 * Sign in with Medium.
 *
 * @module providers/medium
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The user, as `GET https://api.medium.com/v1/me` returns it (inside `data`).
 *
 * @see https://github.com/Medium/medium-api-docs#31-users
 */
export interface MediumProfile {
  data: {
    /** The user's id. */
    id: string
    username: string
    name: string
    /** The user's profile page. */
    url: string
    imageUrl: string
  }
  [field: string]: unknown
}

/**
 * Medium's token response gives `scope` as an array and `expires_at` (milliseconds since the
 * epoch) instead of `expires_in`.
 */
function tokenResponse(body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.access_token !== "string") return body
  const { scope, expires_at, ...rest } = body
  const out: Record<string, unknown> = { ...rest }
  if (Array.isArray(scope)) out.scope = scope.join(" ")
  else if (typeof scope === "string") out.scope = scope
  if (typeof expires_at === "number") {
    out.expires_in = Math.max(0, Math.floor((expires_at - Date.now()) / 1000))
  }
  return out
}

/**
 * Adds Medium sign-in.
 *
 * Medium issues OAuth clients to existing integrations only. With one, register the callback URL
 * `https://example.com/auth/callback/medium` and set:
 *
 * - `AUTH_MEDIUM_ID`: the client ID
 * - `AUTH_MEDIUM_SECRET`: the client secret
 *
 * The scope is `basicProfile`. The token request carries the id and secret in its body; its
 * answer gives the scopes as an array and the expiry as `expires_at` in milliseconds, which are
 * rewritten into the standard `scope` and `expires_in`. The profile is `GET /v1/me`. Medium
 * gives no email address.
 *
 * @example
 * ```ts
 * import Medium from "@latch/core/providers/medium"
 *
 * export const config = { providers: [Medium] }
 * ```
 */
const Medium = oauthProvider<MediumProfile>({
  id: "medium",
  name: "Medium",
  authorization: "https://medium.com/m/oauth/authorize",
  params: { scope: "basicProfile" },
  token: "https://api.medium.com/v1/tokens",
  userinfo: "https://api.medium.com/v1/me",
  client: { token_endpoint_auth_method: "client_secret_post" },
  conform: tokenResponse,
  profile: ({ data }) => ({
    id: String(data.id),
    name: data.name ?? data.username ?? null,
    email: null,
    image: data.imageUrl ?? null,
  }),
  style: { brandColor: "#000000", text: "#ffffff" },
})

export default Medium
