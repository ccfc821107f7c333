/**
 * Sign in with Auth0, through OpenID Connect.
 *
 * @module providers/auth0
 */
import type { OAuthUserConfig, OIDCConfig } from "./index.js"
import { userFromClaims } from "../lib/claims.js"
import { withDefaults } from "../lib/endpoint.js"
import { narrowingParam, withFinish, type SignInFacts } from "../lib/provider-rules.js"

/**
 * The claims of an Auth0 ID token with the `openid profile email` scopes.
 *
 * @see https://auth0.com/docs/secure/tokens/id-tokens/id-token-structure
 */
export interface Auth0Profile {
  /** `<connection>|<id>`, e.g. `auth0|64f…` or `google-oauth2|1098…` */
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  middle_name?: string
  nickname?: string
  preferred_username?: string
  picture?: string
  locale?: string
  updated_at?: string
  email?: string
  email_verified?: boolean
  [claim: string]: unknown
}

/**
 * Whether the ID token names the configured organization: by ID (`org_…`) in `org_id`, else by
 * name in `org_name` (names are compared without case).
 *
 * @see https://auth0.com/docs/manage-users/organizations/using-tokens
 */
function checkOrganization(organization: string, { claims }: SignInFacts): string | undefined {
  const byId = organization.startsWith("org_")
  const claim = claims?.[byId ? "org_id" : "org_name"]
  const same = byId
    ? claim === organization
    : typeof claim === "string" && claim.toLowerCase() === organization.toLowerCase()
  return same
    ? undefined
    : `the user signed in to organization ${JSON.stringify(String(claim))}, not ${organization}`
}

/**
 * Adds Auth0 sign-in.
 *
 * Create a "Regular Web Application" in the Auth0 dashboard with the allowed callback URL
 * `https://example.com/auth/callback/auth0`, then set:
 *
 * - `AUTH_AUTH0_ID`: the client ID
 * - `AUTH_AUTH0_SECRET`: the client secret
 * - `AUTH_AUTH0_ISSUER`: your tenant's domain as a URL, e.g. `https://example.us.auth0.com` (or a
 *   custom domain)
 *
 * `organization` (an organization ID `org_…`, or its name) signs users in to one of your Auth0
 * Organizations: Latch refuses (`AccessDenied`) any sign-in whose ID token names another
 * organization in `org_id` (or `org_name`), and a sign-in request cannot replace the value.
 * `connection` only picks the login page's connection: enable the connections you accept for the
 * application in Auth0.
 *
 * @example
 * ```ts
 * import Auth0 from "@latch/core/providers/auth0"
 *
 * export const config = { providers: [Auth0] }
 *
 * // Straight to one connection, asking for an API's access token:
 * Auth0({ authorization: { params: { connection: "github", audience: "https://api.example.com" } } })
 * ```
 */
export default function Auth0<P extends Auth0Profile = Auth0Profile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const { authorization, ...rest } = options
  const provider: OIDCConfig<P> = {
    id: "auth0",
    name: "Auth0",
    type: "oidc",
    authorization: withDefaults(undefined, { scope: "openid profile email" }, authorization),
    profile: userFromClaims,
    style: { brandColor: "#eb5424", text: "#ffffff" },
    ...rest,
  }
  return withFinish(provider, narrowingParam("organization", checkOrganization))
}
