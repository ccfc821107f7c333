/**
 * Database sessions: the cookie holds only a random session token; the session lives in the
 * adapter under the token's hash (stored-token.ts), read with one `getSessionAndUser` — or none
 * with `session.cache`, when this instance read it recently (cache.ts). Its expiry slides
 * forward once `updateAge` has passed since it was last pushed; an expired session is deleted
 * and reads as none.
 */
import type { ActionContext } from "../actions/context.js"
import type { Adapter, AdapterSession, AdapterUser } from "../adapters.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { callAdapter, requireMethods } from "./adapter-call.js"
import { sessionCacheOf } from "./cache.js"
import { describeUserAgent } from "./device.js"
import { dropFallbackCookies, takeFallbackSessionTokens } from "./migrate.js"
import { holdsToken, mayBeStoredUnhashed, storedToken } from "./stored-token.js"

type SessionContext = Pick<ActionContext, "config" | "cookies" | "cookieOptions" | "logger">

const methods = ["createSession", "getSessionAndUser", "updateSession", "deleteSession"] as const

function adapterOf(ctx: SessionContext) {
  return requireMethods(ctx.config.adapter!, methods, 'session.strategy "database"')
}

/**
 * Whether a cookie's token could be one that was issued: no control character (a `%00` in the
 * cookie decodes to NUL, which PostgreSQL refuses in text, so the lookup would fail as if the
 * database were down) and no more than 4 KB, the most a browser keeps in one cookie.
 */
function plausibleToken(token: string): boolean {
  // eslint-disable-next-line no-control-regex
  return token.length <= 4096 && !/[\u0000-\u001f\u007f]/.test(token)
}

/** The session token in the request's cookie, if any (one that could have been issued). */
export function sessionTokenOf(ctx: SessionContext): string | undefined {
  const token = ctx.cookies.get(ctx.cookieOptions.sessionToken.name)
  return token && plausibleToken(token) ? token : undefined
}

function setCookie(ctx: SessionContext, sessionToken: string, expires: Date): void {
  const { name, options } = ctx.cookieOptions.sessionToken
  ctx.cookies.set(name, sessionToken, { ...options, expires })
}

function clearCookie(ctx: SessionContext): void {
  const { name, options } = ctx.cookieOptions.sessionToken
  ctx.cookies.deleteChunked(name, options)
}

/**
 * Whether the adapter stores Latch's session fields (id, device, times): those that implement
 * `deleteSessionById` do. An adapter written for Auth.js is never given a field it lacks.
 */
export function storesSessionFields(adapter: Adapter): boolean {
  return typeof adapter.deleteSessionById === "function"
}

type Found = { session: AdapterSession; user: AdapterUser }

/**
 * Creates a session for the user and sets its cookie. `device`: the request's user agent header
 * and client address, recorded (summarized) by adapters that store them.
 */
export async function createDatabaseSession(
  ctx: SessionContext,
  userId: string,
  device: { userAgent?: string | null; clientAddress?: string } = {},
): Promise<AdapterSession> {
  const adapter = adapterOf(ctx)
  const token = ctx.config.session.generateSessionToken()
  const session: AdapterSession = {
    sessionToken: await storedToken(ctx.config, token),
    userId,
    expires: new Date(Date.now() + ctx.config.session.maxAge * 1000),
  }
  if (storesSessionFields(adapter)) {
    const now = new Date()
    session.id = crypto.randomUUID()
    session.userAgent = describeUserAgent(device.userAgent)
    session.clientAddress = device.clientAddress ?? null
    session.createdAt = now
    session.lastSeenAt = now
  }
  const created = await callAdapter("createSession", () => adapter.createSession(session))
  setCookie(ctx, token, created.expires)
  return created
}

/**
 * The session and user of the request, or `null` (no cookie, unknown token, expired). An unknown
 * or expired session's cookie is deleted; a failing database throws `AdapterError` and leaves
 * the cookie alone (the session may be fine once the database is back). `touch: false` leaves
 * the expiry where it is (a read whose cookies go nowhere must not push it).
 */
export async function readDatabaseSession(
  ctx: SessionContext,
  { touch = true }: { touch?: boolean } = {},
): Promise<Found | null> {
  const sessionToken = sessionTokenOf(ctx)
  // A cookie no session could have: dropped, as one whose session is unknown.
  if (!sessionToken && ctx.cookies.get(ctx.cookieOptions.sessionToken.name)) clearCookie(ctx)
  const found = sessionToken ? await readStoredSession(ctx, sessionToken, true, touch) : null
  if (found) {
    dropFallbackCookies(ctx)
    return found
  }
  // The row of a session cookie under an old name carries on under the configured name.
  for (const token of takeFallbackSessionTokens(ctx)) {
    const migrated = await readStoredSession(ctx, token, false, touch)
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
  token: string,
  ownCookie: boolean,
  touch: boolean,
): Promise<Found | null> {
  const adapter = adapterOf(ctx)
  if (!plausibleToken(token)) return null
  const key = await storedToken(ctx.config, token)
  const cache = sessionCacheOf(ctx.config)
  const now = Date.now()
  const cached = cache?.get(key, now)
  let found = cached?.hit ?? null
  if (!found) {
    found = await callAdapter("getSessionAndUser", () => adapter.getSessionAndUser(key))
    if (!found && mayBeStoredUnhashed(ctx.config, token)) {
      found = await moveUnderHash(adapter, token, key)
    }
    if (found && cache && found.session.expires.getTime() > now) {
      cache.keep(key, found, cached!.generation, now)
    }
  }
  if (!found) {
    if (ownCookie) clearCookie(ctx)
    return null
  }
  const { session, user } = found
  if (session.expires.getTime() <= now) {
    cache?.changed({ sessionToken: key })
    await callAdapter("deleteSession", () => adapter.deleteSession(key))
    if (ownCookie) clearCookie(ctx)
    return null
  }
  const { maxAge, updateAge } = ctx.config.session
  // The expiry was last pushed at `expires - maxAge`; push it again once `updateAge` has passed.
  const lastPushed = session.expires.getTime() - maxAge * 1000
  if (touch && now - lastPushed >= updateAge * 1000) {
    const expires = new Date(now + maxAge * 1000)
    const update: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken"> = {
      sessionToken: key,
      expires,
    }
    if (storesSessionFields(adapter)) update.lastSeenAt = new Date(now)
    // Evicted here at once; the adapter's notification of the write evicts it everywhere else.
    cache?.changed({ sessionToken: key })
    await callAdapter("updateSession", () => adapter.updateSession(update))
    if (ownCookie) setCookie(ctx, token, expires)
    return { session: { ...session, ...update }, user }
  }
  return found
}

/**
 * A row written before hashing (or by Auth.js), found by the token itself and moved under its
 * hash: created anew (with a new id), then the old one deleted. Of two requests moving one row
 * at once, the second finds the first one's row. A row that does not hold exactly the token sent
 * (found by a loose collation: a stored hash, upper-cased) is neither read nor moved.
 */
async function moveUnderHash(adapter: SessionAdapter, token: string, key: string) {
  const legacy = await callAdapter("getSessionAndUser", () => adapter.getSessionAndUser(token))
  if (!legacy || !holdsToken(legacy.session.sessionToken, token)) return null
  const { id: _id, sessionToken: _token, ...kept } = legacy.session
  const moved: AdapterSession = { ...kept, sessionToken: key }
  if (storesSessionFields(adapter)) moved.id = crypto.randomUUID()
  let session: AdapterSession
  try {
    session = await callAdapter("createSession", () => adapter.createSession(moved))
  } catch (error) {
    const again = await callAdapter("getSessionAndUser", () => adapter.getSessionAndUser(key))
    if (!again) throw error
    return again
  }
  await callAdapter("deleteSession", () => adapter.deleteSession(token))
  return { session, user: legacy.user }
}

type SessionAdapter = ReturnType<typeof adapterOf>

/**
 * Sessions as `listSessionsByUserId` gave them, with each row still stored under its token
 * itself (written before hashing, or by Auth.js) first moved under its hash: the ids a user is
 * shown then stay the ids of their sessions, where that row's first read would otherwise have
 * moved it under a new one after they were shown. A row moved by a request at the same time is
 * found as that request left it.
 */
export async function withStoredTokensHashed(
  config: ResolvedConfig,
  sessions: AdapterSession[],
): Promise<AdapterSession[]> {
  if (!sessions.some((s) => mayBeStoredUnhashed(config, s.sessionToken))) return sessions
  const adapter = requireMethods(config.adapter!, methods, 'session.strategy "database"')
  const moved: AdapterSession[] = []
  for (const session of sessions) {
    if (!mayBeStoredUnhashed(config, session.sessionToken)) {
      moved.push(session)
      continue
    }
    const key = await storedToken(config, session.sessionToken)
    const found = await moveUnderHash(adapter, session.sessionToken, key)
    if (found) moved.push(found.session)
  }
  return moved
}

/** Deletes the request's session and its cookie; returns what was deleted. */
export async function deleteDatabaseSession(ctx: SessionContext): Promise<AdapterSession | null> {
  // Signing out also ends a session still under an old cookie name.
  const sessionToken = sessionTokenOf(ctx) ?? takeFallbackSessionTokens(ctx)[0]
  clearCookie(ctx)
  dropFallbackCookies(ctx)
  if (!sessionToken) return null
  return deleteSessionOfToken(ctx, sessionToken)
}

/**
 * Deletes the session of a cookie's token (under its hash, or under the token itself for a row
 * written before hashing), evicting it from this instance's cache at once; returns what was
 * deleted. A row under the token itself is deleted only once read and found to hold exactly the
 * token (as `moveUnderHash` checks): a loose collation would otherwise let a cookie holding
 * someone's stored hash, upper-cased, sign them out.
 */
export async function deleteSessionOfToken(
  ctx: Pick<SessionContext, "config">,
  token: string,
): Promise<AdapterSession | null> {
  const adapter = requireMethods(ctx.config.adapter!, ["deleteSession"], "signing out")
  const key = await storedToken(ctx.config, token)
  sessionCacheOf(ctx.config)?.changed({ sessionToken: key })
  let deleted = await callAdapter("deleteSession", () => adapter.deleteSession(key))
  if (!deleted && mayBeStoredUnhashed(ctx.config, token) && adapter.getSessionAndUser) {
    const legacy = await callAdapter("getSessionAndUser", () => adapter.getSessionAndUser!(token))
    if (legacy && holdsToken(legacy.session.sessionToken, token)) {
      deleted = await callAdapter("deleteSession", () => adapter.deleteSession(token))
    }
  }
  return deleted ?? null
}

/** The stored token of the request's session cookie, if there is a cookie. */
export async function storedTokenOf(ctx: SessionContext): Promise<string | undefined> {
  const token = sessionTokenOf(ctx)
  return token === undefined ? undefined : storedToken(ctx.config, token)
}
