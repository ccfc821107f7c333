/**
 * A sign-in waiting for its second factor. The primary step (any provider) ends here instead of
 * in a session: what the session will need — the user's id, the account and profile the `jwt`
 * callback and the `signIn` event receive, whether the user is new, where to go — is sealed
 * into a short-lived cookie (encrypted and authenticated under the secret, chunked when an
 * OAuth account's tokens make it long). No session cookie exists until the code step completes,
 * so `getSession` and `locals.auth()` see nobody.
 *
 * The state is bound to this browser (the cookie), expires on its own (`pendingMaxAge`, five
 * minutes by default), and goes once used; the code step's attempts are counted per account
 * (verify.ts), so a new sign-in does not reset them.
 */
import type { ActionContext } from "../../actions/context.js"
import { decryptJWE, encryptJWE } from "../../lib/jwe.js"
import type { Account, Profile } from "../../types.js"

/** What a pending sign-in carries. */
export interface PendingSignIn {
  userId: string
  account: Account
  profile?: Profile
  isNewUser: boolean
  callbackUrl: string
  /** `verify`: the user has a second factor; `enrol`: one is required and must be set up. */
  mode: "verify" | "enrol"
}

interface Sealed extends PendingSignIn {
  exp: number
}

/** The default time a sign-in may wait for its code: 5 minutes. */
export const DEFAULT_PENDING_MAX_AGE = 300

function maxAgeOf(ctx: Pick<ActionContext, "config">): number {
  return ctx.config.twoFactor?.pendingMaxAge ?? DEFAULT_PENDING_MAX_AGE
}

/** Holds the sign-in in the browser until its second factor. */
export async function holdSignIn(ctx: ActionContext, pending: PendingSignIn): Promise<void> {
  const { name, options } = ctx.cookieOptions.twoFactor
  const maxAge = maxAgeOf(ctx)
  const [key] = await ctx.config.keys(name)
  const sealed = await encryptJWE({ ...pending, exp: Math.floor(Date.now() / 1000) + maxAge }, key!)
  ctx.cookies.setChunked(name, sealed, {
    ...options,
    maxAge,
    expires: new Date(Date.now() + maxAge * 1000),
  })
}

function isSealed(value: unknown): value is Sealed {
  const v = value as Partial<Sealed> | null
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.userId === "string" &&
    typeof v.account === "object" &&
    v.account !== null &&
    typeof v.isNewUser === "boolean" &&
    typeof v.callbackUrl === "string" &&
    (v.mode === "verify" || v.mode === "enrol") &&
    typeof v.exp === "number"
  )
}

/** The browser's pending sign-in, if it has one that has not expired. */
export async function pendingSignIn(ctx: ActionContext): Promise<PendingSignIn | null> {
  const { name } = ctx.cookieOptions.twoFactor
  const sealed = ctx.cookies.getChunked(name)
  if (!sealed || sealed.length > 16_384) return null
  const opened = await decryptJWE(sealed, await ctx.config.keys(name))
  if (!isSealed(opened) || !(opened.exp > Date.now() / 1000)) return null
  const { exp: _exp, ...pending } = opened
  return pending
}

/** Ends the pending sign-in (used, abandoned, or expired). */
export function dropSignIn(ctx: ActionContext): void {
  const { name, options } = ctx.cookieOptions.twoFactor
  if (ctx.cookies.hasChunked(name)) ctx.cookies.deleteChunked(name, options)
}
