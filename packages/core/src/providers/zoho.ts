/**
 * Sign in with Zoho.
 *
 * @module providers/zoho
 */
import { fixedEndpoints } from "../lib/provider-rules.js"
import { hostedAt, oauthProvider, profileFrom } from "../lib/provider-shapes.js"
import type { UserinfoEndpointHandler } from "./oauth.js"

/**
 * The signed-in user, as the accounts server's `GET /oauth/user/info` returns it.
 *
 * @see https://www.zoho.com/accounts/protocol/oauth.html
 */
export interface ZohoProfile {
  /** The user's Zoho id. */
  ZUID: number
  First_Name: string
  Last_Name: string
  Display_Name: string
  Email: string
  [field: string]: unknown
}

const US = "https://accounts.zoho.com"
const scope = "AaaServer.profile.Read"

/** The user info is on the accounts server the token came from. */
const userinfo: UserinfoEndpointHandler = {
  url: `${US}/oauth/user/info`,
  request: (context) => {
    const token = context.provider.token
    const tokenUrl = typeof token === "string" ? token : token?.url
    const origin = tokenUrl ? new URL(tokenUrl).origin : US
    return profileFrom({
      url: `${origin}/oauth/user/info`,
      auth: { scheme: "Zoho-oauthtoken" },
    }).request!(context)
  },
}

/** The endpoints of a data centre's accounts server (`https://accounts.zoho.eu`…). */
const dataCentre = hostedAt(
  "a Zoho accounts server",
  (base) => ({ authorization: `${base}/oauth/v2/auth`, token: `${base}/oauth/v2/token` }),
  { scope },
)

/**
 * Adds Zoho sign-in.
 *
 * In the Zoho API Console, add a "Server-based Application" client with the authorized redirect
 * URI `https://example.com/auth/callback/zoho`, then set:
 *
 * - `AUTH_ZOHO_ID`: the client ID
 * - `AUTH_ZOHO_SECRET`: the client secret
 * - `AUTH_ZOHO_ISSUER` (optional): the accounts server of your users' data centre, e.g.
 *   `https://accounts.zoho.eu`, `https://accounts.zoho.in`, `https://accounts.zoho.com.au`,
 *   `https://accounts.zoho.jp`, `https://accounts.zohocloud.ca`; default
 *   `https://accounts.zoho.com` (US)
 *
 * The scope is `AaaServer.profile.Read`; the token request carries the secret in its body. The
 * profile is `GET /oauth/user/info` on the same accounts server, with the token as
 * `Authorization: Zoho-oauthtoken <token>`; the account is stored under `ZUID`. Every sign-in
 * goes to one data centre's accounts server: users of other data centres (whose callback names
 * another `accounts-server`) cannot sign in through it.
 *
 * @example
 * ```ts
 * import Zoho from "@latch/core/providers/zoho"
 *
 * export const config = { providers: [Zoho] }
 * ```
 */
const Zoho = oauthProvider<ZohoProfile>({
  id: "zoho",
  name: "Zoho",
  authorization: `${US}/oauth/v2/auth`,
  params: { scope },
  token: `${US}/oauth/v2/token`,
  client: { token_endpoint_auth_method: "client_secret_post" },
  userinfo,
  finish: (provider, context) =>
    (provider.issuer ?? context.envIssuer) !== undefined
      ? dataCentre(provider, context)
      : fixedEndpoints()(provider, context),
  profile: (profile) => ({
    id: String(profile.ZUID),
    name:
      [profile.First_Name, profile.Last_Name].filter(Boolean).join(" ") ||
      profile.Display_Name ||
      null,
    email: profile.Email ?? null,
    image: null,
  }),
  style: { brandColor: "#e42527", text: "#ffffff" },
})

export default Zoho
