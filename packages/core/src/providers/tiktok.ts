/**
 * Sign in with TikTok (Login Kit for Web).
 *
 * @module providers/tiktok
 */
import { customFetch } from "../markers.js"
import { clientIdAs, oauthProvider } from "../lib/provider-shapes.js"
import type { OAuthConfig, OAuthUserConfig, ProviderFetch } from "./index.js"

/**
 * The answer of `GET /v2/user/info/`: the user with the fields asked for, and an `error` whose
 * `code` is `"ok"` on success.
 *
 * @see https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info
 */
export interface TiktokProfile {
  data: {
    user: {
      /** The user's id for this app. */
      open_id: string
      /** The user's id across the apps of one developer. */
      union_id?: string
      avatar_url?: string
      avatar_url_100?: string
      avatar_large_url?: string
      display_name?: string
      /** With `user.info.profile`. */
      username?: string
      bio_description?: string
      profile_deep_link?: string
      is_verified?: boolean
      /** With `user.info.stats`. */
      follower_count?: number
      following_count?: number
      likes_count?: number
      video_count?: number
      [field: string]: unknown
    }
  }
  error: { code: string; message: string; log_id: string }
  [field: string]: unknown
}

/**
 * TikTok's token endpoint names the client `client_key`: the standard token request's
 * `client_id` is sent under that name.
 */
function clientKeyInTokenRequests(inner: ProviderFetch): ProviderFetch {
  return (input, init) => {
    const { body } = init
    if (!(body instanceof URLSearchParams) || !body.has("client_id")) return inner(input, init)
    const renamed = new URLSearchParams(body)
    renamed.set("client_key", renamed.get("client_id") ?? "")
    renamed.delete("client_id")
    return inner(input, { ...init, body: renamed })
  }
}

const shaped = oauthProvider<TiktokProfile>({
  id: "tiktok",
  name: "TikTok",
  authorization: "https://www.tiktok.com/v2/auth/authorize/",
  params: { scope: "user.info.basic" },
  token: "https://open.tiktokapis.com/v2/oauth/token/",
  client: { token_endpoint_auth_method: "client_secret_post" },
  userinfo:
    "https://open.tiktokapis.com/v2/user/info/?fields=open_id,union_id,avatar_url,display_name",
  profile: ({ data }) => ({
    id: data.user.open_id,
    name: data.user.display_name || data.user.username || null,
    email: null,
    image: data.user.avatar_url ?? null,
  }),
  finish: clientIdAs("client_key"),
  style: { brandColor: "#000000", text: "#ffffff" },
})

/**
 * Adds TikTok sign-in.
 *
 * In TikTok for Developers, create an app with the Login Kit product and the web redirect URI
 * `https://example.com/auth/callback/tiktok`, then set:
 *
 * - `AUTH_TIKTOK_ID`: the client key
 * - `AUTH_TIKTOK_SECRET`: the client secret
 *
 * TikTok names the client `client_key`, in the authorization request and in the token request
 * (whose body also carries the secret); the provider's `fetch` (yours, if you set one) is
 * wrapped to rename it there. The scope is `user.info.basic`; the profile is
 * `GET /v2/user/info/` with the fields `open_id`, `union_id`, `avatar_url` and `display_name`.
 * TikTok gives no email address. The account is stored under the `open_id`, which is per app.
 *
 * @example
 * ```ts
 * import TikTok from "@latch/core/providers/tiktok"
 *
 * export const config = { providers: [TikTok] }
 * ```
 */
export default function TikTok<P extends TiktokProfile = TiktokProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  const inner: ProviderFetch = options[customFetch] ?? ((input, init) => fetch(input, init))
  return shaped<P>({ ...options, [customFetch]: clientKeyInTokenRequests(inner) })
}
