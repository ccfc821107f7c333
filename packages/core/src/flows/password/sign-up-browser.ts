/**
 * The browser that asked for a password account. A sign-up link proves that whoever opens it
 * reads the address's mail, not that they chose the password sealed in it: a stranger can sign
 * up with someone else's address, and were the owner (or their mail scanner, with
 * `continuePage: false`) to follow the link, the account would be created with the stranger's
 * password under the owner's proven address — the stranger's way into the owner's account ever
 * after. So a link confirms with one click only in the browser that asked for it, which holds a
 * sealed cookie with the link's random `bind` value; in any other browser, the page asks for the
 * password chosen at sign-up, which the owner of the address knows only if they chose it.
 */
import type { ActionContext } from "../../actions/context.js"
import { randomBase64url, timingSafeEqual } from "../../lib/crypto.js"
import { decryptJWE, encryptJWE } from "../../lib/jwe.js"

/** A new binding value for a link, remembered in this browser for as long as the link works. */
export async function bindToBrowser(ctx: ActionContext, maxAge: number): Promise<string> {
  const bind = randomBase64url(16)
  const { name, options } = ctx.cookieOptions.signUp
  const [key] = await ctx.config.keys(name)
  const exp = Math.floor(Date.now() / 1000) + maxAge
  ctx.cookies.set(name, await encryptJWE({ bind, exp }, key!), {
    ...options,
    maxAge,
    expires: new Date(exp * 1000),
  })
  return bind
}

/** Whether this browser asked for the link whose `bind` value is given. */
export async function isAskingBrowser(
  ctx: ActionContext,
  bind: string | undefined,
): Promise<boolean> {
  if (!bind) return false
  const { name } = ctx.cookieOptions.signUp
  const value = ctx.cookies.get(name)
  if (!value || value.length > 1024) return false
  const opened = (await decryptJWE(value, await ctx.config.keys(name))) as {
    bind?: unknown
    exp?: unknown
  } | null
  if (!opened || typeof opened.bind !== "string" || typeof opened.exp !== "number") return false
  return opened.exp > Date.now() / 1000 && timingSafeEqual(opened.bind, bind)
}

/** Forgets the browser's sign-up (its link was used). */
export function forgetSignUp(ctx: ActionContext): void {
  const { name, options } = ctx.cookieOptions.signUp
  if (ctx.cookies.get(name) !== undefined) ctx.cookies.delete(name, options)
}
