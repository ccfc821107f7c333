/**
 * Passkey-first sign-up (`Passkey({ signUp: true })`):
 *
 * ```
 * GET  {basePath}/passkey-signup/<provider>   the page, at the stage this browser is at
 * POST {basePath}/passkey-signup/<provider>   email=…  mails a code (flows/passkey-signup/start.ts)
 *                                             code=…   proves the address (confirm.ts)
 * ```
 *
 * Then the browser asks `webauthn-options/<provider>?action=register`, which registers a new
 * account for the proven address, and posts the passkey to `callback/<provider>`. Posts are
 * CSRF-checked (the route table); each answers a redirect back to the page (`{ url }` with
 * `X-Auth-Return-Redirect: 1`), a refusal with `?error=PasskeySignUpError&code=…`.
 */
import { isWebAuthnProvider } from "../config/providers.js"
import { InvalidRequest } from "../errors.js"
import { withQuery } from "../lib/url.js"
import type { WebAuthnConfig } from "../providers/webauthn.js"
import { htmlResponse } from "../response/html.js"
import { redirectTo } from "../response/redirect.js"
import { passkeySignUpUrl } from "../flows/passkey-signup/page-url.js"
import { ensureCSRFToken } from "../security/csrf.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import { signedInUserId } from "../session/signed-in.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"

/** The WebAuthn provider in the path, if it has sign-up on; else a 400. */
function signUpProvider(ctx: ActionContext): WebAuthnConfig {
  const id = ctx.request.providerId
  const provider = id === undefined ? undefined : ctx.config.providers.get(id)
  if (!provider || !isWebAuthnProvider(provider) || provider.signUp !== true)
    throw new InvalidRequest(
      `No passkey provider with sign-up on has the id ${JSON.stringify(id ?? "")}`,
    )
  return provider
}

/** `callbackUrl` for a query: left out when it is the site's root, the default. */
function callbackQuery(ctx: ActionContext, callbackUrl: string) {
  return new URL(callbackUrl).href === new URL(ctx.origin).href ? undefined : callbackUrl
}

export async function passkeySignUpPage(ctx: ActionContext): Promise<ResponseInternal> {
  const provider = signUpProvider(ctx)
  const { query } = ctx.request
  if (ctx.config.pages.passkeySignUp)
    return redirectTo(ctx, passkeySignUpUrl(ctx, provider.id, { ...query }))
  const callbackUrl = await resolveCallbackUrl(ctx)
  // Signed in already: there is no account to create.
  if (await signedInUserId(ctx)) return redirectTo(ctx, callbackUrl)
  const [{ readSignUp }, { renderPasskeySignUpPage }, csrfToken] = await Promise.all([
    import("../flows/passkey-signup/state.js"),
    import("../pages/passkey-signup.js"),
    ensureCSRFToken(ctx),
  ])
  const state = await readSignUp(ctx, provider.id)
  const live = state === "expired" ? undefined : state
  const id = encodeURIComponent(provider.id)
  return htmlResponse(
    renderPasskeySignUpPage({
      theme: ctx.config.theme,
      csrfToken,
      stage: !live ? "email" : live.stage === "code" ? "code" : "passkey",
      action: `${ctx.actionBase}/passkey-signup/${id}`,
      callbackAction: `${ctx.actionBase}/callback/${id}`,
      optionsUrl: `${ctx.actionBase}/webauthn-options/${id}`,
      callbackUrl,
      ...(live ? { email: live.email } : {}),
      signInUrl: withQuery(ctx.config.pages.signIn ?? `${ctx.actionBase}/signin`, {
        callbackUrl: callbackQuery(ctx, callbackUrl),
      }),
      code: query.error ? query.code : undefined,
    }),
  )
}

export async function passkeySignUpPost(ctx: ActionContext): Promise<ResponseInternal> {
  const provider = signUpProvider(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx)
  const { email, code } = ctx.request.body
  if (email !== undefined) {
    const { startSignUp } = await import("../flows/passkey-signup/start.js")
    const elsewhere = await startSignUp(ctx, provider)
    if (elsewhere !== undefined) return redirectTo(ctx, elsewhere)
  } else if (code !== undefined) {
    const { confirmSignUpCode } = await import("../flows/passkey-signup/confirm.js")
    await confirmSignUpCode(ctx, provider)
  } else {
    throw new InvalidRequest('Post "email" to start a passkey sign-up, or "code" to confirm it')
  }
  return redirectTo(
    ctx,
    passkeySignUpUrl(ctx, provider.id, { callbackUrl: callbackQuery(ctx, callbackUrl) }),
  )
}
