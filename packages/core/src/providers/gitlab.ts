/**
 * Sign in with GitLab, on gitlab.com or a self-managed instance.
 *
 * @module providers/gitlab
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"
import { fixedEndpoints, withFinish } from "../lib/provider-rules.js"

/**
 * The authenticated user, as `GET /api/v4/user` returns it.
 *
 * @see https://docs.gitlab.com/api/users/#retrieve-the-current-user
 */
export interface GitLabProfile {
  id: number
  username: string
  name: string
  state: string
  locked?: boolean
  avatar_url: string | null
  web_url: string
  created_at: string
  bio: string
  location: string | null
  /** The primary email address (with `read_user`). */
  email: string
  public_email: string | null
  commit_email?: string
  website_url: string
  organization: string | null
  job_title: string
  pronouns?: string | null
  bot: boolean
  two_factor_enabled?: boolean
  confirmed_at?: string
  last_sign_in_at?: string
  [field: string]: unknown
}

/** Options of `GitLab()`: the usual OAuth options, and where GitLab is. */
export type GitLabOptions<P extends GitLabProfile = GitLabProfile> = OAuthUserConfig<P> & {
  /**
   * A self-managed instance, e.g. `https://gitlab.example.com` (a string or a `URL`).
   * @default https://gitlab.com
   */
  baseUrl?: URL | string
}

/**
 * Adds GitLab sign-in.
 *
 * Create an application (User settings → Applications, or a group's or the instance's) with the
 * redirect URI `https://example.com/auth/callback/gitlab`, the "Confidential" box checked and the
 * `read_user` scope, then set:
 *
 * - `AUTH_GITLAB_ID`: the application ID
 * - `AUTH_GITLAB_SECRET`: the secret
 *
 * The profile is `GET /api/v4/user`. For a self-managed instance pass `baseUrl`: an `issuer` (or
 * `AUTH_GITLAB_ISSUER`) would not move the sign-in off gitlab.com, so it is refused.
 *
 * @example
 * ```ts
 * import GitLab from "@latch/core/providers/gitlab"
 *
 * export const config = { providers: [GitLab] }
 *
 * GitLab({ baseUrl: "https://gitlab.example.com" })
 * ```
 */
export default function GitLab<P extends GitLabProfile = GitLabProfile>(
  options: GitLabOptions<P> = {},
): OAuthConfig<P> {
  const { baseUrl, authorization, ...rest } = options
  const base = String(baseUrl ?? "https://gitlab.com").replace(/\/+$/, "")
  const provider: OAuthConfig<P> = {
    id: "gitlab",
    name: "GitLab",
    type: "oauth",
    authorization: withDefaults(`${base}/oauth/authorize`, { scope: "read_user" }, authorization),
    token: `${base}/oauth/token`,
    userinfo: `${base}/api/v4/user`,
    profile: (profile) => ({
      id: String(profile.id),
      name: profile.name || profile.username,
      email: profile.email ?? null,
      image: profile.avatar_url ?? null,
    }),
    style: { brandColor: "#fc6d26", text: "#ffffff" },
    ...rest,
  }
  return withFinish(
    provider,
    fixedEndpoints(undefined, "for a self-managed instance, pass baseUrl"),
  )
}
