/**
 * Sign in with SimpleLogin, through OpenID Connect.
 *
 * @module providers/simplelogin
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The user, as SimpleLogin's ID token and userinfo endpoint give it.
 *
 * @see https://simplelogin.io/docs/siwsl/app/
 */
export interface SimpleLoginProfile {
  /** The user's ID for your app. */
  sub: string
  /** The same ID, as a number. */
  id?: number
  /** The address the user chose to share: their own or a new alias. */
  email?: string
  email_verified?: boolean
  name?: string
  avatar_url?: string | null
  /** Your app's name. */
  client?: string
  [claim: string]: unknown
}

/**
 * Adds SimpleLogin sign-in.
 *
 * In SimpleLogin's developer settings, create a website with the authorized redirect URI
 * `https://example.com/auth/callback/simplelogin`, then set:
 *
 * - `AUTH_SIMPLELOGIN_ID`: the app ID
 * - `AUTH_SIMPLELOGIN_SECRET`: the app secret
 *
 * The picture is SimpleLogin's `avatar_url`.
 *
 * @example
 * ```ts
 * import SimpleLogin from "@latch/core/providers/simplelogin"
 *
 * export const config = { providers: [SimpleLogin] }
 * ```
 */
const SimpleLogin = oidcProvider<SimpleLoginProfile>({
  id: "simplelogin",
  name: "SimpleLogin",
  issuer: "https://app.simplelogin.io",
  profile: (profile) => ({
    id: profile.sub,
    name: profile.name ?? null,
    email: profile.email ?? null,
    image: profile.avatar_url ?? null,
  }),
  style: { brandColor: "#e3156a", text: "#ffffff" },
})

export default SimpleLogin
