/**
 * Reading the session: one decrypt, the `jwt` and `session` callbacks, and a re-issued cookie
 * only when `updateAge` says so or the `jwt` callback changed the token.
 */
import type { ActionContext } from "../actions/context.js"
import { JWTSessionError } from "../errors.js"
import type { JWT } from "../jwt.js"
import type { JWTCallbackParams, Session, SessionCallbackParams } from "../types.js"
import { isUnavailable } from "../response/unavailable.js"
import { readDatabaseSession } from "./database-strategy.js"
import { emitEvent } from "./events.js"
import { anyRefreshingProvider } from "./refresh-config.js"
import { clearSessionToken, nowSeconds, writeSessionToken } from "./jwt-cookie.js"
import { readSessionToken } from "./jwt-strategy.js"
import { UNPROVEN_CLAIM } from "./unproven-claim.js"

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

/**
 * The session as clients get it: the `session` callback's result as JSON carries it (a `Date`
 * becomes its ISO string, an `undefined` field is left out), so that `getSession` answers what
 * `GET {basePath}/session` does. A database session's token is left out: page scripts never
 * read it (every other field the callback returns is kept).
 */
function asJSON(result: unknown, { withoutToken }: { withoutToken: boolean }): Session | null {
  if (result === null || result === undefined) return null
  const json: unknown = JSON.parse(JSON.stringify(result))
  if (withoutToken && json !== null && typeof json === "object" && !Array.isArray(json)) {
    delete (json as Record<string, unknown>).sessionToken
  }
  return json as Session
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
    // As Auth.js gives it: the stored session with the whole stored user (one object, also
    // `user`), `expires` a `Date`. Copies: a callback that changes them changes no cached read.
    const user = { ...found.user }
    const given: Record<string, unknown> = { ...found.session, user }
    // Providers with `refresh` on: their tokens live on the user's accounts.
    if (anyRefreshingProvider(ctx.config)) {
      const { refreshAccounts } = await import("./refresh.js")
      const { error } = await refreshAccounts(ctx, user.id)
      if (error) given.error = error
    }
    // The parameters are typed per strategy, as a union the caller narrows; this is "database".
    const result: unknown = await ctx.config.callbacks.session({
      session: given,
      user,
      newSession: update?.data,
      ...(update ? { trigger: "update" as const } : {}),
    } as unknown as SessionCallbackParams)
    await emitEvent(ctx, "session", { session: result } as { session: Session; token: JWT })
    return asJSON(result, { withoutToken: true })
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
  // As Auth.js calls it on a read: `{ token, session }`, with `trigger: "update"` on an update.
  // Only Latch's provider-token refresh adds to it: the new tokens as `account`, and
  // `trigger: "refresh"` when the read is no update.
  const next = await ctx.config.callbacks.jwt({
    token: current,
    ...(update
      ? { trigger: "update" as const }
      : refreshed?.account
        ? { trigger: "refresh" as const }
        : {}),
    session: update?.data,
    ...(refreshed?.account ? { account: refreshed.account } : {}),
  } as JWTCallbackParams)
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
    // Auth.js passes `{ session, token }` alone; Latch adds the update's `trigger` and
    // `newSession`, as a database session's callback gets them.
    const result: unknown = await callbacks.session({
      session: sessionOf(next, expires),
      token: next,
      ...(update ? { trigger: "update" as const, newSession: update.data } : {}),
    } as unknown as SessionCallbackParams)
    await emitEvent(ctx, "session", { session: result as Session, token: next })
    return asJSON(result, { withoutToken: false })
  } catch (error) {
    ctx.logger.error(
      new JWTSessionError("Reading the session failed in a callback", { cause: error }),
    )
    return null
  }
}
