/**
 * Which sign-in link this browser asked for. Asking for a link (a POST with a CSRF token, so
 * only the browser itself can do it) leaves a sealed cookie naming the provider and the address,
 * living as long as the link. Opening a link then tells apart the browser that asked for it —
 * whose user may switch accounts with it, as Auth.js lets them — from a browser that was merely
 * sent to someone else's link (see `signed-in.ts`).
 */
import type { ActionContext } from "../../actions/context.js"
import { decryptJWE, encryptJWE } from "../../lib/jwe.js"
import type { EmailConfig } from "../../providers/email.js"

type BindingContext = Pick<ActionContext, "config" | "cookies" | "cookieOptions" | "secure">

/**
 * The cookie: named like Latch's others (`__Secure-` on https), with the attributes of the
 * callback-URL cookie, which also lives through an email sign-in — HttpOnly, SameSite=Lax, and
 * whatever `cookies.callbackUrl.options` set (a domain, a path).
 */
function cookieOf(ctx: BindingContext) {
  return {
    name: `${ctx.secure ? "__Secure-" : ""}latch.email-request`,
    options: ctx.cookieOptions.callbackUrl.options,
  }
}

/** What the cookie holds: the provider and the address, in one string. */
function bindingOf(provider: EmailConfig, address: string): string {
  return `${provider.id}\u0000${address}`
}

/** Remembers that this browser asked for a link to `address`, until `expires`. */
export async function bindLinkToBrowser(
  ctx: BindingContext,
  provider: EmailConfig,
  address: string,
  expires: Date,
): Promise<void> {
  const { name, options } = cookieOf(ctx)
  const [key] = await ctx.config.keys(name)
  const exp = Math.floor(expires.getTime() / 1000)
  const sealed = await encryptJWE({ value: bindingOf(provider, address), exp }, key!)
  const maxAge = Math.max(0, exp - Math.floor(Date.now() / 1000))
  ctx.cookies.set(name, sealed, { ...options, maxAge, expires })
}

/** Whether this browser asked for a link to `address` that may still be valid. */
export async function askedForLink(
  ctx: BindingContext,
  provider: EmailConfig,
  address: string,
): Promise<boolean> {
  const { name } = cookieOf(ctx)
  const sealed = ctx.cookies.get(name)
  if (!sealed) return false
  const payload = (await decryptJWE(sealed, await ctx.config.keys(name))) as {
    value?: unknown
    exp?: unknown
  } | null
  if (typeof payload?.value !== "string" || typeof payload.exp !== "number") return false
  return payload.exp > Date.now() / 1000 && payload.value === bindingOf(provider, address)
}

/** Forgets the request once its link has been used. */
export function forgetLinkRequest(ctx: BindingContext): void {
  const { name, options } = cookieOf(ctx)
  if (ctx.cookies.get(name) !== undefined) ctx.cookies.delete(name, options)
}
