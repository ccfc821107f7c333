/**
 * Sign in with Bungie.net.
 *
 * @module providers/bungie
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"
import type { OAuth2Config, OAuthUserConfig } from "./index.js"

/** A Bungie.net account (`User.GeneralUser`). */
export interface BungieNetUser {
  /** The Bungie.net membership id, as a string of digits. */
  membershipId: string
  uniqueName: string
  displayName: string
  cachedBungieGlobalDisplayName?: string
  cachedBungieGlobalDisplayNameCode?: number
  /** The avatar's path under `https://www.bungie.net`. */
  profilePicturePath: string
  locale: string
  firstAccess?: string
  lastUpdate?: string
  [field: string]: unknown
}

/**
 * The answer of `GET /Platform/User/GetMembershipsForCurrentUser/`: Bungie's response envelope
 * around the signed-in account and its Destiny memberships.
 *
 * @see https://bungie-net.github.io/multi/operation_get_User-GetMembershipDataForCurrentUser.html
 */
export interface BungieProfile {
  Response: {
    bungieNetUser: BungieNetUser
    destinyMemberships: Record<string, unknown>[]
    primaryMembershipId?: string
    [field: string]: unknown
  }
  ErrorCode: number
  ErrorStatus: string
  Message: string
  ThrottleSeconds: number
  MessageData: Record<string, string>
  [field: string]: unknown
}

/** Bungie's options: `headers` holds the application's `X-API-Key`, sent to the profile API. */
export type BungieOptions<P> = OAuthUserConfig<P> & { headers?: Record<string, string> }

const MEMBERSHIPS = "https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/"

const shape = (headers: Record<string, string> | undefined) =>
  oauthProvider<BungieProfile>({
    id: "bungie",
    name: "Bungie",
    authorization: "https://www.bungie.net/en/OAuth/Authorize",
    params: { reauth: "true" },
    token: "https://www.bungie.net/platform/app/oauth/token/",
    userinfo: profileFrom({ url: MEMBERSHIPS, headers }),
    profile: ({ Response: { bungieNetUser: user } }) => ({
      id: user.membershipId,
      name: user.displayName ?? null,
      email: null,
      image: user.profilePicturePath ? `https://www.bungie.net${user.profilePicturePath}` : null,
    }),
    style: { brandColor: "#000000", text: "#ffffff" },
  })

/**
 * Adds Bungie.net sign-in.
 *
 * At https://www.bungie.net/en/Application create an application with the OAuth client type
 * "Confidential", the redirect URL `https://example.com/auth/callback/bungie` (Bungie requires
 * https) and the scope "Read your Bungie.net notifications…", then set:
 *
 * - `AUTH_BUNGIE_ID`: the OAuth client_id
 * - `AUTH_BUNGIE_SECRET`: the OAuth client_secret
 *
 * and pass the application's API key as `headers: { "X-API-Key": … }`: every Bungie.net API
 * call needs it. The scope is fixed at registration, so the authorization request names none;
 * the token request authenticates with HTTP Basic, and its answer carries the user's
 * `membership_id`. The profile is `GET /User/GetMembershipsForCurrentUser/`; Bungie.net gives
 * no email address.
 *
 * @example
 * ```ts
 * import Bungie from "@latch/core/providers/bungie"
 *
 * export const config = {
 *   providers: [Bungie({ headers: { "X-API-Key": process.env.BUNGIE_API_KEY! } })],
 * }
 * ```
 */
export default function Bungie<P extends BungieProfile = BungieProfile>(
  options: BungieOptions<P> = {},
): OAuth2Config<P> {
  const { headers, ...rest } = options
  return shape(headers)<P>(rest)
}
