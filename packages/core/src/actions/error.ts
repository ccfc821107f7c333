/** `GET {basePath}/error?error=…` → the error page (or a redirect to `pages.error`). */
import { withQuery } from "../lib/url.js"
import { htmlResponse } from "../response/html.js"
import { redirectTo } from "../response/redirect.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"

export async function errorPage(ctx: ActionContext): Promise<ResponseInternal> {
  const { error } = ctx.request.query
  if (ctx.config.pages.error) return redirectTo(ctx, withQuery(ctx.config.pages.error, { error }))
  const { renderErrorPage } = await import("../pages/index.js")
  return htmlResponse(
    renderErrorPage({
      theme: ctx.config.theme,
      error,
      signinUrl: new URL(ctx.config.pages.signIn ?? `${ctx.actionBase}/signin`, ctx.origin).href,
      homeUrl: ctx.origin,
    }),
  )
}
