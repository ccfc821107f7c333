/**
 * The end of an OAuth sign-in (RFC 6749 §4.1.2–§4.1.4, OpenID Connect Core §3.1.3): the
 * authorization response is validated (state, RFC 9207 `iss`), the code exchanged with the PKCE
 * verifier, an OpenID Connect ID token validated (issuer, audience, expiry, nonce, and its
 * signature against the JWKS), the profile read from the ID token or the userinfo endpoint, and
 * mapped to a user. A plain OAuth 2.0 provider's `id_token`, if it sends one, is kept on the
 * account unvalidated, as Auth.js keeps it; its profile comes from the userinfo endpoint.
 * Every check cookie is deleted first, whatever happens next.
 */
import { compactVerify } from "jose"
import * as oauth from "oauth4webapi"
import type { ActionContext } from "../../actions/context.js"
import {
  AuthError,
  CallbackRouteError,
  InvalidCheck,
  InvalidEndpoints,
  OAuthCallbackError,
} from "../../errors.js"
import { customFetch } from "../../markers.js"
import type { OAuthProviderConfig, ProviderFetch } from "../../providers/index.js"
import type { Identity } from "../../session/identity.js"
import type { Profile, TokenSet } from "../../types.js"
import { checksOf, clearChecks, nonce, pkce, state } from "./checks.js"
import { authorizationServerOf } from "./discovery.js"
import { clientOf, endpointUrl, httpOptions } from "./http.js"
import { identityOf } from "./profile.js"
import { proxyOf, proxyTarget, redirectUriOf } from "./redirect-uri.js"

/** What the callback leads to: an identity, or a redirect (form_post, redirect proxy). */
export type OAuthOutcome = { identity: Identity } | { redirect: string; status: number }

/** oauth4webapi's failures of a check (as opposed to an unreachable or misbehaving server). */
const checkFailures = new Set<string>([
  oauth.JWT_CLAIM_COMPARISON,
  oauth.JSON_ATTRIBUTE_COMPARISON,
  oauth.JWT_TIMESTAMP_CHECK,
  oauth.KEY_SELECTION,
])

/** Maps whatever failed to the error the user and the log see. */
function classify(error: unknown, provider: OAuthProviderConfig): AuthError {
  if (error instanceof AuthError) return error
  if (
    error instanceof oauth.AuthorizationResponseError ||
    error instanceof oauth.ResponseBodyError
  ) {
    return new OAuthCallbackError(
      `"${provider.id}" answered ${error.error}: ${error.error_description ?? ""}`.trim(),
      {
        cause: error,
      },
    )
  }
  if (error instanceof oauth.OperationProcessingError && checkFailures.has(error.code ?? "")) {
    return new InvalidCheck(
      `A check of the response from "${provider.id}" failed: ${error.message}`,
      {
        cause: error,
      },
    )
  }
  if (error instanceof oauth.OperationProcessingError && /state/i.test(error.message)) {
    return new InvalidCheck(
      `The state of the callback from "${provider.id}" does not match: ${error.message}`,
      {
        cause: error,
      },
    )
  }
  return new CallbackRouteError(
    `The sign-in with "${provider.id}" failed: ${(error as Error)?.message ?? error}`,
    {
      cause: error,
    },
  )
}

/**
 * RFC 9207: the `iss` of the response must be the issuer the request went to (a mix-up attack
 * sends the user back from another one). Without a known issuer (a plain OAuth provider with
 * explicit endpoints) there is nothing to compare with, so the parameter is dropped rather than
 * checked against a guess.
 */
function checkIssuer(
  provider: OAuthProviderConfig,
  server: oauth.AuthorizationServer,
  params: URLSearchParams,
): void {
  const iss = params.get("iss")
  if (!provider.issuer) {
    params.delete("iss")
    return
  }
  if (iss === null) {
    if (server.authorization_response_iss_parameter_supported) {
      throw new InvalidCheck(`The callback from "${provider.id}" lacks the iss its server promises`)
    }
    return
  }
  if (iss !== server.issuer) {
    throw new InvalidCheck(`The callback names issuer "${iss}", not "${server.issuer}" (mix-up)`)
  }
}

/**
 * The ID token's signature: against the issuer's keys, or, for a client registered for
 * HMAC-signed ID tokens (`client.id_token_signed_response_alg` `HS256`…, as LINE signs them),
 * with the client secret as the key (OpenID Connect Core §10.1). The token response has already
 * checked that the token's `alg` is the one the client is registered for.
 */
async function checkIdTokenSignature(
  provider: OAuthProviderConfig,
  server: oauth.AuthorizationServer,
  response: Response,
  tokens: oauth.TokenEndpointResponse,
): Promise<void> {
  const registered = provider.client?.id_token_signed_response_alg
  if (typeof registered === "string" && /^HS(256|384|512)$/.test(registered)) {
    const secret = new TextEncoder().encode(provider.clientSecret ?? "")
    try {
      await compactVerify(tokens.id_token!, secret, { algorithms: [registered] })
    } catch (error) {
      throw new CallbackRouteError(`The ID token of "${provider.id}" has an invalid signature`, {
        cause: error,
      })
    }
    return
  }
  if (!server.jwks_uri)
    throw new InvalidEndpoints(`"${provider.id}" sends ID tokens but has no jwks_uri`)
  await oauth.validateApplicationLevelSignature(
    server,
    response,
    httpOptions(provider, server.jwks_uri),
  )
}

/** The callback's parameters: the query, or the form body of a `form_post` response. */
function callbackParams(ctx: ActionContext): URLSearchParams {
  if (ctx.request.method !== "POST") return new URLSearchParams(ctx.request.url.search)
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(ctx.request.body)) {
    if (typeof value === "string") params.set(key, value)
  }
  return params
}

/** Whether ID token claims say who the user is beyond the subject. */
function hasProfileClaims(claims: oauth.IDToken): boolean {
  return ["name", "email", "preferred_username", "given_name", "nickname"].some(
    (claim) => claims[claim] !== undefined,
  )
}

async function profileOf(
  ctx: ActionContext,
  provider: OAuthProviderConfig,
  server: oauth.AuthorizationServer,
  client: oauth.Client,
  tokens: TokenSet,
  claims: oauth.IDToken | undefined,
): Promise<Profile> {
  const { userinfo } = provider
  if (provider.type === "oidc" && provider.idToken !== false && claims) {
    // Servers that keep profile claims out of the ID token (OpenID Connect Core §5.4, as many
    // do by default) give them at the userinfo endpoint, for the same subject.
    const url = endpointUrl(userinfo) ?? server.userinfo_endpoint
    if (hasProfileClaims(claims) || !url || !tokens.access_token) return claims as Profile
    const response = await oauth.userInfoRequest(
      { ...server, userinfo_endpoint: url },
      client,
      tokens.access_token as string,
      httpOptions(provider, url),
    )
    const info = await oauth.processUserInfoResponse(server, client, claims.sub, response)
    return { ...claims, ...info } as Profile
  }
  const options = httpOptions(provider, server.userinfo_endpoint)
  if (
    typeof userinfo === "object" &&
    "request" in userinfo &&
    typeof userinfo.request === "function"
  ) {
    const base = provider[customFetch] ?? (fetch as ProviderFetch)
    const fetchWithTimeout: ProviderFetch = (input, init) =>
      base(input, { signal: options.signal(), ...init })
    return (await userinfo.request({ tokens, provider, fetch: fetchWithTimeout })) as Profile
  }
  const url = endpointUrl(userinfo) ?? server.userinfo_endpoint
  if (!url)
    throw new InvalidEndpoints(`"${provider.id}" gives no ID token and has no userinfo endpoint`)
  const accessToken = tokens.access_token as string
  if (provider.type === "oidc") {
    const response = await oauth.userInfoRequest(
      { ...server, userinfo_endpoint: url },
      client,
      accessToken,
      options,
    )
    return (await oauth.processUserInfoResponse(
      server,
      client,
      claims?.sub ?? oauth.skipSubjectCheck,
      response,
    )) as Profile
  }
  // Plain OAuth 2.0 has no standard profile: any JSON object the endpoint returns.
  const response = await oauth.protectedResourceRequest(
    accessToken,
    "GET",
    new URL(url),
    new Headers({ accept: "application/json" }),
    null,
    httpOptions(provider, url),
  )
  if (!response.ok)
    throw new CallbackRouteError(
      `The userinfo endpoint of "${provider.id}" answered ${response.status}`,
    )
  const profile: unknown = await response.json()
  if (typeof profile !== "object" || profile === null) {
    throw new CallbackRouteError(
      `The userinfo endpoint of "${provider.id}" did not answer a JSON object`,
    )
  }
  return profile as Profile
}

/**
 * A plain OAuth 2.0 provider's token response without its `id_token`, which is handed back
 * apart. Such a provider promises no OpenID Connect (no issuer to match, no keys to check a
 * signature with), so its ID token is not validated — it is not what the sign-in relies on: the
 * profile comes from the userinfo endpoint, authorized by the access token. The response is
 * otherwise left to oauth4webapi as it came (an error response untouched).
 */
export async function setIdTokenAside(
  response: Response,
): Promise<{ response: Response; idToken: string | undefined }> {
  if (!response.ok) return { response, idToken: undefined }
  let body: unknown
  try {
    body = await response.clone().json()
  } catch {
    return { response, idToken: undefined }
  }
  if (typeof body !== "object" || body === null || !("id_token" in body)) {
    return { response, idToken: undefined }
  }
  const { id_token: idToken, ...rest } = body as Record<string, unknown>
  const headers = new Headers(response.headers)
  headers.delete("content-length")
  headers.delete("content-encoding")
  return {
    response: new Response(JSON.stringify(rest), {
      status: response.status,
      statusText: response.statusText,
      headers,
    }),
    idToken: typeof idToken === "string" ? idToken : undefined,
  }
}

/** Finishes the sign-in, or forwards it (redirect proxy, `form_post`). */
export async function finishOAuth(
  ctx: ActionContext,
  provider: OAuthProviderConfig,
): Promise<OAuthOutcome> {
  const params = callbackParams(ctx)
  const checks = checksOf(provider)
  const stateCookie = ctx.cookies.get(ctx.cookieOptions.state.name)
  const pkceCookie = ctx.cookies.get(ctx.cookieOptions.pkceCodeVerifier.name)

  // The redirect proxy: a callback whose state was sealed by another deployment goes there.
  const forward = await proxyTarget(ctx, provider, params)
  if (forward) return { redirect: forward, status: 302 }
  // `response_mode=form_post` arrives as a cross-site POST, which carries no SameSite=Lax
  // cookies: answer with a same-URL GET, on which the browser sends them.
  if (ctx.request.method === "POST" && stateCookie === undefined && pkceCookie === undefined) {
    const target = new URL(ctx.request.url)
    target.search = params.toString()
    return { redirect: target.href, status: 303 }
  }

  clearChecks(ctx)
  try {
    // Even an error response is checked first: a forged "access_denied" must not end someone
    // else's sign-in. oauth4webapi reports the error itself once state and iss pass.
    const expectedState =
      checks.has("state") || proxyOf(ctx, provider) ? await state.use(ctx) : oauth.skipStateCheck
    const verifier = checks.has("pkce") ? await pkce.use(ctx) : oauth.nopkce
    const expectedNonce = checks.has("nonce") ? await nonce.use(ctx) : oauth.expectNoNonce

    const server = await authorizationServerOf(provider)
    const { client, auth } = clientOf(provider)
    checkIssuer(provider, server, params)
    const callback = oauth.validateAuthResponse(server, client, params, expectedState)
    const response = await oauth.authorizationCodeGrantRequest(
      server,
      client,
      auth,
      callback,
      redirectUriOf(ctx, provider),
      verifier,
      httpOptions(provider, server.token_endpoint),
    )
    const isOIDC = provider.type === "oidc"
    const { response: tokenResponse, idToken } = isOIDC
      ? { response, idToken: undefined }
      : await setIdTokenAside(response)
    const tokens = await oauth.processAuthorizationCodeResponse(server, client, tokenResponse, {
      expectedNonce,
      requireIdToken: isOIDC,
    })
    if (isOIDC && tokens.id_token) await checkIdTokenSignature(provider, server, response, tokens)
    const claims = isOIDC ? oauth.getValidatedIdTokenClaims(tokens) : undefined
    // Kept on the account as the server sent it, unvalidated: nothing here relies on it.
    if (idToken !== undefined) (tokens as Record<string, unknown>).id_token = idToken
    const profile = await profileOf(ctx, provider, server, client, tokens as TokenSet, claims)
    return { identity: await identityOf(provider, profile, tokens as TokenSet) }
  } catch (error) {
    throw classify(error, provider)
  }
}
