/**
 * Sign in with Mailchimp.
 *
 * @module providers/mailchimp
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"

/**
 * The account and login behind the token, as `GET https://login.mailchimp.com/oauth2/metadata`
 * returns them.
 *
 * @see https://mailchimp.com/developer/marketing/guides/access-user-data-oauth-2/
 */
export interface MailchimpProfile {
  /** The data center of the account's API (`us1`…): its API is `https://<dc>.api.mailchimp.com`. */
  dc: string
  role: string
  /** The Mailchimp account's name. */
  accountname: string
  /** The account's id. */
  user_id: number
  login: {
    email: string
    avatar: string | null
    /** The id of the login (the person) that authorized the app. */
    login_id: number
    login_name: string
    login_email: string
  }
  login_url: string
  api_endpoint: string
  [field: string]: unknown
}

/**
 * Mailchimp's token response has no `token_type`, `scope: null` and `expires_in: 0` for a token
 * that does not expire.
 */
function tokenResponse(body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.access_token !== "string") return body
  const { scope, expires_in, ...rest } = body
  return {
    token_type: "bearer",
    ...rest,
    ...(typeof scope === "string" ? { scope } : {}),
    ...(typeof expires_in === "number" && expires_in > 0 ? { expires_in } : {}),
  }
}

/**
 * Adds Mailchimp sign-in.
 *
 * Register an app under Account → Extras → Registered apps with the redirect URI
 * `https://example.com/auth/callback/mailchimp`, then set:
 *
 * - `AUTH_MAILCHIMP_ID`: the client ID
 * - `AUTH_MAILCHIMP_SECRET`: the client secret
 *
 * Mailchimp has no scopes. The token request carries the id and secret in its body; the answer
 * has no `token_type`, and the token does not expire. The profile is the `oauth2/metadata`
 * endpoint, which takes the token as `Authorization: OAuth <token>`. The user is the login
 * (`login.login_id`); the name shown is the account's name.
 *
 * @example
 * ```ts
 * import Mailchimp from "@latch/core/providers/mailchimp"
 *
 * export const config = { providers: [Mailchimp] }
 * ```
 */
const Mailchimp = oauthProvider<MailchimpProfile>({
  id: "mailchimp",
  name: "Mailchimp",
  authorization: "https://login.mailchimp.com/oauth2/authorize",
  token: "https://login.mailchimp.com/oauth2/token",
  client: { token_endpoint_auth_method: "client_secret_post" },
  conform: tokenResponse,
  userinfo: profileFrom({
    url: "https://login.mailchimp.com/oauth2/metadata",
    auth: { scheme: "OAuth" },
  }),
  profile: (profile) => ({
    id: String(profile.login.login_id),
    name: profile.accountname ?? profile.login.login_name ?? null,
    email: profile.login.email ?? profile.login.login_email ?? null,
    image: profile.login.avatar ?? null,
  }),
  style: { brandColor: "#ffe01b", text: "#241c15" },
})

export default Mailchimp
