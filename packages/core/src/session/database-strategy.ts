/**
 * Database sessions: the cookie holds only a random session token; the session lives in the
 * adapter, read with one `getSessionAndUser`. Its expiry slides forward once `updateAge` has
 * passed since it was last pushed; an expired session is deleted and reads as none.
 */
import type { ActionContext } from "../actions/context.js"
import type { AdapterSession, AdapterUser } from "../adapters.js"
import { callAdapter, requireMethods } from "./adapter-call.js"
import { dropAuthjsCookies, takeAuthjsSessionTokens } from "./migrate.js"

type SessionContext = Pick<ActionContext, "config" | "cookies" | "cookieOptions" | "logger">

const methods = ["createSession", "getSessionAndUser", "updateSession", "deleteSession"] as const

function adapterOf(ctx: SessionContext) {
  return requireMethods(ctx.config.adapter!, methods, 'session.strategy "database"')
}

/** The session token in the request's cookie, if any. */
export function sessionTokenOf(ctx: SessionContext): string | undefined {
  return ctx.cookies.get(ctx.cookieOptions.sessionToken.name) || undefined
}

function setCookie(ctx: SessionContext, sessionToken: string, expires: Date): void {
  const { name, options } = ctx.cookieOptions.sessionToken
  ctx.cookies.set(name, sessionToken, { ...options, expires })
}

function clearCookie(ctx: SessionContext): void {
  const { name, options } = ctx.cookieOptions.sessionToken
  ctx.cookies.deleteChunked(name, options)
}

/** Creates a session for the user and sets its cookie. */
export async function createDatabaseSession(
  ctx: SessionContext,
  userId: string,
): Promise<AdapterSession> {
  const adapter = adapterOf(ctx)
  const session: AdapterSession = {
    sessionToken: ctx.config.session.generateSessionToken(),
    userId,
    expires: new Date(Date.now() + ctx.config.session.maxAge * 1000),
  }
  const created = await callAdapter("createSession", () => adapter.createSession(session))
  setCookie(ctx, created.sessionToken, created.expires)
  return created
}

/**
 * The session and user of the request, or `null` (no cookie, unknown token, expired). An unknown
 * or expired session's cookie is deleted; a failing database throws `AdapterError` and leaves
 * the cookie alone (the session may be fine once the database is back).
 */
export async function readDatabaseSession(
  ctx: SessionContext,
): Promise<{ session: AdapterSession; user: AdapterUser } | null> {
  const sessionToken = sessionTokenOf(ctx)
  const found = sessionToken ? await readStoredSession(ctx, sessionToken, true) : null
  if (!ctx.config.migrateSessions) return found
  if (found) {
    dropAuthjsCookies(ctx)
    return found
  }
  // `migrateSessions`: the row of an Auth.js session cookie carries on under Latch's cookie.
  for (const token of takeAuthjsSessionTokens(ctx)) {
    const migrated = await readStoredSession(ctx, token, false)
    if (migrated) {
      setCookie(ctx, token, migrated.session.expires)
      return migrated
    }
  }
  return null
}

/**
 * The session of a token and its user, its expiry pushed when due; `null` when unknown or
 * expired (an expired row is deleted). With `ownCookie`, the token came from Latch's cookie,
 * which is then set or deleted to match.
 */
async function readStoredSession(
  ctx: SessionContext,
  sessionToken: string,
  ownCookie: boolean,
): Promise<{ session: AdapterSession; user: AdapterUser } | null> {
  const adapter = adapterOf(ctx)
  const found = await callAdapter("getSessionAndUser", () =>
    adapter.getSessionAndUser(sessionToken),
  )
  if (!found) {
    if (ownCookie) clearCookie(ctx)
    return null
  }
  const { session, user } = found
  const now = Date.now()
  if (session.expires.getTime() <= now) {
    await callAdapter("deleteSession", () => adapter.deleteSession(sessionToken))
    if (ownCookie) clearCookie(ctx)
    return null
  }
  const { maxAge, updateAge } = ctx.config.session
  // The expiry was last pushed at `expires - maxAge`; push it again once `updateAge` has passed.
  const lastPushed = session.expires.getTime() - maxAge * 1000
  if (now - lastPushed >= updateAge * 1000) {
    const expires = new Date(now + maxAge * 1000)
    await callAdapter("updateSession", () => adapter.updateSession({ sessionToken, expires }))
    if (ownCookie) setCookie(ctx, sessionToken, expires)
    return { session: { ...session, expires }, user }
  }
  return found
}

/** Deletes the request's session and its cookie; returns what was deleted. */
export async function deleteDatabaseSession(ctx: SessionContext): Promise<AdapterSession | null> {
  // With `migrateSessions`, signing out also ends a session still under its Auth.js cookie.
  const sessionToken = sessionTokenOf(ctx) ?? takeAuthjsSessionTokens(ctx)[0]
  clearCookie(ctx)
  dropAuthjsCookies(ctx)
  if (!sessionToken) return null
  const adapter = adapterOf(ctx)
  const deleted = await callAdapter("deleteSession", () => adapter.deleteSession(sessionToken))
  return deleted ?? null
}
