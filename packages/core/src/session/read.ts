/**
 * Reading the session: one decrypt, the `jwt` and `session` callbacks, and a re-issued cookie
 * only when `updateAge` says so or the `jwt` callback changed the token.
 */
import type { ActionContext } from "../actions/context.js"
import { JWTSessionError } from "../errors.js"
import type { JWT } from "../jwt.js"
import type { Session, SessionCallbackParams, User } from "../types.js"
import { isUnavailable } from "../response/unavailable.js"
import { readDatabaseSession } from "./database-strategy.js"
import { emitEvent } from "./events.js"
import { anyRefreshingProvider } from "./refresh-config.js"
import {
  clearSessionToken,
  nowSeconds,
  readSessionToken,
  UNPROVEN_CLAIM,
  writeSessionToken,
} from "./jwt-strategy.js"

type SessionContext = Pick<ActionContext, "config" | "cookies" | "cookieOptions" | "logger">

/**
 * The session a token stands for, before the `session` callback. A claim the token lacks is left
 * out of the JSON (not `null`), as Auth.js answers it.
 */
function sessionOf(token: JWT, expires: Date): Session {
  return {
    user: {
      name: token.name,
      email: token.email,
      image: token.picture as string | null | undefined,
    },
    expires: expires.toISOString(),
    ...(token.error === "RefreshTokenError" ? { error: token.error } : {}),
  }
}

/** Whether the cookie is due for re-issue: `updateAge` seconds after it was issued. */
function isDue(token: JWT, updateAge: number): boolean {
  return updateAge <= 0 || typeof token.iat !== "number" || nowSeconds() - token.iat >= updateAge
}

/**
 * The session of the request, or `null`. An invalid or expired cookie is deleted; a callback
 * that throws is logged and reads as no session, but leaves the cookie alone.
 *
 * With `update`, the `jwt` callback runs with `trigger: "update"` and the client's data, and the
 * cookie is always re-issued.
 */
export async function readSession(
  ctx: SessionContext,
  update?: { data: unknown },
): Promise<Session | null> {
  return ctx.config.session.strategy === "database"
    ? readFromDatabase(ctx, update)
    : readFromJWT(ctx, update)
}

/**
 * A database session: one `getSessionAndUser`, the `session` callback with the stored user. A
 * failing database is thrown (an `AdapterError`: a 503 for the session action, and for a page's
 * `getSession`), never read as no session: a signed-in user would look signed out, and a client
 * would act on it. The cookie is kept for when the database is back. A callback that throws
 * anything else is logged and reads as no session.
 */
async function readFromDatabase(
  ctx: SessionContext,
  update?: { data: unknown },
): Promise<Session | null> {
  try {
    const found = await readDatabaseSession(ctx)
    if (!found) return null
    const { session: stored, user } = found
    const base: Session = {
      user: { name: user.name, email: user.email, image: user.image },
      expires: stored.expires.toISOString(),
    }
    // Providers with `refresh` on: their tokens live on the user's accounts.
    if (anyRefreshingProvider(ctx.config)) {
      const { refreshAccounts } = await import("./refresh.js")
      const { error } = await refreshAccounts(ctx, user.id)
      if (error) base.error = error
    }
    // The parameters are typed per strategy, as a union the caller narrows; this is "database".
    const result: unknown = await ctx.config.callbacks.session({
      // The callback may read the stored session; its own expiry is the ISO string.
      session: { ...stored, ...base } as unknown as Session & typeof stored,
      user,
      ...(update ? { trigger: "update" as const, newSession: update.data } : {}),
    } as unknown as SessionCallbackParams)
    // The stored session's fields (its token above all, and Latch's id and device fields) never
    // reach the client by default: the callback may copy what it wants to show.
    const {
      sessionToken: _token,
      userId: _userId,
      id: _id,
      userAgent: _userAgent,
      clientAddress: _clientAddress,
      createdAt: _createdAt,
      lastSeenAt: _lastSeenAt,
      ...exposed
    } = result as Record<string, unknown>
    if (exposed.expires instanceof Date) exposed.expires = exposed.expires.toISOString()
    const session = exposed as unknown as Session
    await emitEvent(ctx, "session", { session, token: undefined as never })
    return session
  } catch (error) {
    if (isUnavailable(error)) throw error
    ctx.logger.error(error instanceof Error ? error : new Error(String(error)))
    return null
  }
}

/**
 * The session token of the request after the `jwt` callback (and a refresh of the provider's
 * tokens, when due), the cookie re-issued when due or changed; `null` without a session. A
 * callback that throws is thrown.
 */
export async function readJWT(
  ctx: SessionContext,
  update?: { data: unknown },
): Promise<{ token: JWT; expires: Date } | null> {
  const { present, token } = await readSessionToken(ctx)
  if (!present) return null
  if (!token) {
    clearSessionToken(ctx)
    return null
  }
  const refreshed = token.oauth
    ? await (await import("./refresh.js")).refreshJWT(ctx, token)
    : undefined
  const current = (refreshed?.token ?? token) as JWT
  const before =
    ctx.config.defaultJWTCallback || update || refreshed ? undefined : JSON.stringify(token)
  const next = await ctx.config.callbacks.jwt({
    token: current,
    user: undefined as unknown as User,
    account: refreshed?.account ?? null,
    ...(update
      ? { trigger: "update" as const, session: update.data }
      : refreshed?.account
        ? { trigger: "refresh" as const }
        : {}),
  })
  if (!next) {
    clearSessionToken(ctx)
    return null
  }
  // Latch's own mark stays whatever the callback returned (see `account/unproven.ts`).
  if (typeof current[UNPROVEN_CLAIM] === "string") next[UNPROVEN_CLAIM] = current[UNPROVEN_CLAIM]
  const changed = before !== undefined && JSON.stringify(next) !== before
  const expires =
    update || refreshed || changed || isDue(token, ctx.config.session.updateAge)
      ? await writeSessionToken(ctx, next)
      : new Date((token.exp ?? nowSeconds() + ctx.config.jwt.maxAge) * 1000)
  return { token: next, expires }
}

async function readFromJWT(
  ctx: SessionContext,
  update?: { data: unknown },
): Promise<Session | null> {
  const { callbacks } = ctx.config
  try {
    const read = await readJWT(ctx, update)
    if (!read) return null
    const { token: next, expires } = read
    const session = (await callbacks.session({
      session: sessionOf(next, expires),
      token: next,
      ...(update ? { trigger: "update" as const, newSession: update.data } : {}),
    } as unknown as SessionCallbackParams)) as Session
    await emitEvent(ctx, "session", { session, token: next })
    return session
  } catch (error) {
    ctx.logger.error(
      new JWTSessionError("Reading the session failed in a callback", { cause: error }),
    )
    return null
  }
}
