/**
 * Sign in with Figma.
 *
 * @module providers/figma
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The signed-in user, as `GET /v1/me` returns it.
 *
 * @see https://developers.figma.com/docs/rest-api/users-endpoints/
 */
export interface FigmaProfile {
  /** The user's id, a string of digits. */
  id: string
  /** The user's name. */
  handle: string
  email: string
  img_url: string
  [field: string]: unknown
}

/**
 * Adds Figma sign-in.
 *
 * Create an OAuth app in Figma's developer settings with the callback URL
 * `https://example.com/auth/callback/figma` and the scope `current_user:read`, then set:
 *
 * - `AUTH_FIGMA_ID`: the client ID
 * - `AUTH_FIGMA_SECRET`: the client secret
 *
 * The authorization asks for `current_user:read` and is protected by `state`; the token request
 * authenticates with HTTP Basic. Figma's token answer (`user_id_string`, `access_token`,
 * `refresh_token`, `expires_in`) may lack a `token_type`: bearer is added before it is read. The
 * profile is `GET /v1/me`.
 *
 * @example
 * ```ts
 * import Figma from "@latch/core/providers/figma"
 *
 * export const config = { providers: [Figma] }
 * ```
 */
const Figma = oauthProvider<FigmaProfile>({
  id: "figma",
  name: "Figma",
  authorization: "https://www.figma.com/oauth",
  params: { scope: "current_user:read" },
  token: "https://api.figma.com/v1/oauth/token",
  userinfo: "https://api.figma.com/v1/me",
  checks: ["state"],
  conform: (body) =>
    body.access_token !== undefined && body.token_type === undefined
      ? { ...body, token_type: "bearer" }
      : body,
  profile: (profile) => ({
    id: profile.id,
    name: profile.handle ?? null,
    email: profile.email ?? null,
    image: profile.img_url ?? null,
  }),
  style: { brandColor: "#f24e1e", text: "#ffffff" },
})

export default Figma
