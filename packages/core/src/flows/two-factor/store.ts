/**
 * A user's second factor in the adapter: the TOTP secret, encrypted under the configuration's
 * secret before it is stored (a leaked table yields no codes), and recovery codes, stored as
 * HMACs (they are random and long: a fast keyed hash is enough, and a leak yields none).
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterTwoFactor } from "../../adapters.js"
import { MissingAdapter } from "../../errors.js"
import { hmacSha256Hex } from "../../lib/crypto.js"
import { decryptJWE, encryptJWE } from "../../lib/jwe.js"
import { callAdapter, requireMethods } from "../../session/adapter-call.js"
import { secondFactorKeys } from "./keys.js"
import { encodeBase32 } from "./totp.js"

type Ctx = Pick<ActionContext, "config">

/** The key's salt: a sealed secret is no cookie, nor a cookie a sealed secret. */
const SECRET_SALT = "latch.two-factor-secret"
/** Recovery codes per set. */
export const RECOVERY_CODES = 10

const METHODS = [
  "getTwoFactor",
  "setTwoFactor",
  "deleteTwoFactor",
  "setRecoveryCodes",
  "useRecoveryCode",
] as const

/** The adapter with what two-factor authentication needs. */
export function twoFactorAdapter(ctx: Ctx) {
  const adapter = ctx.config.adapter
  if (!adapter)
    throw new MissingAdapter("Two-factor authentication keeps its secrets in an adapter.")
  return requireMethods(adapter, METHODS, "two-factor authentication")
}

/** The user's TOTP secret (base32), or `null` when they have no second factor. */
export async function storedSecret(ctx: Ctx, userId: string): Promise<string | null> {
  const adapter = twoFactorAdapter(ctx)
  const stored = await callAdapter("getTwoFactor", () => adapter.getTwoFactor(userId))
  return stored ? unsealSecret(ctx, userId, stored.secret) : null
}

/**
 * A sealed secret's value, if it was sealed for this user: the user's id is inside, so a row
 * copied onto another user, or a setup form posted for another account, opens nothing.
 */
export async function unsealSecret(
  ctx: Ctx,
  userId: string,
  sealed: unknown,
): Promise<string | null> {
  if (typeof sealed !== "string" || sealed.length > 2048) return null
  const opened = (await decryptJWE(sealed, await ctx.config.keys(SECRET_SALT))) as {
    secret?: unknown
    userId?: unknown
  } | null
  if (!opened || typeof opened.secret !== "string" || opened.userId !== userId) return null
  return opened.secret
}

/** Whether the user has an authenticator app (a TOTP secret stored). */
export async function hasTotp(ctx: Ctx, userId: string): Promise<boolean> {
  const adapter = twoFactorAdapter(ctx)
  return (await callAdapter("getTwoFactor", () => adapter.getTwoFactor(userId))) !== null
}

/**
 * Whether the user has a second factor: an authenticator app, or a key stored as a second factor
 * (`secondFactor: true`). Ordinary passkeys are ways in, not a second factor: they turn nothing on.
 */
export async function hasSecondFactor(ctx: Ctx, userId: string): Promise<boolean> {
  if (await hasTotp(ctx, userId)) return true
  return (await secondFactorKeys(ctx, userId)).length > 0
}

/** Seals a secret for a user: as stored, and as the setup cookie carries it. */
export async function sealSecret(ctx: Ctx, userId: string, secret: string): Promise<string> {
  const [key] = await ctx.config.keys(SECRET_SALT)
  return encryptJWE({ secret, userId }, key!)
}

/** Stores the user's secret (sealed). */
export async function storeSecret(ctx: Ctx, userId: string, secret: string): Promise<void> {
  const adapter = twoFactorAdapter(ctx)
  const record: AdapterTwoFactor = {
    userId,
    secret: await sealSecret(ctx, userId, secret),
    enabledAt: new Date(),
  }
  await callAdapter("setTwoFactor", () => adapter.setTwoFactor(record))
}

/** Removes the user's second factor and recovery codes. */
export async function removeSecondFactor(ctx: Ctx, userId: string): Promise<void> {
  const adapter = twoFactorAdapter(ctx)
  await callAdapter("deleteTwoFactor", () => adapter.deleteTwoFactor(userId))
}

/** The stored form of a recovery code under one secret. */
function recoveryHash(secret: string, userId: string, code: string): Promise<string> {
  return hmacSha256Hex(secret, `latch.recovery-code\u0000${userId}\u0000${code}`)
}

/** A recovery code as typed: lowercase, without spaces or hyphens. */
export function normalizeRecoveryCode(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 64) return null
  const code = value.toLowerCase().replace(/[\s-]/g, "")
  return /^[a-z2-7]{10}$/.test(code) ? code : null
}

/**
 * A new set of recovery codes for the user, stored hashed (replacing the old set); the codes
 * themselves are returned to be shown once, as `xxxxx-xxxxx` (50 random bits each).
 */
export async function newRecoveryCodes(ctx: Ctx, userId: string): Promise<string[]> {
  const adapter = twoFactorAdapter(ctx)
  const codes = Array.from({ length: RECOVERY_CODES }, () =>
    encodeBase32(crypto.getRandomValues(new Uint8Array(7)))
      .slice(0, 10)
      .toLowerCase(),
  )
  const secret = ctx.config.secrets[0]!
  const hashes = await Promise.all(codes.map((code) => recoveryHash(secret, userId, code)))
  await callAdapter("setRecoveryCodes", () => adapter.setRecoveryCodes(userId, hashes))
  return codes.map((code) => `${code.slice(0, 5)}-${code.slice(5)}`)
}

/** Uses one recovery code up; `true` when it was the user's and unused. */
export async function useRecoveryCode(ctx: Ctx, userId: string, code: string): Promise<boolean> {
  const adapter = twoFactorAdapter(ctx)
  // Under each secret, newest first: codes made before a rotation still work.
  for (const secret of ctx.config.secrets) {
    const hash = await recoveryHash(secret, userId, code)
    if (await callAdapter("useRecoveryCode", () => adapter.useRecoveryCode(userId, hash)))
      return true
  }
  return false
}
