/**
 * Sign in with Kinde, through OpenID Connect.
 *
 * @module providers/kinde
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of a Kinde ID token with the `openid profile email` scopes.
 *
 * @see https://docs.kinde.com/build/tokens/about-id-tokens/
 */
export interface KindeProfile {
  /** The user's Kinde ID, e.g. `kp_c3143a4b50ad43c88e541d9077681782`. */
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  preferred_username?: string
  /** The organization the user signed in to. */
  org_code?: string
  [claim: string]: unknown
}

/**
 * Adds Kinde sign-in.
 *
 * In your Kinde business, add a "Back-end web" application with the allowed callback URL
 * `https://example.com/auth/callback/kinde`, then set:
 *
 * - `AUTH_KINDE_ID`: the client ID
 * - `AUTH_KINDE_SECRET`: the client secret
 * - `AUTH_KINDE_ISSUER`: your Kinde domain, `https://<your_subdomain>.kinde.com` (or your custom
 *   domain)
 *
 * The endpoints come from the domain's discovery document.
 *
 * @example
 * ```ts
 * import Kinde from "@latch/core/providers/kinde"
 *
 * export const config = { providers: [Kinde] }
 * ```
 */
const Kinde = oidcProvider<KindeProfile>({
  id: "kinde",
  name: "Kinde",
  style: { brandColor: "#0f0f0f", text: "#ffffff" },
})

export default Kinde
