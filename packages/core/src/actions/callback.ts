/**
 * `GET|POST {basePath}/callback/<provider>` → the provider's flow finishes with an identity,
 * and `establishSession` does the rest. An email provider's link and code: `email-callback.ts`.
 */
import {
  isCredentialsProvider,
  isEmailProvider,
  isOAuthProvider,
  isWebAuthnProvider,
} from "../config/providers.js"
import { InvalidProvider, MethodNotAllowed } from "../errors.js"
import { finishCredentials } from "../flows/credentials.js"
import { redirectTo } from "../response/redirect.js"
import { verifyCSRF } from "../security/csrf.js"
import { forgetCallbackUrl, resolveCallbackUrl } from "../security/redirect.js"
import { establishSession } from "../session/establish.js"
import type { CredentialsConfig, OAuthProviderConfig } from "../providers/index.js"
import type { WebAuthnConfig } from "../providers/webauthn.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"
import { emailCallback } from "./email-callback.js"
import { providerOf } from "./provider.js"

export async function callback(ctx: ActionContext): Promise<ResponseInternal> {
  const provider = providerOf(ctx)
  if (isOAuthProvider(provider)) return oauthCallback(ctx, provider)
  if (isEmailProvider(provider)) return emailCallback(ctx, provider)
  if (!isCredentialsProvider(provider) && !isWebAuthnProvider(provider))
    throw new InvalidProvider(`Provider "${provider.id}" has no callback`)
  if (ctx.request.method !== "POST") {
    const error = new MethodNotAllowed(`${provider.name} sign-ins are posted to the callback`)
    error.allow = ["POST"]
    throw error
  }
  // A credentials form or a WebAuthn response is a state-changing POST like any other:
  // double-submit checked.
  await verifyCSRF(ctx)
  if (isWebAuthnProvider(provider)) return signInWithWebAuthn(ctx, provider)
  return signInWithCredentials(ctx, provider)
}

/** The WebAuthn sign-in or registration, once the request is known to be a checked POST. */
export async function signInWithWebAuthn(
  ctx: ActionContext,
  provider: WebAuthnConfig,
): Promise<ResponseInternal> {
  const callbackUrl = await resolveCallbackUrl(ctx)
  const { finishWebAuthn } = await import("../flows/webauthn/finish.js")
  const identity = await finishWebAuthn(ctx, provider)
  const { redirect } = await establishSession(ctx, identity, callbackUrl)
  return redirectTo(ctx, redirect)
}

/** The credentials sign-in, once the request is known to be a checked POST. */
export async function signInWithCredentials(
  ctx: ActionContext,
  provider: CredentialsConfig,
): Promise<ResponseInternal> {
  const callbackUrl = await resolveCallbackUrl(ctx)
  const identity = await finishCredentials(ctx, provider)
  const { redirect } = await establishSession(ctx, identity, callbackUrl)
  return redirectTo(ctx, redirect)
}

/**
 * The OAuth callback: no CSRF token (the provider's redirect carries none); the state, PKCE and
 * nonce checks tie it to the browser that started the sign-in instead.
 */
async function oauthCallback(
  ctx: ActionContext,
  provider: OAuthProviderConfig,
): Promise<ResponseInternal> {
  const { finishOAuth } = await import("../flows/oauth/index.js")
  const outcome = await finishOAuth(ctx, provider)
  if ("redirect" in outcome) return { status: outcome.status, redirect: outcome.redirect }
  const callbackUrl = await resolveCallbackUrl(ctx)
  forgetCallbackUrl(ctx)
  const { redirect } = await establishSession(ctx, outcome.identity, callbackUrl, {
    allowEmailLinking: provider.allowDangerousEmailAccountLinking === true,
  })
  return redirectTo(ctx, redirect)
}
