/**
 * Nobody is signed out by a cookie name that changed. A request without a valid session under
 * the configured name, but with one under another name a session was kept under (Auth.js's
 * defaults, for an app that renamed its cookie; an earlier Latch release's `latch.session-token`:
 * `session-cookies.ts`), carries on with that session under the configured name, and the old
 * cookie is deleted, so this happens once per browser. An old cookie that is not valid (another
 * secret, expired, an unknown database session) is deleted and ignored.
 *
 * JWT sessions: the old token's claims become the token under the configured name, written with
 * a fresh `iat`/`exp`. Database sessions: the cookie holds the token of a row in the adapter; the
 * configured cookie takes that same token, so the row (its expiry, its place in `listSessions`)
 * carries on.
 */
import type { ActionContext } from "../actions/context.js"
import { isCurrentToken, type JWT } from "../jwt.js"
import { decryptJWE } from "../lib/jwe.js"
import { nowSeconds, writeSessionToken } from "./jwt-cookie.js"
import { fallbackSessionCookies, sessionKeys } from "./session-cookies.js"

type SessionContext = Pick<ActionContext, "config" | "cookies" | "cookieOptions">

function fallbackNames(ctx: SessionContext): string[] {
  const { name, options } = ctx.cookieOptions.sessionToken
  return fallbackSessionCookies(name, options.secure === true)
}

/**
 * Whether the request carries a cookie under a name a session may still be under: one pass over
 * the names, so that the read of a session under the configured name costs nothing more.
 */
function carriesFallback(ctx: SessionContext): boolean {
  const current = ctx.cookieOptions.sessionToken.name
  for (const name in ctx.cookies.all) {
    if (name.includes("session-token") && name !== current && !name.startsWith(`${current}.`))
      return true
  }
  return false
}

/** The old session cookies the browser sent, whole (chunks joined), in the order to try. */
function sentCookies(ctx: SessionContext): { name: string; value: string }[] {
  const sent: { name: string; value: string }[] = []
  if (!carriesFallback(ctx)) return sent
  for (const name of fallbackNames(ctx)) {
    const value = ctx.cookies.getChunked(name)
    if (value) sent.push({ name, value })
  }
  return sent
}

/** Deletes the old session cookies (and their chunks) the browser sent. */
export function dropFallbackCookies(ctx: SessionContext): void {
  if (!carriesFallback(ctx)) return
  const current = ctx.cookieOptions.sessionToken
  for (const name of fallbackNames(ctx)) {
    if (!ctx.cookies.hasChunked(name)) continue
    ctx.cookies.deleteChunked(name, current.options)
  }
}

async function decodeToken(ctx: SessionContext, name: string, value: string): Promise<JWT | null> {
  const { config } = ctx
  if (!config.builtInJWT) {
    // The app's own `jwt.decode` is the one that wrote its cookies under the old name too.
    try {
      const secret = config.secrets.length === 1 ? config.secrets[0]! : config.secrets
      return (await config.jwt.decode({ token: value, secret, salt: name })) ?? null
    } catch {
      return null
    }
  }
  const payload = await decryptJWE(value, await sessionKeys(config.secrets, name))
  return isCurrentToken(payload) ? payload : null
}

/**
 * JWT sessions: the claims of the request's valid session under an old name, now also written
 * under the configured name (the token returned is the one written); `null` when there is none.
 * The old cookies are deleted either way.
 */
export async function migrateJWTSession(ctx: SessionContext): Promise<JWT | null> {
  const sent = sentCookies(ctx)
  if (sent.length === 0) return null
  dropFallbackCookies(ctx)
  for (const { name, value } of sent) {
    const token = await decodeToken(ctx, name, value)
    if (!token) continue
    const { iat: _iat, exp: _exp, jti: _jti, ...claims } = token
    const expires = await writeSessionToken(ctx, claims)
    return { ...claims, iat: nowSeconds(), exp: Math.floor(expires.getTime() / 1000) }
  }
  return null
}

/**
 * Database sessions: the session tokens of the request's old cookies, to look up in the
 * adapter. The old cookies are deleted: the caller sets the configured cookie for the one it
 * finds.
 */
export function takeFallbackSessionTokens(ctx: SessionContext): string[] {
  const tokens = sentCookies(ctx).map(({ value }) => value)
  if (tokens.length) dropFallbackCookies(ctx)
  return tokens
}
