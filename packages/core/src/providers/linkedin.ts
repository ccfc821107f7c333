/**
 * Sign in with LinkedIn ("Sign In with LinkedIn using OpenID Connect").
 *
 * @module providers/linkedin
 */
import type { OAuthUserConfig, OIDCConfig } from "./index.js"
import { userFromClaims } from "../lib/claims.js"
import { withDefaults } from "../lib/endpoint.js"

/**
 * The claims of a LinkedIn ID token.
 *
 * @see https://learn.microsoft.com/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2
 */
export interface LinkedInProfile {
  /** The member's identifier for your application. */
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  locale?: string | { country: string; language: string }
  email?: string
  email_verified?: boolean
  [claim: string]: unknown
}

/**
 * Adds LinkedIn sign-in.
 *
 * Create an app in the LinkedIn Developer Portal, add the "Sign In with LinkedIn using OpenID
 * Connect" product, and the authorized redirect URL `https://example.com/auth/callback/linkedin`,
 * then set:
 *
 * - `AUTH_LINKEDIN_ID`: the client ID
 * - `AUTH_LINKEDIN_SECRET`: the primary client secret
 *
 * Issuer `https://www.linkedin.com/oauth`; scope `openid profile email`; the token endpoint takes
 * the secret in the body (`client_secret_post`). LinkedIn does not put a `nonce` in its ID tokens
 * and supports PKCE only for native apps it has enabled, so the checks are `state` alone.
 *
 * @example
 * ```ts
 * import LinkedIn from "@latch/core/providers/linkedin"
 *
 * export const config = { providers: [LinkedIn] }
 * ```
 */
export default function LinkedIn<P extends LinkedInProfile = LinkedInProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const { authorization, ...rest } = options
  return {
    id: "linkedin",
    name: "LinkedIn",
    type: "oidc",
    issuer: "https://www.linkedin.com/oauth",
    authorization: withDefaults(undefined, { scope: "openid profile email" }, authorization),
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile: userFromClaims,
    style: { brandColor: "#0a66c2", text: "#ffffff" },
    ...rest,
  }
}
