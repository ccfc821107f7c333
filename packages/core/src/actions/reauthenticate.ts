/**
 * The re-authentication step (`account/reauthenticate.ts`), for a change to the account's ways
 * in that found the session's proof stale:
 *
 * ```
 * GET  {basePath}/reauthenticate?callbackUrl=…  "Confirm it is you" (or pages.reauthenticate)
 * POST {basePath}/reauthenticate                method=password&password=…
 *                                               method=code&code=… (or recoveryCode=…)
 *                                               method=passkey&action=authenticate&data=…
 *                                               method=email&send=1, then method=email&emailCode=…
 * ```
 *
 * A confirmed post records a fresh proof and redirects to `callbackUrl`; a refused one goes back
 * to the page with `?error=ReauthenticationRequired&code=…`; `send=1` back to it with `sent=1`.
 * Posts are CSRF-checked (the route table). A browser without a session is sent to sign in.
 */
import { ReauthenticationRequired } from "../errors.js"
import { withQuery } from "../lib/url.js"
import { htmlResponse } from "../response/html.js"
import { redirectTo } from "../response/redirect.js"
import { ensureCSRFToken } from "../security/csrf.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import { signedInUser } from "../session/signed-in.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"

/** The step's own URL, with where the user goes afterwards. */
function stepUrl(ctx: ActionContext, query: Record<string, string | undefined>): string {
  return withQuery(ctx.config.pages.reauthenticate ?? `${ctx.actionBase}/reauthenticate`, query)
}

function signInUrl(ctx: ActionContext, callbackUrl: string): string {
  return withQuery(ctx.config.pages.signIn ?? `${ctx.actionBase}/signin`, { callbackUrl })
}

export async function reauthenticatePage(ctx: ActionContext): Promise<ResponseInternal> {
  const { query } = ctx.request
  if (ctx.config.pages.reauthenticate)
    return redirectTo(ctx, withQuery(ctx.config.pages.reauthenticate, { ...query }))
  const callbackUrl = await resolveCallbackUrl(ctx)
  const user = await signedInUser(ctx)
  if (!user) return redirectTo(ctx, signInUrl(ctx, callbackUrl))
  const [{ reauthenticationOptions }, { renderReauthenticatePage }, csrfToken] = await Promise.all([
    import("../account/reauthenticate.js"),
    import("../pages/reauthenticate.js"),
    ensureCSRFToken(ctx),
  ])
  const options = await reauthenticationOptions(ctx, user)
  return htmlResponse(
    renderReauthenticatePage({
      theme: ctx.config.theme,
      csrfToken,
      action: `${ctx.actionBase}/reauthenticate`,
      callbackUrl,
      methods: options.methods,
      secondFactor: options.secondFactor,
      ...(options.passkeyProvider
        ? {
            passkeyOptionsUrl: `${ctx.actionBase}/webauthn-options/${encodeURIComponent(options.passkeyProvider)}`,
          }
        : {}),
      ...(options.methods.includes("securityKey")
        ? { securityKeyOptionsUrl: `${ctx.actionBase}/two-factor/security-key` }
        : {}),
      ...(options.email ? { email: options.email } : {}),
      codeSent: query.sent === "1",
      signInUrl: signInUrl(ctx, callbackUrl),
      code: query.error ? query.code : undefined,
    }),
  )
}

export async function reauthenticatePost(ctx: ActionContext): Promise<ResponseInternal> {
  const callbackUrl = await resolveCallbackUrl(ctx)
  const user = await signedInUser(ctx)
  if (!user) throw new ReauthenticationRequired("no session", { code: "signed_out" })
  const { reauthenticate } = await import("../account/reauthenticate.js")
  const outcome = await reauthenticate(ctx, user)
  if (outcome === "sent") return redirectTo(ctx, stepUrl(ctx, { callbackUrl, sent: "1" }))
  return redirectTo(ctx, callbackUrl)
}
