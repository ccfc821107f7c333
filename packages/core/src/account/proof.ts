/**
 * Fresh proof: when this browser's session last showed who is there — its sign-in, or the
 * re-authentication step — and whether the user's second factor was part of it. A change to the
 * account's ways in (`change.ts`) needs one no older than `accountChanges.freshAge`.
 *
 * It lives in its own cookie, sealed (encrypted and authenticated under the secret, like the
 * session) and short-lived, for three reasons: it works the same with both session strategies
 * and any adapter (no column to add); the `jwt` callback cannot drop it; and a session cookie
 * stolen alone — the usual theft, from a log, a backup, a proxy — carries no proof: changing the
 * account then asks for the password, a passkey, a code. The proof names its user, so it is
 * worth nothing with another account's session, and sign-out deletes it.
 */
import type { ActionContext } from "../actions/context.js"
import { decryptJWE, encryptJWE } from "../lib/jwe.js"

type Ctx = Pick<ActionContext, "config" | "cookies" | "cookieOptions">

/** What a proof says. */
export interface Proof {
  /** Whose: the user's id. */
  userId: string
  /** When, in seconds since the epoch. */
  at: number
  /** Whether the user's second factor was proven too (a code, or a passkey that verified them). */
  secondFactor: boolean
}

interface Sealed {
  sub: string
  at: number
  mfa: boolean
  exp: number
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

/** Records that the session's user just proved who they are. */
export async function recordProof(
  ctx: Ctx,
  userId: string,
  { secondFactor }: { secondFactor: boolean },
): Promise<void> {
  const { name, options } = ctx.cookieOptions.proof
  const maxAge = ctx.config.accountChanges.freshAge
  const at = nowSeconds()
  const sealed: Sealed = { sub: userId, at, mfa: secondFactor, exp: at + maxAge }
  const [key] = await ctx.config.keys(name)
  ctx.cookies.set(name, await encryptJWE(sealed, key!), {
    ...options,
    maxAge,
    expires: new Date((at + maxAge) * 1000),
  })
}

function isSealed(value: unknown): value is Sealed {
  const v = value as Partial<Sealed> | null
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.sub === "string" &&
    typeof v.at === "number" &&
    typeof v.mfa === "boolean" &&
    typeof v.exp === "number"
  )
}

/** The browser's proof for `userId`, if it has one that is still fresh. */
export async function freshProof(ctx: Ctx, userId: string): Promise<Proof | null> {
  const { name } = ctx.cookieOptions.proof
  const value = ctx.cookies.get(name)
  if (!value || value.length > 2048) return null
  const opened = await decryptJWE(value, await ctx.config.keys(name))
  if (!isSealed(opened) || opened.sub !== userId) return null
  const now = nowSeconds()
  // Fresh by the configuration of now, not of when it was written (a window shortened since).
  if (!(opened.exp > now) || now - opened.at >= ctx.config.accountChanges.freshAge) return null
  return { userId: opened.sub, at: opened.at, secondFactor: opened.mfa }
}

/** Forgets the proof (sign-out). */
export function clearProof(ctx: Ctx): void {
  const { name, options } = ctx.cookieOptions.proof
  if (ctx.cookies.get(name) !== undefined) ctx.cookies.delete(name, options)
}
