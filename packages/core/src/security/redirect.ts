/**
 * Where to send the user after a flow. Candidate URLs come from the client (`callbackUrl` in
 * the body or query, or the callback-url cookie of a flow in progress) and always pass through
 * the `redirect` callback, whose default keeps them on the site's origin.
 */
import type { ActionContext } from "../actions/context.js"

/** `url` through the `redirect` callback, as an absolute URL; the site's origin if refused. */
export async function checked(ctx: ActionContext, url: string): Promise<string> {
  try {
    const result = await ctx.config.callbacks.redirect({ url, baseUrl: ctx.origin })
    // Whatever the callback returns must still be a URL; relative ones are on our origin.
    return new URL(result, ctx.origin).href
  } catch (error) {
    ctx.logger.debug("callback URL refused", { url, error })
    return ctx.origin
  }
}

/**
 * The callback URL of this request: the one it names, else the one remembered in the cookie,
 * else the site's origin. A malformed value of any source is ignored, never an error: a cookie
 * planted from a sibling subdomain must not break every auth endpoint for that browser.
 */
export async function resolveCallbackUrl(ctx: ActionContext): Promise<string> {
  const { body, query } = ctx.request
  const given = typeof body.callbackUrl === "string" ? body.callbackUrl : query.callbackUrl
  if (given) return checked(ctx, given)
  const remembered = ctx.cookies.get(ctx.cookieOptions.callbackUrl.name)
  if (remembered) return checked(ctx, remembered)
  return ctx.origin
}

/** Remembers the callback URL for a flow that leaves the site and comes back (OAuth). */
export function rememberCallbackUrl(ctx: ActionContext, url: string): void {
  const { name, options } = ctx.cookieOptions.callbackUrl
  ctx.cookies.set(name, url, options)
}

/**
 * Forgets the remembered callback URL once the flow is back: a later request that names none
 * (a sign-out) goes to the site's root, not to where an old sign-in went.
 */
export function forgetCallbackUrl(ctx: ActionContext): void {
  const { name, options } = ctx.cookieOptions.callbackUrl
  if (ctx.cookies.get(name) !== undefined) ctx.cookies.delete(name, options)
}
