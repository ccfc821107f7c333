/**
 * Sign in with Bitbucket Cloud.
 *
 * @module providers/bitbucket
 */
import type { OAuthConfig, OAuthUserConfig, ProviderFetch } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"
import { fixedEndpoints, withFinish } from "../lib/provider-rules.js"

/**
 * The account, as `GET /2.0/user` returns it, with `email` added by Latch from
 * `GET /2.0/user/emails`.
 *
 * @see https://developer.atlassian.com/cloud/bitbucket/rest/api-group-users/
 */
export interface BitbucketProfile {
  /** The account's UUID, in braces: `{a1b2…}`. */
  uuid: string
  /** The Atlassian account ID: the user's `id` (the account's `providerAccountId`). */
  account_id: string
  display_name: string
  nickname?: string
  username?: string
  type: string
  created_on: string
  account_status?: string
  is_staff?: boolean
  location?: string | null
  has_2fa_enabled?: boolean | null
  links: Record<string, { href: string; name?: string } | undefined> & {
    avatar?: { href: string }
  }
  /** The primary confirmed address, from `GET /2.0/user/emails` (scope `email`). */
  email?: string | null
  [field: string]: unknown
}

/** One entry of `GET /2.0/user/emails`. */
export interface BitbucketEmail {
  email: string
  is_primary: boolean
  is_confirmed: boolean
  type: "email"
}

const API = "https://api.bitbucket.org/2.0"

/**
 * Reads the account and its primary confirmed email address; a failing emails request (no
 * `email` permission) leaves the email `null`.
 */
async function fetchAccount(accessToken: string, fetch: ProviderFetch) {
  const headers = { Authorization: `Bearer ${accessToken}`, Accept: "application/json" }
  const response = await fetch(`${API}/user`, { headers })
  if (!response.ok) throw new Error(`Bitbucket answered ${response.status} to GET /2.0/user`)
  const profile = (await response.json()) as Record<string, unknown>
  const emails = await fetch(`${API}/user/emails`, { headers })
  if (emails.ok) {
    const page = (await emails.json()) as { values?: BitbucketEmail[] }
    const primary = page.values?.find((e) => e.is_primary && e.is_confirmed)
    profile.email = primary?.email ?? null
  } else {
    profile.email = null
  }
  return profile
}

/**
 * Adds Bitbucket Cloud sign-in.
 *
 * In a workspace's settings, add an OAuth consumer with the callback URL
 * `https://example.com/auth/callback/bitbucket`, "This is a private consumer" checked, and the
 * Account → Email and Read permissions, then set:
 *
 * - `AUTH_BITBUCKET_ID`: the consumer's key
 * - `AUTH_BITBUCKET_SECRET`: the consumer's secret
 *
 * Bitbucket takes the scopes from the consumer's permissions. The profile is `GET /2.0/user`
 * and the primary confirmed address of `GET /2.0/user/emails`. The user's id (stored as the
 * account's `providerAccountId`) is the Atlassian `account_id`, as `@auth/core` stores it; the
 * profile's `uuid` stays available to a `profile` function of your own.
 *
 * @example
 * ```ts
 * import Bitbucket from "@latch/core/providers/bitbucket"
 *
 * export const config = { providers: [Bitbucket] }
 * ```
 */
export default function Bitbucket<P extends BitbucketProfile = BitbucketProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  const { authorization, ...rest } = options
  const provider: OAuthConfig<P> = {
    id: "bitbucket",
    name: "Bitbucket",
    type: "oauth",
    authorization: withDefaults("https://bitbucket.org/site/oauth2/authorize", {}, authorization),
    token: "https://bitbucket.org/site/oauth2/access_token",
    userinfo: {
      url: `${API}/user`,
      request: ({ tokens, fetch }) => fetchAccount(String(tokens.access_token), fetch),
    },
    profile: (profile) => ({
      id: profile.account_id,
      name: profile.display_name ?? profile.nickname ?? null,
      email: profile.email ?? null,
      image: profile.links?.avatar?.href ?? null,
    }),
    style: { brandColor: "#2684ff", text: "#ffffff" },
    ...rest,
  }
  return withFinish(provider, fixedEndpoints())
}
