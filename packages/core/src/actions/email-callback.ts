/**
 * `{basePath}/callback/<email provider>`: where the mailed link, and the code typed on the "check
 * your email" page, lead.
 *
 * - `GET ?token=…&email=…&callbackUrl=…` (the link): the "Continue signing in" page, whose button
 *   posts the same values back. Nothing is spent, nothing even looked up: mail scanners (Outlook
 *   Safe Links and others) open every link in a mail, and their visit must leave the link
 *   working for the user's own click. With the provider's `continuePage: false`, the GET signs
 *   in at once, as in Auth.js.
 * - `HEAD`: 200, nothing spent (link checkers).
 * - `POST` with `token` and `email` (the page's button): CSRF-checked, then the token is redeemed
 *   (`flows/email/finish.ts`).
 * - `POST` with `code` (the "check your email" page's form): CSRF-checked, then the code is
 *   redeemed (`flows/email/finish-code.ts`).
 *
 * A browser signed in as another user that asked for this link itself is switched to the
 * link's user (see `flows/email/signed-in.ts`).
 */
import { htmlResponse } from "../response/html.js"
import { redirectTo } from "../response/redirect.js"
import { ensureCSRFToken, verifyCSRF } from "../security/csrf.js"
import { checked, resolveCallbackUrl } from "../security/redirect.js"
import { establishSession } from "../session/establish.js"
import type { EmailConfig } from "../providers/email.js"
import type { EmailLink, EmailSignIn } from "../flows/email/finish.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"

export async function emailCallback(
  ctx: ActionContext,
  provider: EmailConfig,
): Promise<ResponseInternal> {
  const { method, body, query } = ctx.request
  if (method === "HEAD") return { status: 200, body: "" }
  if (method === "GET") {
    if (provider.continuePage !== false) return continuePage(ctx, provider)
    return signInWithLink(ctx, provider, { token: query.token, email: query.email })
  }
  // A POST changes state like any form: double-submit checked (or vouched for by the integration).
  await verifyCSRF(ctx)
  if (body.code !== undefined) return signInWithCode(ctx, provider)
  return signInWithLink(ctx, provider, { token: body.token, email: body.email })
}

/** The page with the one button; the values it posts back are the link's own. */
async function continuePage(ctx: ActionContext, provider: EmailConfig): Promise<ResponseInternal> {
  const { token, email, callbackUrl } = ctx.request.query
  const [{ renderContinuePage }, { isPlainAddress }, csrfToken] = await Promise.all([
    import("../pages/continue.js"),
    import("../flows/email/address.js"),
    ensureCSRFToken(ctx),
  ])
  return htmlResponse(
    renderContinuePage({
      theme: ctx.config.theme,
      purpose: "signIn",
      csrfToken,
      action: `${ctx.actionBase}/callback/${encodeURIComponent(provider.id)}`,
      fields: { token, email, callbackUrl },
      siteHost: new URL(ctx.origin).host,
      // Shown only when it is one plain address; the post checks it anyway.
      email: email && isPlainAddress(email) ? email : undefined,
      homeUrl: ctx.origin,
    }),
  )
}

/** Redeems the link's token and signs in. */
async function signInWithLink(
  ctx: ActionContext,
  provider: EmailConfig,
  link: EmailLink,
): Promise<ResponseInternal> {
  const { finishEmailSignIn } = await import("../flows/email/finish.js")
  const redeemed = await finishEmailSignIn(ctx, provider, link)
  return signIn(ctx, redeemed, await resolveCallbackUrl(ctx))
}

/**
 * Redeems the typed code and signs in; the user goes where the link would have taken them (the
 * form may name another `callbackUrl`). Either way through the `redirect` callback again.
 */
async function signInWithCode(
  ctx: ActionContext,
  provider: EmailConfig,
): Promise<ResponseInternal> {
  const { finishCodeSignIn } = await import("../flows/email/finish-code.js")
  const redeemed = await finishCodeSignIn(ctx, provider)
  const callbackUrl =
    typeof ctx.request.body.callbackUrl === "string"
      ? await resolveCallbackUrl(ctx)
      : await checked(ctx, redeemed.callbackUrl)
  return signIn(ctx, redeemed, callbackUrl)
}

/** Starts the session, in place of another user's when the browser switches. */
async function signIn(
  ctx: ActionContext,
  { identity, switchesUser }: EmailSignIn,
  callbackUrl: string,
): Promise<ResponseInternal> {
  const { replaceSession } = await import("../flows/email/signed-in.js")
  const { redirect } = switchesUser
    ? await replaceSession(ctx, (signedOut) => establishSession(signedOut, identity, callbackUrl))
    : await establishSession(ctx, identity, callbackUrl)
  return redirectTo(ctx, redirect)
}
