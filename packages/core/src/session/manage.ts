/**
 * "Where am I signed in?" and "sign out everywhere", for database sessions: for an app's admin
 * code, by user id (`listSessions`, `revokeSessions`: the adapter's optional
 * `listSessionsByUserId` and `deleteSessionsByUserId`); and for a page of the signed-in user,
 * from their request (`getUserSessions`, `revokeUserSession`, `revokeOtherSessions`), sessions
 * named by their id — never by their token — and the request's own marked `current`.
 */
import type { AdapterSession } from "../adapters.js"
import { resolveConfig, type ResolvedConfig } from "../config/resolve.js"
import { CookieJar } from "../cookies/jar.js"
import { MissingAdapter, UnsupportedStrategy } from "../errors.js"
import { resolveOrigin } from "../request/host.js"
import type { AuthConfig } from "../types.js"
import { callAdapter, requireMethods } from "./adapter-call.js"
import { sessionCacheOf } from "./cache.js"
import { readDatabaseSession, withStoredTokensHashed } from "./database-strategy.js"

function adapterOf(config: AuthConfig) {
  const resolved = resolveConfig(config)
  if (!resolved.adapter) throw new MissingAdapter("Listing and revoking sessions needs an adapter")
  return resolved.adapter
}

/** What to do when the adapter has no such method: Auth.js's adapters have neither. */
const extraMethodHint = (method: string) =>
  `Auth.js's adapters do not have it. Add \`${method}\` to your adapter (spread it and add the method, querying your sessions table by user id), or use @latch/pg-adapter`

/**
 * The user's database sessions (one per signed-in browser or device).
 *
 * @throws `MissingAdapterMethods` when the adapter has no `listSessionsByUserId`, as Auth.js's
 *   adapters do not: the message says how to add it.
 *
 * @example
 * ```ts
 * const sessions = await listSessions(config, session.user.id)
 * ```
 */
export async function listSessions(config: AuthConfig, userId: string): Promise<AdapterSession[]> {
  const adapter = requireMethods(
    adapterOf(config),
    ["listSessionsByUserId"],
    "listSessions",
    extraMethodHint("listSessionsByUserId"),
  )
  return callAdapter("listSessionsByUserId", () => adapter.listSessionsByUserId(userId))
}

/**
 * Signs the user out everywhere: deletes every database session of theirs. Returns how many
 * were deleted. Each browser finds its cookie refers to nothing on its next request.
 *
 * @throws `MissingAdapterMethods` when the adapter has no `deleteSessionsByUserId`, as Auth.js's
 *   adapters do not: nothing is deleted, rather than reporting a sign-out that did not happen.
 *
 * @example
 * ```ts
 * await revokeSessions(config, session.user.id)
 * ```
 */
export async function revokeSessions(config: AuthConfig, userId: string): Promise<number> {
  const adapter = requireMethods(
    adapterOf(config),
    ["deleteSessionsByUserId"],
    "revokeSessions",
    extraMethodHint("deleteSessionsByUserId"),
  )
  sessionCacheOf(resolveConfig(config))?.changed({ userId })
  const count = await callAdapter("deleteSessionsByUserId", () =>
    adapter.deleteSessionsByUserId(userId),
  )
  return typeof count === "number" ? count : 0
}

/** A session of the signed-in user as a page lists it: named by its id, never its token. */
export interface UserSession {
  id: string
  /** The session of the request that listed it. */
  current: boolean
  /** The browser and system it signed in with ("Firefox on Linux"), when known. */
  userAgent: string | null
  /** The client address it signed in from, as the platform reported it, when known. */
  clientAddress: string | null
  createdAt: Date | null
  /** When it was last used, to within `session.updateAge`. */
  lastSeenAt: Date | null
  expires: Date
}

const USER_SESSION_METHODS = ["listSessionsByUserId", "deleteSessionById"] as const

/** The request's database session and its user, or `null`; without pushing its expiry. */
async function requestSession(request: Request, config: AuthConfig, feature: string) {
  const resolved = resolveConfig(config)
  if (resolved.error) throw resolved.error
  if (resolved.session.strategy !== "database" || !resolved.adapter) {
    throw new UnsupportedStrategy(
      `${feature} needs database sessions (session.strategy "database")`,
    )
  }
  const adapter = requireMethods(resolved.adapter, USER_SESSION_METHODS, feature)
  const site = resolveOrigin(new URL(request.url), resolved)
  const ctx = {
    config: resolved,
    cookies: new CookieJar(request.headers.get("cookie") ?? ""),
    cookieOptions: resolved.cookies(resolved.useSecureCookies ?? site.secure),
    logger: resolved.logger,
  }
  const found = await readDatabaseSession(ctx, { touch: false })
  return found && { ...found, adapter, resolved }
}

function userSessionOf(session: AdapterSession, current: AdapterSession): UserSession {
  return {
    id: session.id ?? "",
    current:
      session.id !== undefined
        ? session.id === current.id
        : session.sessionToken === current.sessionToken,
    userAgent: session.userAgent ?? null,
    clientAddress: session.clientAddress ?? null,
    createdAt: session.createdAt ?? null,
    lastSeenAt: session.lastSeenAt ?? null,
    expires: session.expires,
  }
}

/**
 * The signed-in user's sessions, most recently used first, the request's own `current`; `null`
 * when the request has no session. The adapter needs `listSessionsByUserId` and
 * `deleteSessionById` (`@latch/pg-adapter` has both).
 *
 * @example
 * ```ts
 * const sessions = await getUserSessions(request, config)
 * ```
 */
export async function getUserSessions(
  request: Request,
  config: AuthConfig,
): Promise<UserSession[] | null> {
  const found = await requestSession(request, config, "getUserSessions")
  if (!found) return null
  const { adapter, session, user } = found
  const now = Date.now()
  const listed = await callAdapter("listSessionsByUserId", () =>
    adapter.listSessionsByUserId(user.id),
  )
  // The ids shown must stay the sessions' ids: rows not yet under their hash move now.
  const sessions = await withStoredTokensHashed(found.resolved, listed)
  const seen = (s: AdapterSession) => (s.lastSeenAt ?? s.createdAt)?.getTime() ?? 0
  return sessions
    .filter((s) => s.expires.getTime() > now)
    .sort((a, b) => seen(b) - seen(a))
    .map((s) => userSessionOf(s, session))
}

/** Ends one session of the request's user; evicts it from this instance's cache at once. */
async function endSession(
  resolved: ResolvedConfig,
  adapter: UserSessionAdapter,
  userId: string,
  id: string,
) {
  const deleted = await callAdapter("deleteSessionById", () =>
    adapter.deleteSessionById(userId, id),
  )
  if (deleted) sessionCacheOf(resolved)?.changed({ sessionToken: deleted.sessionToken })
  return deleted !== null && deleted !== undefined
}

type UserSessionAdapter = NonNullable<Awaited<ReturnType<typeof requestSession>>>["adapter"]

/**
 * Ends the signed-in user's session `id` (a device they no longer use): `true` when it was
 * theirs and is gone, `false` otherwise (no session, someone else's id, already ended). Every
 * instance refuses it from then on (with `session.cache`, as soon as the adapter reports it).
 *
 * @example
 * ```ts
 * await revokeUserSession(request, config, form.get("id"))
 * ```
 */
export async function revokeUserSession(
  request: Request,
  config: AuthConfig,
  id: string,
): Promise<boolean> {
  const found = await requestSession(request, config, "revokeUserSession")
  if (!found || typeof id !== "string" || id === "") return false
  return endSession(found.resolved, found.adapter, found.user.id, id)
}

/**
 * "Sign out everywhere else": ends every session of the signed-in user but the request's own.
 * Returns how many were ended (0 without a session).
 */
export async function revokeOtherSessions(request: Request, config: AuthConfig): Promise<number> {
  const found = await requestSession(request, config, "revokeOtherSessions")
  if (!found) return 0
  const { adapter, resolved, session, user } = found
  const sessions = await callAdapter("listSessionsByUserId", () =>
    adapter.listSessionsByUserId(user.id),
  )
  let ended = 0
  for (const other of sessions) {
    if (other.id === undefined || other.id === session.id) continue
    if (await endSession(resolved, adapter, user.id, other.id)) ended++
  }
  return ended
}
