/**
 * JWT sessions: the session is the encrypted token in the session cookie (chunked when long).
 * Latch's own encryption runs on the fast path of `lib/jwe.ts`; a configuration's own
 * `jwt.encode`/`jwt.decode` replace it. Writing the cookie is `jwt-cookie.ts`'s (a session
 * under an old cookie name, `migrate.ts`, is written there too).
 */
import { isCurrentToken, type JWT } from "../jwt.js"
import { decryptJWE } from "../lib/jwe.js"
import { secretParam, type SessionContext } from "./jwt-cookie.js"
import { dropFallbackCookies, migrateJWTSession } from "./migrate.js"
import { UNPROVEN_CLAIM } from "./unproven-claim.js"

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
