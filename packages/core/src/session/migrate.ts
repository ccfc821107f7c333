/**
 * `migrateSessions`: nobody is signed out by the move from Auth.js. A request that carries an
 * Auth.js session cookie and no Latch session gets a Latch session for the same user, and the
 * Auth.js cookie is deleted, so this happens once per browser. An Auth.js cookie that is not
 * valid (another secret, expired, an unknown database session) is deleted and ignored.
 *
 * JWT sessions: the Auth.js token is decrypted (same secret, Auth.js's key derivation) and its
 * claims become the Latch token, written with a fresh `iat`/`exp` as Auth.js would on its next
 * read. Database sessions: the cookie holds the token of a row in the adapter; Latch's cookie
 * takes that same token, so the row (its expiry, its place in `listSessions`) carries on.
 */
import type { ActionContext } from "../actions/context.js"
import { isCurrentToken, type JWT } from "../jwt.js"
import { decryptJWE } from "../lib/jwe.js"
import { AUTHJS_SESSION_COOKIES, authjsKeys } from "./authjs-cookies.js"
import { nowSeconds, writeSessionToken } from "./jwt-strategy.js"

type SessionContext = Pick<ActionContext, "config" | "cookies" | "cookieOptions">

/**
 * Where an Auth.js session may be: Auth.js's default names and, when the configuration names the
 * session cookie itself, that name (Auth.js used it too, so the cookie Latch reads first may
 * hold an Auth.js token).
 */
function candidateNames(ctx: SessionContext): string[] {
  const configured = ctx.config.source.cookies?.sessionToken?.name
  return configured && !AUTHJS_SESSION_COOKIES.includes(configured)
    ? [...AUTHJS_SESSION_COOKIES, configured]
    : AUTHJS_SESSION_COOKIES
}

/** The Auth.js session cookies the browser sent, whole (chunks joined), in the order to try. */
function sentCookies(ctx: SessionContext): { name: string; value: string }[] {
  const sent: { name: string; value: string }[] = []
  for (const name of candidateNames(ctx)) {
    const value = ctx.cookies.getChunked(name)
    if (value) sent.push({ name, value })
  }
  return sent
}

/** Whether a `Cookie` header may carry an Auth.js session cookie (a cheap look at the names). */
export function mayHaveAuthjsSession(header: string): boolean {
  return header.includes("authjs.session-token")
}

/**
 * Deletes the Auth.js session cookies (and their chunks) the browser sent — except the name Latch
 * uses itself, which the caller sets or deletes.
 */
export function dropAuthjsCookies(ctx: SessionContext): void {
  if (!ctx.config.migrateSessions) return
  const current = ctx.cookieOptions.sessionToken
  for (const name of AUTHJS_SESSION_COOKIES) {
    if (name === current.name || !ctx.cookies.hasChunked(name)) continue
    // A `__Secure-` cookie is only replaced by one that is `Secure` too.
    const secure = name.startsWith("__Secure-") || current.options.secure
    ctx.cookies.deleteChunked(name, { ...current.options, secure })
  }
}

async function decodeAuthjsToken(
  ctx: SessionContext,
  name: string,
  value: string,
): Promise<JWT | null> {
  const { config } = ctx
  if (!config.builtInJWT) {
    // The app's own `jwt.decode` is the one Auth.js used for its cookies too.
    try {
      const secret = config.secrets.length === 1 ? config.secrets[0]! : config.secrets
      return (await config.jwt.decode({ token: value, secret, salt: name })) ?? null
    } catch {
      return null
    }
  }
  const payload = await decryptJWE(value, await authjsKeys(config.secrets, name))
  return isCurrentToken(payload) ? payload : null
}

/**
 * JWT sessions: the claims of the request's valid Auth.js session, now also written as the Latch
 * session cookie (the token returned is the one written); `null` when there is none. The Auth.js
 * cookies are deleted either way.
 */
export async function migrateJWTSession(ctx: SessionContext): Promise<JWT | null> {
  if (!ctx.config.migrateSessions) return null
  const sent = sentCookies(ctx)
  if (sent.length === 0) return null
  dropAuthjsCookies(ctx)
  for (const { name, value } of sent) {
    const token = await decodeAuthjsToken(ctx, name, value)
    if (!token) continue
    const { iat: _iat, exp: _exp, jti: _jti, ...claims } = token
    const expires = await writeSessionToken(ctx, claims)
    return { ...claims, iat: nowSeconds(), exp: Math.floor(expires.getTime() / 1000) }
  }
  return null
}

/**
 * Database sessions: the session tokens of the request's Auth.js cookies, to look up in the
 * adapter. The Auth.js cookies are deleted: the caller sets Latch's cookie for the one it finds.
 */
export function takeAuthjsSessionTokens(ctx: SessionContext): string[] {
  if (!ctx.config.migrateSessions) return []
  const current = ctx.cookieOptions.sessionToken.name
  const tokens = sentCookies(ctx)
    .filter(({ name }) => name !== current)
    .map(({ value }) => value)
  dropAuthjsCookies(ctx)
  return tokens
}
