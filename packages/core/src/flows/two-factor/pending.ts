/**
 * A sign-in waiting for its second factor. The primary step (any provider) ends here instead of
 * in a session: what the session will need — the user's id, the account and profile the `jwt`
 * callback and the `signIn` event receive, whether the user is new, where to go — is sealed
 * into a short-lived cookie (encrypted and authenticated under the secret, chunked when an
 * OAuth account's tokens make it long). No session cookie exists until the code step completes,
 * so `getSession` and `locals.auth()` see nobody.
 *
 * The state is bound to this browser (the cookie), expires on its own (`pendingMaxAge`, five
 * minutes by default), and is spent on the server once used: it carries a random nonce, counted
 * once in the shared counters when the code step (or a required setup) completes, so a copy of
 * the cookie replayed within its minutes is refused as `expired` on every instance. The code
 * step's attempts are counted by account and client (verify.ts), not per state, so a new sign-in
 * does not reset them.
 */
import type { ActionContext } from "../../actions/context.js"
import { TwoFactorError } from "../../errors.js"
import { encodeBase64url } from "../../lib/base64url.js"
import { decryptJWE, encryptJWE } from "../../lib/jwe.js"
import { counterKey, counters } from "../../security/counter.js"
import type { Account, Profile } from "../../types.js"
import { hasSecondFactor } from "./store.js"

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

/** A pending sign-in as the browser holds it. */
export interface HeldSignIn extends PendingSignIn {
  /** 128 random bits, sealed with it: what `spendSignIn` spends. */
  nonce: string
  /** When it expires, in seconds since the epoch. */
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
  const held: HeldSignIn = {
    ...pending,
    nonce: encodeBase64url(crypto.getRandomValues(new Uint8Array(16))),
    exp: Math.floor(Date.now() / 1000) + maxAge,
  }
  const sealed = await encryptJWE(held, key!)
  ctx.cookies.setChunked(name, sealed, {
    ...options,
    maxAge,
    expires: new Date(Date.now() + maxAge * 1000),
  })
}

function isHeld(value: unknown): value is HeldSignIn {
  const v = value as Partial<HeldSignIn> | null
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.userId === "string" &&
    typeof v.account === "object" &&
    v.account !== null &&
    typeof v.isNewUser === "boolean" &&
    typeof v.callbackUrl === "string" &&
    (v.mode === "verify" || v.mode === "enrol") &&
    typeof v.nonce === "string" &&
    typeof v.exp === "number"
  )
}

/**
 * The browser's pending sign-in, if it has one that has not expired. A setup one (`enrol`) whose
 * user has a second factor by now was completed already (or raced by a copy): it is no one's.
 */
export async function pendingSignIn(ctx: ActionContext): Promise<HeldSignIn | null> {
  const { name } = ctx.cookieOptions.twoFactor
  const sealed = ctx.cookies.getChunked(name)
  if (!sealed || sealed.length > 16_384) return null
  const opened = await decryptJWE(sealed, await ctx.config.keys(name))
  if (!isHeld(opened) || !(opened.exp > Date.now() / 1000)) return null
  if (opened.mode === "enrol" && (await hasSecondFactor(ctx, opened.userId))) return null
  return opened
}

/**
 * Spends the pending sign-in as its code step (or required setup) completes, before its session
 * starts: its nonce is counted in the shared counters, and only the first count passes. A copy
 * of the cookie used again — from another browser, or this one's before the deletion reached it
 * — gets `TwoFactorError` `expired`. Drops the cookie either way.
 */
export async function spendSignIn(ctx: ActionContext, pending: HeldSignIn): Promise<void> {
  dropSignIn(ctx)
  const key = await counterKey(ctx.config, "two-factor:pending", pending.nonce)
  // Kept until the state has expired everywhere: its own expiry, and a minute for clocks.
  const expires = new Date((pending.exp + 60) * 1000)
  if ((await counters(ctx.config)(key, expires)) !== 1)
    throw new TwoFactorError("the pending sign-in was used already", { code: "expired" })
}

/** Ends the pending sign-in (used, abandoned, or expired). */
export function dropSignIn(ctx: ActionContext): void {
  const { name, options } = ctx.cookieOptions.twoFactor
  if (ctx.cookies.hasChunked(name)) ctx.cookies.deleteChunked(name, options)
}
