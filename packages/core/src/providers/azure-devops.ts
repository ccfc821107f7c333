/**
 * Sign in with Azure DevOps Services, through its own OAuth 2.0 (deprecated by Microsoft in
 * favour of Microsoft Entra ID: prefer `microsoft-entra-id` for new applications).
 *
 * @module providers/azure-devops
 */
import { customFetch } from "../markers.js"
import { oauthProvider } from "../lib/provider-shapes.js"
import type { OAuth2Config, OAuthUserConfig, ProviderFetch } from "./index.js"

/**
 * The signed-in user, as `GET /_apis/profile/profiles/me?details=true&coreAttributes=Avatar`
 * returns it.
 *
 * @see https://learn.microsoft.com/en-us/rest/api/azure/devops/profile/profiles/get
 */
export interface AzureDevOpsProfile {
  /** The profile's id (a GUID). */
  id: string
  displayName: string
  publicAlias: string
  emailAddress: string
  coreRevision: number
  timeStamp: string
  revision: number
  coreAttributes: {
    /** The avatar's bytes, base64-encoded in `value.$value`. */
    Avatar?: { value: { $type?: string; $value?: string; value?: string } }
    [attribute: string]: unknown
  }
  [field: string]: unknown
}

/** Azure DevOps' options: `scope`, the authorized scopes of the app. @default "vso.profile" */
export type AzureDevOpsOptions<P> = OAuthUserConfig<P> & { scope?: string }

const TOKEN = "https://app.vssps.visualstudio.com/oauth2/token"

/**
 * Azure DevOps' token request is a JWT bearer grant: the client secret goes as
 * `client_assertion` and the code (or refresh token) as `assertion`. This rewrites the standard
 * form body the flow sends to the token endpoint.
 */
function assertionGrant(inner: ProviderFetch): ProviderFetch {
  return (input, init) => {
    const { body } = init
    if (!input.startsWith(TOKEN) || !(body instanceof URLSearchParams)) return inner(input, init)
    const refresh = body.get("grant_type") === "refresh_token"
    const form = new URLSearchParams({
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: body.get("client_secret") ?? "",
      grant_type: refresh ? "refresh_token" : "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: (refresh ? body.get("refresh_token") : body.get("code")) ?? "",
      redirect_uri: body.get("redirect_uri") ?? "",
    })
    return inner(input, { ...init, body: form })
  }
}

const shape = oauthProvider<AzureDevOpsProfile>({
  id: "azure-devops",
  name: "Azure DevOps",
  authorization: "https://app.vssps.visualstudio.com/oauth2/authorize",
  params: { response_type: "Assertion", scope: "vso.profile" },
  token: TOKEN,
  userinfo:
    "https://app.vssps.visualstudio.com/_apis/profile/profiles/me?details=true&coreAttributes=Avatar&api-version=6.0",
  client: { token_endpoint_auth_method: "client_secret_post" },
  checks: ["state"],
  // The answer has `token_type: "jwt-bearer"` and `expires_in` as a string; the token is used
  // as a bearer token.
  conform: (body) =>
    body.access_token === undefined
      ? body
      : { ...body, token_type: "bearer", expires_in: Number(body.expires_in) || undefined },
  profile: (profile) => {
    const avatar = profile.coreAttributes?.Avatar?.value
    const bytes = avatar?.$value ?? avatar?.value
    return {
      id: profile.id,
      name: profile.displayName ?? null,
      email: profile.emailAddress ?? null,
      image: bytes ? `data:image/jpeg;base64,${bytes}` : null,
    }
  },
  style: { brandColor: "#0078d4", text: "#ffffff" },
})

/**
 * Adds Azure DevOps sign-in.
 *
 * Register an app at https://app.vsaex.visualstudio.com/app/register with the callback URL
 * `https://example.com/auth/callback/azure-devops` (https, even locally) and at least the scope
 * "User profile (read)", then set:
 *
 * - `AUTH_AZURE_DEVOPS_ID`: the App ID
 * - `AUTH_AZURE_DEVOPS_SECRET`: the Client Secret
 *
 * and pass the authorized scopes, space-separated, as `scope` (`vso.profile` by default).
 * The authorization request asks for `response_type=Assertion`; the token request is the JWT
 * bearer grant Azure DevOps documents (the provider's `fetch`, yours if you set one, is wrapped
 * to send it), and its answer's `token_type` (`jwt-bearer`) and string `expires_in` are
 * conformed before they are read. The profile is `GET /_apis/profile/profiles/me`; the image is
 * the avatar as a `data:` URL.
 *
 * @example
 * ```ts
 * import AzureDevOps from "@latch/core/providers/azure-devops"
 *
 * export const config = { providers: [AzureDevOps({ scope: "vso.profile vso.code" })] }
 * ```
 */
export default function AzureDevOps<P extends AzureDevOpsProfile = AzureDevOpsProfile>(
  options: AzureDevOpsOptions<P> = {},
): OAuth2Config<P> {
  const { scope, authorization, ...rest } = options
  const inner: ProviderFetch = options[customFetch] ?? ((input, init) => fetch(input, init))
  const own = typeof authorization === "object" ? authorization : { url: authorization }
  return shape<P>({
    ...rest,
    ...(scope || authorization
      ? { authorization: { ...own, params: { ...(scope ? { scope } : {}), ...own.params } } }
      : {}),
    [customFetch]: assertionGrant(inner),
  })
}
