/**
 * Sign in with GitHub (an OAuth App or a GitHub App's user authorization), on github.com or on a
 * GitHub Enterprise Server.
 *
 * @module providers/github
 */
import { InvalidProvider } from "../errors.js"
import type { OAuthConfig, OAuthUserConfig, ProviderFetch } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"
import { fixedEndpoints, withFinish } from "../lib/provider-rules.js"

/**
 * The authenticated user, as `GET /user` of the GitHub REST API returns it. With a token that
 * has the `user` scope, the private fields (plan, disk usage…) are present too.
 *
 * @see https://docs.github.com/en/rest/users/users#get-the-authenticated-user
 */
export interface GitHubProfile {
  login: string
  id: number
  node_id: string
  avatar_url: string
  gravatar_id: string | null
  url: string
  html_url: string
  type: string
  site_admin: boolean
  name: string | null
  company: string | null
  blog: string | null
  location: string | null
  /**
   * The public email address, or `null` when the user keeps it private. Latch then fills it
   * with the primary verified address from `GET /user/emails` (scope `user:email`).
   */
  email: string | null
  hireable: boolean | null
  bio: string | null
  twitter_username?: string | null
  public_repos: number
  public_gists: number
  followers: number
  following: number
  created_at: string
  updated_at: string
  [field: string]: unknown
}

/** One entry of `GET /user/emails`. */
export interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
  visibility: "public" | "private" | null
}

/** Options of `GitHub()`: the usual OAuth options, and where GitHub is. */
export type GitHubOptions<P extends GitHubProfile = GitHubProfile> = OAuthUserConfig<P> & {
  /**
   * A GitHub Enterprise Server, e.g. `https://github.example.com`: its OAuth endpoints are used,
   * and its REST API under `/api/v3`. The same as `enterprise.baseUrl`. @default github.com
   */
  baseUrl?: string
  /** A GitHub Enterprise Server (the option's name in `@auth/core`). */
  enterprise?: {
    /** The server's URL, e.g. `https://github.example.com`. */
    baseUrl?: string
  }
}

const DEFAULT_SCOPE = "read:user user:email"

/** The GitHub Enterprise Server named by `baseUrl` or `enterprise.baseUrl`; both must agree. */
function serverOf(baseUrl: string | undefined, enterprise: string | undefined): string | undefined {
  const trim = (url: string | undefined) => (url ? url.replace(/\/+$/, "") : undefined)
  if (trim(baseUrl) && trim(enterprise) && trim(baseUrl) !== trim(enterprise)) {
    throw new InvalidProvider(
      `GitHub: baseUrl "${baseUrl}" and enterprise.baseUrl "${enterprise}" name different servers; pass one of them`,
    )
  }
  return trim(baseUrl) ?? trim(enterprise)
}

/** The GitHub REST API headers for a user access token. */
function apiHeaders(accessToken: string): Record<string, string> {
  return {
    Authorization: `Bearer ${accessToken}`,
    Accept: "application/vnd.github+json",
    "User-Agent": "latch",
    "X-GitHub-Api-Version": "2022-11-28",
  }
}

/**
 * Reads the user, and when their email address is private, their primary verified address: a
 * failing `/user/emails` (scope not granted) leaves the email `null` rather than failing the
 * sign-in.
 */
async function fetchUser(api: string, accessToken: string, fetch: ProviderFetch) {
  const headers = apiHeaders(accessToken)
  const response = await fetch(`${api}/user`, { headers })
  if (!response.ok) throw new Error(`GitHub answered ${response.status} to GET /user`)
  const profile = (await response.json()) as GitHubProfile
  if (!profile.email) {
    const emails = await fetch(`${api}/user/emails`, { headers })
    if (emails.ok) {
      const list = (await emails.json()) as GitHubEmail[]
      const primary = Array.isArray(list) ? list.find((e) => e.primary && e.verified) : undefined
      profile.email = primary?.email ?? null
    }
  }
  return profile
}

/**
 * Adds GitHub sign-in.
 *
 * Register an OAuth App (Settings → Developer settings → OAuth Apps) with the callback URL
 * `https://example.com/auth/callback/github` (your origin and base path), then set:
 *
 * - `AUTH_GITHUB_ID`: the app's client ID
 * - `AUTH_GITHUB_SECRET`: a client secret
 *
 * The profile is read from `GET /user`; when the user's email is private it is the primary
 * verified address from `GET /user/emails`. The default scope is `read:user user:email`. GitHub
 * supports PKCE, which Latch uses with `state`. `issuer` (or `AUTH_GITHUB_ISSUER`) may only be
 * GitHub's own, `https://github.com/login/oauth` (`<baseUrl>/login/oauth`): the callback's RFC 9207
 * `iss` is then checked against it. Any other is refused, since the endpoints stay GitHub's.
 *
 * @example
 * ```ts
 * import GitHub from "@latch/core/providers/github"
 *
 * export const config = { providers: [GitHub] }
 *
 * // Different scopes, or a GitHub Enterprise Server:
 * GitHub({ authorization: { params: { scope: "read:user user:email read:org" } } })
 * GitHub({ enterprise: { baseUrl: "https://github.example.com" } })
 * ```
 */
export default function GitHub<P extends GitHubProfile = GitHubProfile>(
  options: GitHubOptions<P> = {},
): OAuthConfig<P> {
  const { baseUrl: ownBaseUrl, enterprise, authorization, ...rest } = options
  const baseUrl = serverOf(ownBaseUrl, enterprise?.baseUrl)
  const web = (baseUrl ?? "https://github.com").replace(/\/+$/, "")
  const api = baseUrl ? `${web}/api/v3` : "https://api.github.com"
  const provider: OAuthConfig<P> = {
    id: "github",
    name: "GitHub",
    type: "oauth",
    authorization: withDefaults(
      `${web}/login/oauth/authorize`,
      { scope: DEFAULT_SCOPE },
      authorization,
    ),
    token: `${web}/login/oauth/access_token`,
    userinfo: {
      url: `${api}/user`,
      request: ({ tokens, fetch }) => fetchUser(api, String(tokens.access_token), fetch),
    },
    profile: (profile) => ({
      id: String(profile.id),
      name: profile.name ?? profile.login,
      email: profile.email ?? null,
      image: profile.avatar_url ?? null,
    }),
    style: { brandColor: "#24292f", text: "#ffffff" },
    ...rest,
  }
  return withFinish(
    provider,
    fixedEndpoints(`${web}/login/oauth`, "for GitHub Enterprise Server, pass baseUrl"),
  )
}
