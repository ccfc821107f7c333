/**
 * Sign in with VK.
 *
 * @module providers/vk
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"
import type { UserinfoEndpointHandler } from "./oauth.js"

/**
 * A VK user, as `users.get` returns it (the fields asked for besides the default ones), with
 * the `email` the token response carries.
 *
 * @see https://dev.vk.com/en/reference/objects/user
 */
export interface VkProfile {
  /** The user's numeric id. */
  id: number
  first_name: string
  last_name: string
  can_access_closed?: boolean
  is_closed?: boolean
  deactivated?: string
  /** URL of a 100×100 pixel picture. */
  photo_100?: string
  photo_200?: string
  photo_max?: string
  screen_name?: string
  domain?: string
  /** The address the user shared with the `email` scope (from the token response). */
  email?: string | null
  [field: string]: unknown
}

const api = profileFrom({
  url: "https://api.vk.com/method/users.get",
  query: { fields: "photo_100", v: "5.131" },
  auth: { query: "access_token" },
})

/** `users.get` answers `{ response: [user] }`; the email address is in the token response. */
const userinfo: UserinfoEndpointHandler = {
  url: "https://api.vk.com/method/users.get",
  async request(context) {
    const answer = (await api.request!(context)) as { response?: unknown; error?: unknown }
    const user: unknown = Array.isArray(answer.response) ? answer.response[0] : undefined
    if (typeof user !== "object" || user === null) {
      throw new Error(`users.get gave no user: ${JSON.stringify(answer.error ?? answer)}`)
    }
    const email = context.tokens.email
    return { ...user, email: typeof email === "string" ? email : null }
  },
}

/**
 * Adds VK sign-in.
 *
 * Create a website app in VK's developer section with the trusted redirect URI
 * `https://example.com/auth/callback/vk`, then set:
 *
 * - `AUTH_VK_ID`: the app ID
 * - `AUTH_VK_SECRET`: the app's secure key
 *
 * The scope is `email`, with API version `v=5.131`. The token request carries the secret in its
 * body and answers `{ access_token, expires_in, user_id, email }` without a `token_type`, which
 * is added as `bearer`. The profile is the API method `users.get` with the token in the
 * `access_token` query parameter; its user is the profile, with the token response's `email`.
 *
 * @example
 * ```ts
 * import VK from "@latch/core/providers/vk"
 *
 * export const config = { providers: [VK] }
 * ```
 */
const VK = oauthProvider<VkProfile>({
  id: "vk",
  name: "VK",
  authorization: "https://oauth.vk.com/authorize",
  params: { scope: "email", v: "5.131" },
  token: "https://oauth.vk.com/access_token",
  client: { token_endpoint_auth_method: "client_secret_post" },
  conform: (body) => ({ token_type: "bearer", ...body }),
  userinfo,
  profile: (profile) => ({
    id: String(profile.id),
    name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null,
    email: profile.email ?? null,
    image: profile.photo_100 ?? null,
  }),
  style: { brandColor: "#0077ff", text: "#ffffff" },
})

export default VK
