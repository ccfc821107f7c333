/**
 * The database strategy's session cache (`session.cache`): each instance keeps the sessions it
 * read recently (stored token → session and user) in memory, so that a page of a known session
 * costs no round trip — and evicts one the moment any instance, or anyone writing the tables by
 * hand, changes or ends it, as the adapter's `watchSessions` reports (`@latch/pg-adapter`:
 * PostgreSQL `LISTEN`/`NOTIFY`, fed by triggers).
 *
 * What makes it safe to trust:
 *
 * - Entries are served only while the adapter says every change is being delivered (`live`).
 *   When that is in doubt (the listening connection dropped), the cache is emptied and every read
 *   goes to the database until listening has resumed; then it starts empty. A change missed while
 *   the connection was down therefore never leaves a stale entry behind.
 * - A read that was in flight when a change arrived is not cached: every change bumps a
 *   generation, and a result is kept only if the generation is the one its read started under
 *   (the read may have returned the row as it was before the change).
 * - This instance's own writes (sign-out, the expiry pushed, an expired session deleted) evict at
 *   once, without waiting for their notification.
 * - Bounded in entries (the oldest go first) and in age (an entry is read again after
 *   `maxAge` seconds, whatever the notifications said), and never served past the session's own
 *   expiry.
 *
 * One cache per adapter object, shared by every configuration that uses it (an app building its
 * configuration per request still has one cache, provided it creates its adapter once).
 */
import type {
  Adapter,
  AdapterSession,
  AdapterUser,
  SessionChange,
  SessionWatch,
} from "../adapters.js"
import type { ResolvedConfig } from "../config/resolved.js"
import type { SessionCacheOptions } from "../types.js"

export const DEFAULT_CACHE_ENTRIES = 10_000
export const DEFAULT_CACHE_MAX_AGE = 60

interface Entry {
  found: { session: AdapterSession; user: AdapterUser }
  /** When the entry stops being served (milliseconds). */
  until: number
}

/** How long after a failed `watchSessions` it is tried again. */
const RETRY_WATCH_AFTER = 1_000

export class SessionCache {
  private readonly entries = new Map<string, Entry>()
  private readonly byUser = new Map<string, Set<string>>()
  /** Whether every change is being delivered: entries are kept and served only then. */
  private live = false
  /** Bumped by every change and every change of `live`. */
  private generation = 0
  private watch: Promise<SessionWatch | undefined> | undefined
  private closed = false
  private retryAt = 0
  private lastFailure: string | undefined
  /** Reads served from the cache, and reads that went to the database (for `status`). */
  private hits = 0
  private misses = 0

  constructor(
    private readonly adapter: Adapter,
    private readonly options: SessionCacheOptions,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Starts watching the adapter, once (and again after a failure, at most once a second). */
  private start(now: number): void {
    if (this.watch || this.closed || now < this.retryAt) return
    const watchSessions = this.adapter.watchSessions!.bind(this.adapter)
    this.watch = Promise.resolve()
      .then(() =>
        watchSessions({
          changed: (change) => this.changed(change),
          live: (live) => this.setLive(live),
        }),
      )
      .then(
        async (watch) => {
          // Closed while it was starting: stop it at once.
          if (this.closed) await watch.close()
          return watch
        },
        (error: unknown) => {
          // Tried again every second: logged once per different failure, not once a second.
          const message = error instanceof Error ? error.message : String(error)
          if (message !== this.lastFailure) this.onError(error)
          this.lastFailure = message
          this.watch = undefined
          this.retryAt = Date.now() + RETRY_WATCH_AFTER
          return undefined
        },
      )
  }

  /**
   * The cached session and user of a stored token, or `undefined` (not cached, too old, expired,
   * or the cache not trusted now). The `generation` to pass to `keep` after reading it instead.
   */
  get(key: string, now: number): { hit?: Entry["found"]; generation: number } {
    this.start(now)
    const generation = this.generation
    const entry = this.live ? this.entries.get(key) : undefined
    if (entry && (entry.until <= now || entry.found.session.expires.getTime() <= now)) {
      this.evict(key)
    } else if (entry) {
      this.hits++
      return { hit: entry.found, generation }
    }
    this.misses++
    return { generation }
  }

  /** Keeps what a read found, unless a change arrived since the read began (`generation`). */
  keep(key: string, found: Entry["found"], generation: number, now: number): void {
    if (!this.live || generation !== this.generation) return
    this.evict(key)
    if (this.entries.size >= this.options.maxEntries) {
      // A Map iterates in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next()
      if (!oldest.done) this.evict(oldest.value)
    }
    this.entries.set(key, { found, until: now + this.options.maxAge * 1000 })
    const userId = found.user.id
    let keys = this.byUser.get(userId)
    if (!keys) this.byUser.set(userId, (keys = new Set()))
    keys.add(key)
  }

  /** Forgets one stored token: this instance changed or ended its session. */
  evict(key: string): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    const userId = entry.found.user.id
    const keys = this.byUser.get(userId)
    keys?.delete(key)
    if (keys?.size === 0) this.byUser.delete(userId)
  }

  /** A change reported by the adapter (or made here). */
  changed(change: SessionChange): void {
    this.generation++
    if ("sessionToken" in change) {
      this.evict(change.sessionToken)
      return
    }
    for (const key of this.byUser.get(change.userId) ?? []) this.evict(key)
  }

  private setLive(live: boolean): void {
    this.generation++
    this.entries.clear()
    this.byUser.clear()
    this.live = live && !this.closed
  }

  /** Stops watching; the cache serves nothing after. */
  async close(): Promise<void> {
    this.closed = true
    this.setLive(false)
    const watch = await this.watch
    await watch?.close()
  }

  /** What `sessionCacheStatus` reports. */
  get status(): SessionCacheStatus {
    return { serving: this.live, entries: this.entries.size, hits: this.hits, misses: this.misses }
  }

  /** How many sessions are cached (tests, diagnostics). */
  get size(): number {
    return this.entries.size
  }

  /** Whether the cache is serving entries (tests, diagnostics). */
  get serving(): boolean {
    return this.live
  }
}

/** The state of an adapter's session cache, as `sessionCacheStatus` reports it. */
export interface SessionCacheStatus {
  /**
   * Whether the cache serves: the adapter's `watchSessions` is listening and says every change
   * is delivered. `false` before its first `live(true)`, after a failed or dropped watch (every
   * read then goes to the database).
   */
  serving: boolean
  /** Sessions held now. */
  entries: number
  /** Session reads answered from the cache since the process started. */
  hits: number
  /** Session reads that went to the database (not cached, expired, or the cache not serving). */
  misses: number
}

const caches = new WeakMap<Adapter, SessionCache>()

/** The cache of the configuration's adapter, or `undefined` when `session.cache` is off. */
export function sessionCacheOf(config: ResolvedConfig): SessionCache | undefined {
  const options = config.session.cache
  const adapter = config.adapter
  if (!options || !adapter || config.session.strategy !== "database") return undefined
  let cache = caches.get(adapter)
  if (!cache) {
    cache = new SessionCache(adapter, options, (error) =>
      config.logger.error(error instanceof Error ? error : new Error(String(error))),
    )
    caches.set(adapter, cache)
  }
  return cache
}

/**
 * Stops the session cache of `adapter` (its `watchSessions` and the connection it holds), for
 * an orderly shutdown or the end of a test: after it, sessions are read from the database.
 *
 * @example
 * ```ts
 * await closeSessionCache(adapter)
 * await pool.end()
 * ```
 */
export async function closeSessionCache(adapter: Adapter): Promise<void> {
  const cache = caches.get(adapter)
  caches.delete(adapter)
  await cache?.close()
}

/** The cache of `adapter`, if one was started (tests, diagnostics). */
export function existingSessionCache(adapter: Adapter): SessionCache | undefined {
  return caches.get(adapter)
}

/**
 * The state of `adapter`'s session cache: whether it serves (its watch is listening), how many
 * sessions it holds, and how many reads it answered or sent to the database; `undefined` until
 * a request of a configuration with `session.cache` has used the adapter, and after
 * `closeSessionCache`. For a health check or a metrics endpoint.
 *
 * @example
 * ```ts
 * const cache = sessionCacheStatus(adapter)
 * if (cache && !cache.serving) console.warn("session cache not serving: reads go to the database")
 * ```
 */
export function sessionCacheStatus(adapter: Adapter): SessionCacheStatus | undefined {
  return caches.get(adapter)?.status
}
