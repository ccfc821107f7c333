/**
 * Sign in with Oracle NetSuite.
 *
 * @module providers/netsuite
 */
import type { OAuth2Config, OAuthUserConfig } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"
import { oauthProvider } from "../lib/provider-shapes.js"
import { fixedEndpoints, type FinishProvider } from "../lib/provider-rules.js"

/** NetSuite's options besides the client. */
export interface OAuthNetSuiteOptions {
  /**
   * The account ID, as in Setup → Company → Company Information (`1234567`, `1234567_SB1` for a
   * sandbox); its endpoints are on `<account>.app.netsuite.com` and
   * `<account>.suitetalk.api.netsuite.com`.
   */
  accountID: string
  /** The authorization request's `prompt`: `none`, `login`, `consent` or `login consent`. */
  prompt?: string | "none" | "login" | "consent"
  /** @default "restlets rest_webservices" */
  scope?: string
  /** The profile's URL: a RESTlet of the account that returns the current user. */
  userinfo?: string
}

/**
 * The user, as a RESTlet returning `runtime.getCurrentUser()` answers it.
 *
 * @see https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_4296707316.html
 */
export interface NetSuiteProfile {
  /** The employee's internal id. */
  id: number
  name: string
  email: string
  location: number
  role: number
  roleId?: string
  roleCenter?: string
  contact?: number
  subsidiary?: number
  department?: number
  [field: string]: unknown
}

/** The account's host label: lower case, `_` as `-` (`1234567_SB1` → `1234567-sb1`). */
function accountHost(accountID: string): string {
  return accountID.trim().toLowerCase().replace(/_/g, "-")
}

/** Endpoints on the account's own domains; no issuer may be configured. */
const inAccount: FinishProvider = (provider, context) => {
  const options = provider.options as Partial<OAuthNetSuiteOptions> | undefined
  if (!options?.accountID)
    return context.fail("needs the NetSuite account: set the accountID option")
  if (!provider.userinfo) {
    return context.fail(
      "needs the URL of a RESTlet returning the current user: set the userinfo option",
    )
  }
  const host = accountHost(options.accountID)
  const own = provider.options as OAuthUserConfig | undefined
  const authorization = withDefaults(
    `https://${host}.app.netsuite.com/app/login/oauth2/authorize.nl`,
    {},
    provider.authorization,
  )
  const token =
    own?.token ?? `https://${host}.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token`
  return fixedEndpoints()({ ...provider, authorization, token }, context)
}

const factory = oauthProvider<NetSuiteProfile>({
  id: "netsuite",
  name: "NetSuite",
  params: { scope: "restlets rest_webservices" },
  finish: inAccount,
  profile: (profile) => ({
    id: String(profile.id),
    name: profile.name ?? null,
    email: profile.email ?? null,
    image: null,
  }),
  style: { brandColor: "#125580", text: "#ffffff" },
})

/**
 * Adds NetSuite sign-in.
 *
 * Enable OAuth 2.0 (Setup → Company → Enable Features → SuiteCloud), create an integration
 * record with "Authorization code grant", the redirect URI
 * `https://example.com/auth/callback/netsuite` and the scopes you need (RESTlets, REST web
 * services), then set:
 *
 * - `AUTH_NETSUITE_ID`: the integration's client ID
 * - `AUTH_NETSUITE_SECRET`: the integration's client secret
 *
 * and pass `accountID`. NetSuite has no standard profile endpoint: deploy a RESTlet that returns
 * `runtime.getCurrentUser()` (its fields as `NetSuiteProfile`) and pass its external URL as
 * `userinfo`. The token request authenticates with HTTP Basic.
 *
 * @example
 * ```ts
 * import NetSuite from "@latch/core/providers/netsuite"
 *
 * NetSuite({
 *   accountID: "1234567",
 *   userinfo: "https://1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=customscript_user&deploy=1",
 * })
 * ```
 */
export default function NetSuite<P extends NetSuiteProfile = NetSuiteProfile>(
  // Called without options, as setEnvDefaults calls a factory, it fails at sign-in (no account).
  options: OAuthUserConfig<P> & OAuthNetSuiteOptions = {} as OAuthNetSuiteOptions,
): OAuth2Config<P> {
  const { prompt, scope } = options
  const params: Record<string, string> = {}
  if (scope) params.scope = scope
  if (prompt) params.prompt = prompt
  return factory<P>({
    ...options,
    authorization: withDefaults(undefined, params, options.authorization),
  })
}
