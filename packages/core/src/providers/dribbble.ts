/**
 * Sign in with Dribbble.
 *
 * @module providers/dribbble
 */
import { oauthProvider } from "../lib/provider-shapes.js"
import type { OAuth2Config, OAuthUserConfig } from "./index.js"

/**
 * The signed-in user, as `GET /v2/user` returns it. The API gives no email address.
 *
 * @see https://developer.dribbble.com/v2/user/
 */
export interface DribbbleProfile {
  /** The user's numeric id. */
  id: number
  name: string
  login: string
  html_url: string
  avatar_url: string
  bio: string
  location: string | null
  links: Record<string, string>
  can_upload_shot: boolean
  pro: boolean
  followers_count: number
  created_at: string
  type: "Player" | "Team"
  teams: Record<string, unknown>[]
  [field: string]: unknown
}

/** Dribbble's options: `scope`, `public` (the default) or `public upload`. */
export type DribbbleOptions<P> = OAuthUserConfig<P> & { scope?: "public" | "public upload" }

const shape = oauthProvider<DribbbleProfile>({
  id: "dribbble",
  name: "Dribbble",
  authorization: "https://dribbble.com/oauth/authorize",
  params: { scope: "public" },
  token: "https://dribbble.com/oauth/token",
  userinfo: "https://api.dribbble.com/v2/user",
  client: { token_endpoint_auth_method: "client_secret_post" },
  profile: (profile) => ({
    id: String(profile.id),
    name: profile.name ?? profile.login ?? null,
    email: null,
    image: profile.avatar_url ?? null,
  }),
  style: { brandColor: "#ea4c89", text: "#ffffff" },
})

/**
 * Adds Dribbble sign-in.
 *
 * Register an application at https://dribbble.com/account/applications with the callback URL
 * `https://example.com/auth/callback/dribbble`, then set:
 *
 * - `AUTH_DRIBBBLE_ID`: the client ID
 * - `AUTH_DRIBBBLE_SECRET`: the client secret
 *
 * The authorization asks for `public` (or the `scope` option); the token request sends the id
 * and secret as parameters, and the token does not expire. The profile is `GET /v2/user`, which
 * has no email address.
 *
 * @example
 * ```ts
 * import Dribbble from "@latch/core/providers/dribbble"
 *
 * export const config = { providers: [Dribbble({ scope: "public upload" })] }
 * ```
 */
export default function Dribbble<P extends DribbbleProfile = DribbbleProfile>(
  options: DribbbleOptions<P> = {},
): OAuth2Config<P> {
  const { scope, authorization, ...rest } = options
  if (scope === undefined) return shape<P>(options)
  const own = typeof authorization === "object" ? authorization : { url: authorization }
  return shape<P>({ ...rest, authorization: { ...own, params: { scope, ...own.params } } })
}
