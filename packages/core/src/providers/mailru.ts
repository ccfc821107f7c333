/**
 * Sign in with Mail.ru.
 *
 * @module providers/mailru
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"

/**
 * The user, as `GET https://oauth.mail.ru/userinfo` returns it (scope `userinfo`).
 *
 * @see https://id.vk.com/about/business/go/docs/ru/vkid/latest/oauth/oauth-mail/index
 */
export interface MailruProfile {
  /** The user's id. */
  id: string
  client_id?: string
  email: string
  name?: string
  first_name?: string
  last_name?: string
  nickname?: string
  /** `m` or `f`. */
  gender?: string
  /** `DD.MM.YYYY`. */
  birthday?: string
  locale?: string
  /** The avatar's URL. */
  image?: string
  [field: string]: unknown
}

/**
 * Adds Mail.ru sign-in.
 *
 * Create an application at https://o2.mail.ru/app/ with the redirect URI
 * `https://example.com/auth/callback/mailru`, then set:
 *
 * - `AUTH_MAILRU_ID`: the application's ID
 * - `AUTH_MAILRU_SECRET`: the application's secret
 *
 * The scope is `userinfo`. The token request carries the id and secret in its body; its answer
 * has no `token_type`. The profile is `GET /userinfo`, the token in the `access_token` parameter.
 *
 * @example
 * ```ts
 * import Mailru from "@latch/core/providers/mailru"
 *
 * export const config = { providers: [Mailru] }
 * ```
 */
const Mailru = oauthProvider<MailruProfile>({
  id: "mailru",
  name: "Mail.ru",
  authorization: "https://oauth.mail.ru/login",
  params: { scope: "userinfo" },
  token: "https://oauth.mail.ru/token",
  client: { token_endpoint_auth_method: "client_secret_post" },
  conform: (body) =>
    typeof body.access_token === "string" && body.token_type === undefined
      ? { ...body, token_type: "bearer" }
      : body,
  userinfo: profileFrom({
    url: "https://oauth.mail.ru/userinfo",
    auth: { query: "access_token" },
  }),
  profile: (profile) => ({
    id: String(profile.id),
    name:
      profile.name ??
      ([profile.first_name, profile.last_name].filter(Boolean).join(" ") || profile.nickname) ??
      null,
    email: profile.email ?? null,
    image: profile.image ?? null,
  }),
  style: { brandColor: "#005ff9", text: "#ffffff" },
})

export default Mailru
