/**
 * Sign in with Roblox, through OpenID Connect.
 *
 * @module providers/roblox
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of a Roblox ID token with the `openid profile` scopes.
 *
 * @see https://create.roblox.com/docs/cloud/reference/oauth2
 */
export interface RobloxProfile {
  /** The user's Roblox user ID, e.g. `"1516563360"`. */
  sub: string
  /** The user's display name. */
  name?: string
  /** The user's display name. */
  nickname?: string
  /** The user's Roblox username. */
  preferred_username?: string
  /** When the account was created, in seconds since the epoch. */
  created_at?: number
  /** The URL of the user's Roblox profile. */
  profile?: string
  /** The URL of the user's avatar headshot; `null` until it is generated. */
  picture?: string | null
  [claim: string]: unknown
}

/**
 * Adds Roblox sign-in.
 *
 * In the Creator Dashboard, create an OAuth 2.0 app with the redirect URL
 * `https://example.com/auth/callback/roblox` and the scopes `openid profile`, then set:
 *
 * - `AUTH_ROBLOX_ID`: the client ID
 * - `AUTH_ROBLOX_SECRET`: the client secret
 *
 * The scopes are `openid profile` (Roblox gives no email address); the checks are PKCE and
 * state.
 *
 * @example
 * ```ts
 * import Roblox from "@latch/core/providers/roblox"
 *
 * export const config = { providers: [Roblox] }
 * ```
 */
const Roblox = oidcProvider<RobloxProfile>({
  id: "roblox",
  name: "Roblox",
  issuer: "https://apis.roblox.com/oauth/",
  params: { scope: "openid profile" },
  checks: ["pkce", "state"],
  style: { brandColor: "#000000", text: "#ffffff" },
})

export default Roblox
