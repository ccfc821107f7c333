/**
 * Which sign-in link this browser asked for. Asking for a link (a POST with a CSRF token, so
 * only the browser itself can do it) leaves a sealed cookie naming the provider and the address,
 * living as long as the link. Opening a link then tells apart the browser that asked for it —
 * whose user may switch accounts with it, as Auth.js lets them — from a browser that was merely
 * sent to someone else's link (see `signed-in.ts`). With the provider's `code` on, the cookie
 * also holds what a code typed in this browser is checked against (see `finish-code.ts`): a
 * random nonce the code's hash is made with, the code's expiry and where the user was headed.
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

/** What a code typed in the browser that asked is checked against. */
export interface CodeRequest {
  /** Random: the code's stored hash is made with it, so only this browser can redeem it. */
  nonce: string
  /** When the code stops working. */
  expires: Date
  /** Where the user goes once signed in with the code (the link carries its own). */
  callbackUrl: string
}

/** The request this browser made: the address, and what its code needs. */
export interface LinkRequest {
  address: string
  code?: CodeRequest
}

interface Payload {
  value: string
  exp: number
  nonce?: string
  codeExp?: number
  callbackUrl?: string
}

/**
 * Remembers that this browser asked for a link to `address`, until `expires`; with `code`, what
 * a code typed here is checked against.
 */
export async function bindLinkToBrowser(
  ctx: BindingContext,
  provider: EmailConfig,
  address: string,
  expires: Date,
  code?: CodeRequest,
): Promise<void> {
  const { name, options } = cookieOf(ctx)
  const [key] = await ctx.config.keys(name)
  const exp = Math.floor(expires.getTime() / 1000)
  const payload: Payload = { value: bindingOf(provider, address), exp }
  if (code) {
    payload.nonce = code.nonce
    payload.codeExp = Math.floor(code.expires.getTime() / 1000)
    payload.callbackUrl = code.callbackUrl
  }
  const sealed = await encryptJWE(payload, key!)
  const maxAge = Math.max(0, exp - Math.floor(Date.now() / 1000))
  ctx.cookies.set(name, sealed, { ...options, maxAge, expires })
}

/** The cookie's payload, if it opens, is well formed and has not expired. */
async function payloadOf(ctx: BindingContext): Promise<Payload | null> {
  const { name } = cookieOf(ctx)
  const sealed = ctx.cookies.get(name)
  if (!sealed) return null
  const payload = (await decryptJWE(sealed, await ctx.config.keys(name))) as Partial<Payload> | null
  if (typeof payload?.value !== "string" || typeof payload.exp !== "number") return null
  if (!(payload.exp > Date.now() / 1000)) return null
  return payload as Payload
}

/** Whether this browser asked for a link to `address` that may still be valid. */
export async function askedForLink(
  ctx: BindingContext,
  provider: EmailConfig,
  address: string,
): Promise<boolean> {
  const payload = await payloadOf(ctx)
  return payload !== null && payload.value === bindingOf(provider, address)
}

/** The request this browser made with `provider` that may still be valid, if any. */
export async function linkRequestOf(
  ctx: BindingContext,
  provider: EmailConfig,
): Promise<LinkRequest | null> {
  const payload = await payloadOf(ctx)
  const prefix = `${provider.id}\u0000`
  if (!payload?.value.startsWith(prefix)) return null
  const address = payload.value.slice(prefix.length)
  const { nonce, codeExp, callbackUrl } = payload
  if (typeof nonce !== "string" || typeof codeExp !== "number" || typeof callbackUrl !== "string")
    return { address }
  return { address, code: { nonce, expires: new Date(codeExp * 1000), callbackUrl } }
}

/** Forgets the request once its link has been used. */
export function forgetLinkRequest(ctx: BindingContext): void {
  const { name, options } = cookieOf(ctx)
  if (ctx.cookies.get(name) !== undefined) ctx.cookies.delete(name, options)
}
