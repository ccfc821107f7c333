/**
 * Sign in through WorkOS SSO (SAML and OpenID Connect identity providers, and OAuth ones such as
 * Google or Microsoft, behind one integration).
 *
 * @module providers/workos
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"
import {
  configuredParam,
  fixedEndpoints,
  withSignInRules,
  type FinishProvider,
} from "../lib/provider-rules.js"
import type { OAuthConfig, OAuthUserConfig, UserinfoEndpointHandler } from "./oauth.js"

/**
 * The user's profile, as `POST /sso/token` returns it beside the access token (and
 * `GET /sso/profile` alone).
 *
 * @see https://workos.com/docs/reference/sso/profile
 */
export interface WorkOSProfile {
  object: "profile"
  /** The profile's id, e.g. `prof_01DMC79VCBZ0NY2099737PSVF1`. */
  id: string
  organization_id: string | null
  connection_id: string
  connection_type: string
  /** The user's id at the identity provider. */
  idp_id: string
  email: string
  first_name: string | null
  last_name: string | null
  role?: { slug: string } | null
  groups?: string[]
  custom_attributes?: Record<string, unknown>
  /** What the identity provider sent, as it sent it (`picture`…). */
  raw_attributes: Record<string, unknown> & { picture?: string }
  [field: string]: unknown
}

/** Which identity provider the sign-in goes to: WorkOS needs one of these three. */
export interface WorkOSOptions {
  /** A connection's id (`conn_…`). */
  connection?: string
  /** An organization's id (`org_…`): its active connection. */
  organization?: string
  /** An OAuth provider: `GoogleOAuth`, `MicrosoftOAuth`, `GitHubOAuth` or `AppleOAuth`. */
  provider?: string
}

const fromApi = profileFrom({ url: "https://api.workos.com/sso/profile" })

/** The profile comes with the token; `GET /sso/profile` is asked only if it did not. */
const userinfo: UserinfoEndpointHandler = {
  url: "https://api.workos.com/sso/profile",
  request: (context) => {
    const { profile } = context.tokens
    return typeof profile === "object" && profile !== null && !Array.isArray(profile)
      ? (profile as Record<string, unknown>)
      : fromApi.request!(context)
  },
}

/** The profile field that says which connection or organization the user signed in through. */
const narrowing: Record<string, string> = {
  connection: "connection_id",
  organization: "organization_id",
}

/**
 * A configured `connection` or `organization` cannot be changed by a sign-in request, and a
 * profile from another one is refused.
 */
const keepConfigured: FinishProvider = (provider, context) => {
  const finished = fixedEndpoints()(provider, context)
  const configured = Object.keys(narrowing).flatMap((param) => {
    const value = configuredParam(finished, param)
    return value ? [[param, value] as const] : []
  })
  if (configured.length === 0) return finished
  return withSignInRules(finished, {
    lockedParams: configured.map(([param]) => param),
    check: ({ profile }) => {
      for (const [param, value] of configured) {
        const field = narrowing[param]!
        if (profile[field] !== value) return `the profile's ${field} is not ${value}`
      }
      return undefined
    },
  })
}

const shaped = oauthProvider<WorkOSProfile>({
  id: "workos",
  name: "WorkOS",
  authorization: "https://api.workos.com/sso/authorize",
  token: "https://api.workos.com/sso/token",
  client: { token_endpoint_auth_method: "client_secret_post" },
  conform: (body) => ({ token_type: "bearer", ...body }),
  userinfo,
  finish: keepConfigured,
  profile: (profile) => ({
    id: profile.id,
    name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null,
    email: profile.email ?? null,
    image: profile.raw_attributes?.picture ?? null,
  }),
  style: { brandColor: "#6363f1", text: "#ffffff" },
})

/**
 * Adds WorkOS sign-in.
 *
 * In the WorkOS dashboard, add the redirect URI `https://example.com/auth/callback/workos`, then
 * set:
 *
 * - `AUTH_WORKOS_ID`: the client ID (`client_…`)
 * - `AUTH_WORKOS_SECRET`: the API key (`sk_…`)
 *
 * The authorization request must name where the user signs in: `connection`, `organization` or
 * `provider`, given here or per sign-in as an authorization parameter (with `domain_hint` or
 * `login_hint` if you like). The token request carries the secret in its body and answers the
 * access token with the user's `profile` (no `token_type`, added as `bearer`): that profile is
 * the one used. The account is stored under the profile's `id`. A `connection` or
 * `organization` configured here is kept for every sign-in, and a profile from another one is
 * refused.
 *
 * @example
 * ```ts
 * import WorkOS from "@latch/core/providers/workos"
 *
 * export const config = { providers: [WorkOS({ connection: process.env.WORKOS_CONNECTION })] }
 * ```
 */
export default function WorkOS<P extends WorkOSProfile = WorkOSProfile>(
  options: OAuthUserConfig<P> & WorkOSOptions = {},
): OAuthConfig<P> {
  const { connection, organization, provider, ...rest } = options
  const chosen = Object.entries({ connection, organization, provider }).filter(([, value]) => value)
  const own = rest.authorization
  if (chosen.length === 0 || typeof own === "string") return shaped<P>(rest)
  const params = { ...Object.fromEntries(chosen), ...own?.params }
  return shaped<P>({ ...rest, authorization: { ...own, params } })
}
