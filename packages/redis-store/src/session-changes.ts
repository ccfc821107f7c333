/**
 * `withRedisSessionChanges(adapter, store)`: any adapter, with its session and user writes
 * published on the store's channel and `watchSessions` listening there, so that `session.cache`
 * works on databases that cannot report changes themselves.
 *
 * Which writes publish, and what a failed publish does:
 *
 * - Revocations and user changes — `deleteSession`, `deleteSessionsByUserId`,
 *   `deleteSessionById`, `deleteUser`, `updateUser` — publish after the write, and fail when the
 *   publish fails (a `RedisStoreError`, which Latch answers as a database outage: 503, or the
 *   error page with `code=unavailable`). The write itself is done; the request fails so that
 *   nobody takes the revocation as delivered everywhere. Every instance drops its cache when
 *   this store can publish again (a `reset`), and this instance's cache stops serving at once.
 * - `updateSession` (an expiry pushed) publishes too, but a failed publish does not fail it: a
 *   cached copy with the older expiry is only read again sooner. The `reset` is owed all the
 *   same.
 * - A write that throws still publishes (without failing on it): it may have been done.
 *
 * No session token that could be a cookie goes on the channel (any client of the Redis can
 * subscribe to it): a session write names the session by its stored token only when that is a
 * SHA-256 hash (`session.hashTokens`, on by default); otherwise — `hashTokens: false`, or a row
 * written by Auth.js before hashing, moved under its hash on first read — it names the session's
 * user (from what the write returned), which evicts that user's every cached session, or, when
 * the write returned no user, a `reset`, which empties every cache. Both are wider than needed,
 * never narrower.
 *
 * Linking or unlinking an account changes no session or user row, so it publishes nothing.
 * Writes made outside the adapter (SQL by hand) are published with `store.publish(change)`.
 */
import type { Adapter } from "@latch/core/adapters"
import { sessionMessage, type Change } from "./messages.js"
import type { RedisStore } from "./store.js"

/** Every method of `adapter`, its own and its prototypes', bound to it. */
function copyOf<A extends Adapter>(adapter: A): A {
  const copy: Record<string, unknown> = {}
  for (let object: object | null = adapter; object && object !== Object.prototype;) {
    for (const name of Object.getOwnPropertyNames(object)) {
      if (name === "constructor" || name in copy) continue
      const value = (adapter as Record<string, unknown>)[name]
      copy[name] = typeof value === "function" ? value.bind(adapter) : value
    }
    object = Object.getPrototypeOf(object)
  }
  return copy as A
}

type Method = (...args: any[]) => unknown

/** The change of the session stored under `token`, told by its user when `token` is no hash. */
function sessionChange(token: string, result: unknown): Change {
  return sessionMessage(token, (result as { userId?: unknown } | null | undefined)?.userId)
}

export function withRedisSessionChanges<A extends Adapter>(
  adapter: A,
  store: Pick<RedisStore, "publish" | "watchSessions">,
): A & Required<Pick<Adapter, "watchSessions">> {
  const wrapped = copyOf(adapter) as A & Required<Pick<Adapter, "watchSessions">>
  const methods = wrapped as unknown as Record<string, Method | undefined>

  /** Wraps `name` (when the adapter has it) to publish the change its call made. */
  const publishing = (
    name: keyof Adapter,
    changeOf: (args: any[], result: unknown) => Change | undefined,
    required: boolean,
  ) => {
    const original = methods[name]
    if (typeof original !== "function") return
    methods[name] = async (...args: unknown[]) => {
      let result: unknown
      try {
        result = await original(...args)
      } catch (error) {
        const change = changeOf(args, undefined)
        if (change) await store.publish(change).catch(() => {})
        throw error
      }
      const change = changeOf(args, result)
      if (change) {
        const published = store.publish(change)
        if (required) await published
        else await published.catch(() => {})
      }
      return result
    }
  }

  publishing("deleteSession", ([token], result) => sessionChange(token, result), true)
  publishing(
    "updateSession",
    ([session], result) => sessionChange(session.sessionToken, result),
    false,
  )
  publishing("deleteSessionsByUserId", ([userId]) => ({ userId }), true)
  // Nothing deleted (not the user's, or gone already): nothing to tell. Unknown (it threw):
  // the whole user, to be safe.
  publishing(
    "deleteSessionById",
    ([userId], result) => (result === null ? undefined : { userId }),
    true,
  )
  publishing("deleteUser", ([userId]) => ({ userId }), true)
  publishing("updateUser", ([user]) => ({ userId: user.id }), true)
  wrapped.watchSessions = (listener) => store.watchSessions(listener)
  return wrapped
}
