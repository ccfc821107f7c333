/**
 * JWT sessions: the session is the encrypted token in the session cookie (chunked when long).
 * Latch's own encryption runs on the fast path of `lib/jwe.ts`; a configuration's own
 * `jwt.encode`/`jwt.decode` replace it.
 */
import type { ActionContext } from "../actions/context.js"
import { isCurrentToken, type JWT } from "../jwt.js"
import { decryptJWE, encryptJWE } from "../lib/jwe.js"
import { dropFallbackCookies, migrateJWTSession } from "./migrate.js"

/** Marks a session of an unproven account (the constant of `account/unproven.ts`, kept here so
 * that reading a session loads nothing more unless the mark is there). */
export const UNPROVEN_CLAIM = "latchUnproven"

type SessionContext = Pick<ActionContext, "config" | "cookies" | "cookieOptions">

/** Seconds since the epoch. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

function secretParam(ctx: SessionContext): string | string[] {
  const { secrets } = ctx.config
  return secrets.length === 1 ? secrets[0]! : secrets
}

/**
 * The token in the request's session cookie, or `null` when absent, invalid or expired. A
 * request without a valid token gets the one of a session cookie under an old name (`migrate.ts`),
 * written under the configured name.
 */
export async function readSessionToken(
  ctx: SessionContext,
): Promise<{ present: boolean; token: JWT | null }> {
  const found = await unlessAdopted(ctx, await readToken(ctx))
  if (found.token) {
    dropFallbackCookies(ctx)
    return found
  }
  const migrated = await migrateJWTSession(ctx)
  return migrated ? { present: true, token: migrated } : found
}

/**
 * A session issued to an account whose address was unproven reads as none once the address has
 * been proven (its owner adopted the account clean: `account/unproven.ts`). Only marked tokens
 * cost a lookup.
 */
async function unlessAdopted(
  ctx: SessionContext,
  found: { present: boolean; token: JWT | null },
): Promise<{ present: boolean; token: JWT | null }> {
  if (typeof found.token?.[UNPROVEN_CLAIM] !== "string") return found
  const { isAdoptedSince } = await import("../account/unproven.js")
  return (await isAdoptedSince(ctx, found.token)) ? { present: true, token: null } : found
}

async function readToken(ctx: SessionContext): Promise<{ present: boolean; token: JWT | null }> {
  const salt = ctx.cookieOptions.sessionToken.name
  const value = ctx.cookies.getChunked(salt)
  if (!value) return { present: false, token: null }
  if (!ctx.config.builtInJWT) {
    const token = await ctx.config.jwt.decode({ token: value, secret: secretParam(ctx), salt })
    return { present: true, token: token ?? null }
  }
  const payload = await decryptJWE(value, await ctx.config.sessionKeys(salt))
  return { present: true, token: isCurrentToken(payload) ? payload : null }
}

/**
 * Encrypts `token` into the session cookie, with a fresh `iat`, `exp` and `jti`. Returns when the
 * session expires.
 */
export async function writeSessionToken(ctx: SessionContext, token: JWT): Promise<Date> {
  const { name, options } = ctx.cookieOptions.sessionToken
  const maxAge = ctx.config.jwt.maxAge
  const { iat: _iat, exp: _exp, jti: _jti, ...claims } = token
  let value: string
  if (ctx.config.builtInJWT) {
    const issuedAt = nowSeconds()
    const [key] = await ctx.config.sessionKeys(name)
    value = await encryptJWE(
      { ...claims, iat: issuedAt, exp: issuedAt + maxAge, jti: crypto.randomUUID() },
      key!,
    )
  } else {
    value = await ctx.config.jwt.encode({
      token: claims,
      secret: secretParam(ctx),
      salt: name,
      maxAge,
    })
  }
  const expires = new Date((nowSeconds() + maxAge) * 1000)
  ctx.cookies.setChunked(name, value, { ...options, expires })
  return expires
}

/** Deletes the session cookie and all of its chunks. */
export function clearSessionToken(ctx: SessionContext): void {
  const { name, options } = ctx.cookieOptions.sessionToken
  ctx.cookies.deleteChunked(name, options)
}
