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
 * Linking or unlinking an account changes no session or user row, so it publishes nothing.
 * Writes made outside the adapter (SQL by hand) are published with `store.publish(change)`.
 */
import type { Adapter, SessionChange } from "@latch/core/adapters"
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

export function withRedisSessionChanges<A extends Adapter>(
  adapter: A,
  store: Pick<RedisStore, "publish" | "watchSessions">,
): A & Required<Pick<Adapter, "watchSessions">> {
  const wrapped = copyOf(adapter) as A & Required<Pick<Adapter, "watchSessions">>
  const methods = wrapped as unknown as Record<string, Method | undefined>

  /** Wraps `name` (when the adapter has it) to publish the change its call made. */
  const publishing = (
    name: keyof Adapter,
    changeOf: (args: any[], result: unknown) => SessionChange | undefined,
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

  publishing("deleteSession", ([sessionToken]) => ({ sessionToken }), true)
  publishing("updateSession", ([session]) => ({ sessionToken: session.sessionToken }), false)
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
