/**
 * A redirect as a result. With `X-Auth-Return-Redirect: 1` (browser clients using `fetch`) it
 * is answered as `200 { url }` with an absolute URL, so the client decides where to go.
 */
import type { ActionContext } from "../actions/context.js"
import type { ResponseInternal } from "../types.js"

export function redirectTo(
  ctx: Pick<ActionContext, "origin" | "returnRedirect">,
  url: string,
): ResponseInternal {
  const absolute = new URL(url, ctx.origin).href
  if (ctx.returnRedirect) return { status: 200, body: { url: absolute } }
  return { status: 302, redirect: absolute }
}
