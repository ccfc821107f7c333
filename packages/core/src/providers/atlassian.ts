/**
 * Sign in with Atlassian (OAuth 2.0 "3LO").
 *
 * @module providers/atlassian
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"
import { fixedEndpoints, withFinish } from "../lib/provider-rules.js"

/**
 * The account, as `GET https://api.atlassian.com/me` (User Identity API, scope `read:me`)
 * returns it.
 *
 * @see https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/
 */
export interface AtlassianProfile {
  /** The Atlassian account ID, the same across all Atlassian products. */
  account_id: string
  /** `atlassian`, `app` or `customer`. */
  account_type: string
  account_status: string
  email: string
  email_verified?: boolean
  name: string
  nickname?: string
  picture: string
  zoneinfo?: string
  locale?: string
  extended_profile?: {
    job_title?: string
    organization?: string
    department?: string
    location?: string
  }
  [field: string]: unknown
}

/**
 * Adds Atlassian sign-in.
 *
 * In the Atlassian developer console create an OAuth 2.0 integration, add the "User identity
 * API" permission, and under Authorization the callback URL
 * `https://example.com/auth/callback/atlassian`, then set:
 *
 * - `AUTH_ATLASSIAN_ID`: the client ID
 * - `AUTH_ATLASSIAN_SECRET`: the secret
 *
 * The scope is `read:me` (add Jira or Confluence scopes to call their APIs, and `offline_access`
 * for a refresh token); `audience=api.atlassian.com` and `prompt=consent` are sent as Atlassian
 * requires. The secret goes in the token request's body (`client_secret_post`).
 *
 * @example
 * ```ts
 * import Atlassian from "@latch/core/providers/atlassian"
 *
 * export const config = { providers: [Atlassian] }
 *
 * Atlassian({ authorization: { params: { scope: "read:me read:jira-work offline_access" } } })
 * ```
 */
export default function Atlassian<P extends AtlassianProfile = AtlassianProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  const { authorization, ...rest } = options
  const provider: OAuthConfig<P> = {
    id: "atlassian",
    name: "Atlassian",
    type: "oauth",
    authorization: withDefaults(
      "https://auth.atlassian.com/authorize",
      { audience: "api.atlassian.com", prompt: "consent", scope: "read:me" },
      authorization,
    ),
    token: "https://auth.atlassian.com/oauth/token",
    userinfo: "https://api.atlassian.com/me",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile: (profile) => ({
      id: profile.account_id,
      name: profile.name ?? profile.nickname ?? null,
      email: profile.email ?? null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: "#0052cc", text: "#ffffff" },
    ...rest,
  }
  return withFinish(provider, fixedEndpoints())
}
