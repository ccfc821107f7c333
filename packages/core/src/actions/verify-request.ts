/** `GET {basePath}/verify-request` → "check your email" (or a redirect to `pages.verifyRequest`). */
import { withQuery } from "../lib/url.js"
import { htmlResponse } from "../response/html.js"
import { redirectTo } from "../response/redirect.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"

export async function verifyRequestPage(ctx: ActionContext): Promise<ResponseInternal> {
  const { verifyRequest } = ctx.config.pages
  const { provider, type, host } = ctx.request.query
  if (verifyRequest) return redirectTo(ctx, withQuery(verifyRequest, { provider, type, host }))
  const [{ renderVerifyRequestPage }, { isPlainAddress }] = await Promise.all([
    import("../pages/index.js"),
    import("../flows/email/address.js"),
  ])
  // The mail's host, only if it is a domain name: the page shows it, escaped.
  const emailHost = host && isPlainAddress(`x@${host}`) ? host : undefined
  return htmlResponse(
    renderVerifyRequestPage({
      theme: ctx.config.theme,
      homeUrl: ctx.origin,
      emailHost,
      type: type === "signup" || type === "reset" ? type : undefined,
    }),
  )
}
