/**
 * Sign in with an account on a Mastodon server.
 *
 * @module providers/mastodon
 */
import { hostedAt, oauthProvider } from "../lib/provider-shapes.js"

/**
 * The account, as `GET /api/v1/accounts/verify_credentials` returns it.
 *
 * @see https://docs.joinmastodon.org/methods/accounts/#verify_credentials
 */
export interface MastodonProfile {
  /** The account's id on this server (a string of digits). */
  id: string
  /** The username, without the domain. */
  username: string
  /** The Webfinger account name (`user` for a local account). */
  acct: string
  display_name: string
  locked: boolean
  bot: boolean
  created_at: string
  note: string
  url: string
  avatar: string
  avatar_static: string
  header: string
  header_static: string
  followers_count: number
  following_count: number
  statuses_count: number
  last_status_at: string | null
  [field: string]: unknown
}

/**
 * Adds sign-in with a Mastodon server.
 *
 * On the server, under Preferences → Development, create an application with the redirect URI
 * `https://example.com/auth/callback/mastodon` and the `read` scope (or register it through
 * `POST /api/v1/apps`), then set:
 *
 * - `AUTH_MASTODON_ID`: the client key
 * - `AUTH_MASTODON_SECRET`: the client secret
 * - `AUTH_MASTODON_ISSUER`: the server's URL, e.g. `https://mastodon.social` (or the `issuer`
 *   option)
 *
 * The endpoints are the server's `/oauth/authorize` and `/oauth/token` (the client in the token
 * request's body); the profile is `GET /api/v1/accounts/verify_credentials`. An account id is
 * only unique on its server. Mastodon gives no email address.
 *
 * @example
 * ```ts
 * import Mastodon from "@latch/core/providers/mastodon"
 *
 * export const config = { providers: [Mastodon({ issuer: "https://mastodon.social" })] }
 * ```
 */
const Mastodon = oauthProvider<MastodonProfile>({
  id: "mastodon",
  name: "Mastodon",
  client: { token_endpoint_auth_method: "client_secret_post" },
  finish: hostedAt(
    "the Mastodon server's URL",
    (base) => ({
      authorization: `${base}/oauth/authorize`,
      token: `${base}/oauth/token`,
      userinfo: `${base}/api/v1/accounts/verify_credentials`,
    }),
    { scope: "read" },
  ),
  profile: (profile) => ({
    id: String(profile.id),
    name: profile.username ?? null,
    email: null,
    image: profile.avatar_static ?? profile.avatar ?? null,
  }),
  style: { brandColor: "#6364ff", text: "#ffffff" },
})

export default Mastodon
