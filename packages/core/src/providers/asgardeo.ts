/**
 * Sign in with Asgardeo (WSO2's identity service), through OpenID Connect.
 *
 * @module providers/asgardeo
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of an Asgardeo ID token, as released by the application's user attributes.
 *
 * @see https://wso2.com/asgardeo/docs/guides/authentication/oidc/
 */
export interface AsgardeoProfile {
  /** The user's id in the organization. */
  sub: string
  /** The user's first name (the "First Name" attribute). */
  given_name?: string
  family_name?: string
  name?: string
  username?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  /** The "Photo URL" attribute. */
  picture?: string
  [claim: string]: unknown
}

/**
 * Adds Asgardeo sign-in.
 *
 * In the Asgardeo Console, register a standard-based OpenID Connect application with the
 * "Code" grant and the authorized redirect URL `https://example.com/auth/callback/asgardeo`,
 * release the Email, First Name and Photo URL attributes, then set:
 *
 * - `AUTH_ASGARDEO_ID`: the client ID (Protocol tab)
 * - `AUTH_ASGARDEO_SECRET`: the client secret
 * - `AUTH_ASGARDEO_ISSUER`: the issuer shown on the Info tab,
 *   `https://api.asgardeo.io/t/<organization>/oauth2/token`
 *
 * The endpoints come from the issuer's discovery document
 * (`…/oauth2/token/.well-known/openid-configuration`). Without a `name` claim, the user's name
 * is the first and last name, else the username.
 *
 * @example
 * ```ts
 * import Asgardeo from "@latch/core/providers/asgardeo"
 *
 * export const config = { providers: [Asgardeo] }
 * ```
 */
const Asgardeo = oidcProvider<AsgardeoProfile>({
  id: "asgardeo",
  name: "Asgardeo",
  profile: (profile) => ({
    id: profile.sub,
    name:
      profile.name ??
      ([profile.given_name, profile.family_name].filter(Boolean).join(" ") ||
        (profile.preferred_username ?? profile.username ?? null)),
    email: profile.email ?? null,
    image: profile.picture ?? null,
  }),
  style: { brandColor: "#ff7300", text: "#ffffff" },
})

export default Asgardeo
