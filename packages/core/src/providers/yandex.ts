/**
 * Sign in with Yandex ID.
 *
 * @module providers/yandex
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"

/**
 * The signed-in user, as `GET https://login.yandex.ru/info?format=json` returns it (fields by
 * the scopes granted).
 *
 * @see https://yandex.com/dev/id/doc/en/user-information
 */
export interface YandexProfile {
  /** The user's id. */
  id: string
  login: string
  client_id: string
  psuid: string
  /** With `login:email`. */
  emails?: string[]
  default_email?: string
  /** With `login:avatar`. */
  is_avatar_empty?: boolean
  default_avatar_id?: string
  /** With `login:birthday`. */
  birthday?: string | null
  /** With `login:info`. */
  first_name?: string
  last_name?: string
  display_name?: string
  real_name?: string
  sex?: "male" | "female" | null
  /** With `login:default_phone`. */
  default_phone?: { id: number; number: string }
  [field: string]: unknown
}

/**
 * Adds Yandex sign-in.
 *
 * Create an app at `https://oauth.yandex.com/client/new` for a web service with the redirect URI
 * `https://example.com/auth/callback/yandex` and the Yandex ID permissions "access to username,
 * first name and surname, gender", "access to email address" and "access to user avatar", then
 * set:
 *
 * - `AUTH_YANDEX_ID`: the ClientID
 * - `AUTH_YANDEX_SECRET`: the Client secret
 *
 * The scope is `login:info login:email login:avatar`; the token request authenticates with HTTP
 * Basic. The profile is `GET https://login.yandex.ru/info?format=json` with the token as
 * `Authorization: OAuth <token>`; the picture is the `islands-200` size of its avatar.
 *
 * @example
 * ```ts
 * import Yandex from "@latch/core/providers/yandex"
 *
 * export const config = { providers: [Yandex] }
 * ```
 */
const Yandex = oauthProvider<YandexProfile>({
  id: "yandex",
  name: "Yandex",
  authorization: "https://oauth.yandex.ru/authorize",
  params: { scope: "login:info login:email login:avatar" },
  token: "https://oauth.yandex.ru/token",
  userinfo: profileFrom({
    url: "https://login.yandex.ru/info",
    query: { format: "json" },
    auth: { scheme: "OAuth" },
  }),
  profile: (profile) => ({
    id: profile.id,
    name: profile.display_name || profile.real_name || profile.first_name || profile.login || null,
    email: profile.default_email ?? profile.emails?.[0] ?? null,
    image:
      !profile.is_avatar_empty && profile.default_avatar_id
        ? `https://avatars.yandex.net/get-yapic/${profile.default_avatar_id}/islands-200`
        : null,
  }),
  style: { brandColor: "#fc3f1d", text: "#ffffff" },
})

export default Yandex
