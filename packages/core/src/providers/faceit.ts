/**
 * Sign in with FACEIT.
 *
 * @module providers/faceit
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The signed-in user, as FACEIT Connect's userinfo endpoint returns it.
 *
 * @see https://docs.faceit.com/getting-started/authentication/faceit-connect
 */
export interface FaceitProfile {
  /** The user's FACEIT id (a UUID). */
  guid: string
  nickname: string
  /** With the `email` scope. */
  email?: string
  picture?: string
  locale?: string
  given_name?: string
  family_name?: string
  birthdate?: string
  membership?: string
  [field: string]: unknown
}

/**
 * Adds FACEIT sign-in.
 *
 * In the FACEIT Developer Portal, create an app and a "Client-side" (FACEIT Connect) key with the
 * redirect URL `https://example.com/auth/callback/faceit`, then set:
 *
 * - `AUTH_FACEIT_ID`: the client ID
 * - `AUTH_FACEIT_SECRET`: the client secret
 *
 * The authorization page is `https://accounts.faceit.com/accounts?redirect_popup=true` with
 * the scopes `openid email profile`; the token request authenticates with HTTP Basic. The
 * profile comes from `GET https://api.faceit.com/auth/v1/resources/userinfo`; the name is the
 * FACEIT nickname.
 *
 * @example
 * ```ts
 * import FACEIT from "@latch/core/providers/faceit"
 *
 * export const config = { providers: [FACEIT] }
 * ```
 */
const FACEIT = oauthProvider<FaceitProfile>({
  id: "faceit",
  name: "FACEIT",
  authorization: "https://accounts.faceit.com/accounts",
  params: { redirect_popup: "true", scope: "openid email profile" },
  token: "https://api.faceit.com/auth/v1/oauth/token",
  userinfo: "https://api.faceit.com/auth/v1/resources/userinfo",
  profile: (profile) => ({
    id: profile.guid,
    name: profile.nickname ?? null,
    email: profile.email ?? null,
    image: profile.picture ?? null,
  }),
  style: { brandColor: "#ff5500", text: "#ffffff" },
})

export default FACEIT
