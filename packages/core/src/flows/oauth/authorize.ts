/**
 * The start of an OAuth sign-in: the authorization request (RFC 6749 §4.1.1) with PKCE, state
 * and, for OpenID Connect, a nonce; the provider's `authorization.params` and the sign-in call's
 * `authorizationParams` (the query of `POST /signin/<provider>`) are merged in, except over the
 * parameters a provider locks because they narrow who may sign in.
 */
import type { ActionContext } from "../../actions/context.js"
import { AuthError, OAuthSignInError } from "../../errors.js"
import type { OAuthProviderConfig } from "../../providers/index.js"
import { rememberCallbackUrl, resolveCallbackUrl } from "../../security/redirect.js"
import { checksOf, nonce, pkce, state } from "./checks.js"
import { authorizationServerOf } from "./discovery.js"
import { endpointParams } from "./http.js"
import { proxyOf, proxyState, redirectUriOf } from "./redirect-uri.js"
import { keepLockedParams } from "./sign-in-rules.js"

/** Parameters Latch sets itself; a sign-in call cannot override them. */
const reserved = new Set([
  "client_id",
  "redirect_uri",
  "response_type",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
])

/** The authorization URL to send the user to. */
export async function startOAuth(
  ctx: ActionContext,
  provider: OAuthProviderConfig,
): Promise<string> {
  let server
  try {
    server = await authorizationServerOf(provider)
  } catch (error) {
    if (error instanceof AuthError) throw error
    throw new OAuthSignInError(`Could not reach the authorization server of "${provider.id}"`, {
      cause: error,
    })
  }
  if (!server.authorization_endpoint) {
    throw new OAuthSignInError(`"${provider.id}" has no authorization endpoint`)
  }
  const url = new URL(server.authorization_endpoint)
  const params = url.searchParams
  const configured: Record<string, string> = {
    ...(provider.type === "oidc" ? { scope: "openid profile email" } : {}),
    ...endpointParams(provider.authorization),
  }
  const merged: Record<string, string> = { ...configured, ...ctx.request.query }
  keepLockedParams(provider, configured, merged)
  for (const [key, value] of Object.entries(merged)) if (!reserved.has(key)) params.set(key, value)
  params.set("client_id", provider.clientId!)
  params.set("redirect_uri", redirectUriOf(ctx, provider))
  // A provider may name its own response type (Azure DevOps: "Assertion"); a sign-in call may not.
  params.set("response_type", configured.response_type ?? "code")

  const checks = checksOf(provider)
  // Through a redirect proxy the state must be checked: it is what carries the way back.
  if (checks.has("state") || proxyOf(ctx, provider)) {
    params.set(
      "state",
      await state.create(ctx, proxyOf(ctx, provider) ? await proxyState(ctx) : undefined),
    )
  }
  if (checks.has("pkce")) {
    params.set("code_challenge", await pkce.create(ctx))
    params.set("code_challenge_method", "S256")
  }
  if (checks.has("nonce")) params.set("nonce", await nonce.create(ctx))

  rememberCallbackUrl(ctx, await resolveCallbackUrl(ctx))
  ctx.logger.debug("authorization request", {
    provider: provider.id,
    url: url.origin + url.pathname,
  })
  return url.href
}
