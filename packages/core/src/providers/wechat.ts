/**
 * Sign in with WeChat.
 *
 * @module providers/wechat
 */
import { customFetch } from "../markers.js"
import { clientIdAs, oauthProvider, profileFrom } from "../lib/provider-shapes.js"
import type { OAuthConfig, OAuthUserConfig, ProviderFetch } from "./index.js"

/**
 * The signed-in user, as `GET /sns/userinfo` returns it.
 *
 * @see https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Authorized_Interface_Calling_UnionID.html
 */
export interface WeChatProfile {
  /** The user's id for this app. */
  openid: string
  nickname: string
  /** 1 male, 2 female, 0 unknown. */
  sex: number
  province: string
  city: string
  country: string
  /** URL of the user's picture. */
  headimgurl: string
  privilege: string[]
  /** The user's id across the apps of one Open Platform account, when the app is bound to one. */
  unionid?: string
  [field: string]: unknown
}

/**
 * WeChat's token endpoint is a `GET` with `appid`, `secret`, `code` and `grant_type` in the
 * query, and reports errors as `{ errcode, errmsg }` with status 200: the standard token request
 * is sent so, and such an answer turned into an OAuth error response.
 */
function wechatTokenRequests(inner: ProviderFetch): ProviderFetch {
  return async (input, init) => {
    const { body } = init
    if (!(body instanceof URLSearchParams) || !body.has("grant_type")) return inner(input, init)
    const url = new URL(input)
    const names: Record<string, string> = { client_id: "appid", client_secret: "secret" }
    for (const [key, value] of body) {
      if (key !== "redirect_uri") url.searchParams.set(names[key] ?? key, value)
    }
    const headers = new Headers(init.headers)
    headers.delete("content-type")
    const response = await inner(url.href, { ...init, method: "GET", headers, body: undefined })
    const answer: unknown = await response
      .clone()
      .json()
      .catch(() => undefined)
    if (typeof answer !== "object" || answer === null || !("errcode" in answer)) return response
    const { errcode, errmsg } = answer as { errcode: unknown; errmsg?: unknown }
    return Response.json(
      { error: String(errcode), error_description: String(errmsg ?? "") },
      { status: 400 },
    )
  }
}

const common = {
  id: "wechat",
  name: "WeChat",
  token: "https://api.weixin.qq.com/sns/oauth2/access_token",
  client: { token_endpoint_auth_method: "client_secret_post" },
  checks: ["state" as const],
  conform: (body: Record<string, unknown>) => ({ token_type: "bearer", ...body }),
  userinfo: profileFrom({
    url: "https://api.weixin.qq.com/sns/userinfo",
    query: (tokens) => ({ openid: String(tokens.openid ?? ""), lang: "zh_CN" }),
    auth: { query: "access_token" },
  }),
  profile: (profile: WeChatProfile) => ({
    id: profile.unionid || profile.openid,
    name: profile.nickname || null,
    email: null,
    image: profile.headimgurl || null,
  }),
  finish: clientIdAs("appid"),
  style: { brandColor: "#07c160", text: "#ffffff" },
}

const platforms = {
  /** Inside WeChat, from an Official Account's web page. */
  OfficialAccount: oauthProvider<WeChatProfile>({
    ...common,
    authorization: "https://open.weixin.qq.com/connect/oauth2/authorize#wechat_redirect",
    params: { scope: "snsapi_userinfo" },
  }),
  /** On a website, by scanning a QR code with WeChat. */
  WebsiteApp: oauthProvider<WeChatProfile>({
    ...common,
    authorization: "https://open.weixin.qq.com/connect/qrconnect#wechat_redirect",
    params: { scope: "snsapi_login" },
  }),
}

/**
 * Adds WeChat sign-in.
 *
 * For a website (`platformType: "WebsiteApp"`), create a Website App on the WeChat Open
 * Platform; inside WeChat (`"OfficialAccount"`, the default), use an Official Account. Set its
 * authorized callback domain to `example.com` (the redirect URI is
 * `https://example.com/auth/callback/wechat`), then set:
 *
 * - `AUTH_WECHAT_ID`: the AppID
 * - `AUTH_WECHAT_SECRET`: the AppSecret
 *
 * WeChat names the client `appid` and the secret `secret`. The authorization (with `state`,
 * WeChat takes no PKCE) asks for `snsapi_userinfo`, or `snsapi_login` for a Website App. The
 * token endpoint is a `GET` with its parameters in the query, answering without a `token_type`
 * (added as `bearer`) and with the user's `openid`: the provider's `fetch` (yours, if you set
 * one) is wrapped to send the standard token request so. The profile is `GET /sns/userinfo` with
 * the token and the `openid` in the query. WeChat gives no email address. The account is stored
 * under the `unionid`, as in Auth.js; an app bound to no Open Platform account gets none, and the
 * `openid` is used instead.
 *
 * @example
 * ```ts
 * import WeChat from "@latch/core/providers/wechat"
 *
 * export const config = { providers: [WeChat({ platformType: "WebsiteApp" })] }
 * ```
 */
export default function WeChat(
  options: OAuthUserConfig<WeChatProfile> & {
    platformType?: "OfficialAccount" | "WebsiteApp"
  } = {},
): OAuthConfig<WeChatProfile> {
  const { platformType = "OfficialAccount", ...rest } = options
  const inner: ProviderFetch = rest[customFetch] ?? ((input, init) => fetch(input, init))
  return platforms[platformType]({ ...rest, [customFetch]: wechatTokenRequests(inner) })
}
