/**
 * `GET {basePath}/signout` → the confirmation page (or a redirect to `pages.signOut`).
 * `POST {basePath}/signout` → the session ends; redirect to the callback URL.
 */
import { withQuery } from "../lib/url.js"
import { htmlResponse } from "../response/html.js"
import { redirectTo } from "../response/redirect.js"
import { ensureCSRFToken } from "../security/csrf.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import { clearSession } from "../session/clear.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"

export async function signOutPage(ctx: ActionContext): Promise<ResponseInternal> {
  const { signOut } = ctx.config.pages
  if (signOut)
    return redirectTo(ctx, withQuery(signOut, { callbackUrl: ctx.request.query.callbackUrl }))
  const [{ renderSignOutPage }, csrfToken, callbackUrl] = await Promise.all([
    import("../pages/index.js"),
    ensureCSRFToken(ctx),
    resolveCallbackUrl(ctx),
  ])
  return htmlResponse(
    renderSignOutPage({
      theme: ctx.config.theme,
      csrfToken,
      action: `${ctx.actionBase}/signout`,
      callbackUrl,
    }),
  )
}

export async function signOut(ctx: ActionContext): Promise<ResponseInternal> {
  const callbackUrl = await resolveCallbackUrl(ctx)
  await clearSession(ctx)
  return redirectTo(ctx, callbackUrl)
}
