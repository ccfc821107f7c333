/**
 * `RedisStore(client, options)`: the counters (`counterStore`) and the session-change channel
 * of one Redis, under one key prefix.
 */
import type { SessionChangeListener, SessionWatch } from "@latch/core/adapters"
import type { CounterStore } from "@latch/core/types"
import { assertClient, RedisStoreError } from "./client.js"
import { redisCounters } from "./counters.js"
import type { Change } from "./messages.js"
import { Publisher } from "./publisher.js"
import { watchSessions } from "./watch.js"

export interface RedisStoreOptions {
  /**
   * Put before every key and the channel's name, so that apps (or an app's environments)
   * sharing one Redis never meet. @default "latch:"
   */
  prefix?: string
  /**
   * How long a command may take before it counts as failed, in milliseconds: a request waits
   * at most this long for an absent Redis (node-redis queues commands while it reconnects).
   * @default 1000
   */
  commandTimeoutMs?: number
  /**
   * Let the pure rate limits through when Redis fails (see `RATE_LIMIT_PREFIXES`); single-use
   * checks and code guesses fail closed whatever this says. @default false
   */
  failOpen?: boolean
  /**
   * How often a session watch proves it still hears the channel, in milliseconds; a cache
   * stops serving after two missed heartbeats. @default 1000
   */
  heartbeatMs?: number
  /** Told of each failure let through by `failOpen`. @default console.error */
  onError?: (error: unknown) => void
}

export interface RedisStore {
  /** Latch's `counterStore`: every rate limit, single-use check and refresh lease. */
  readonly counters: CounterStore
  /** The channel session changes travel on (`<prefix>sessions`). */
  readonly channel: string
  /**
   * Tells every instance's session cache that sessions changed: for writes made outside the
   * wrapped adapter (an admin script deleting sessions by hand). `{ sessionToken }` is the stored
   * token; one that is not a SHA-256 hex hash (the value of a cookie) never goes on the channel,
   * which any Redis client can read: it is published as `{ reset: true }`, which makes every
   * instance drop its whole cache. Rejects with a `RedisStoreError` when it could not be
   * published.
   */
  publish(change: Change): Promise<void>
  /** A watch of the channel, as an adapter's `watchSessions` (what `withRedisSessionChanges` uses). */
  watchSessions(listener: SessionChangeListener): Promise<SessionWatch>
}

const DEFAULT_PREFIX = "latch:"

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!(Number.isFinite(value) && value > 0)) {
    throw new TypeError(`@latch/redis-store: "${name}" must be a positive number of milliseconds`)
  }
  return value
}

/**
 * The store on a node-redis client. The client is the app's: connect it (and give it an
 * `error` listener) before the first request, and close it at shutdown.
 *
 * @example
 * ```ts
 * import { createClient } from "redis"
 * import { RedisStore, withRedisSessionChanges } from "@latch/redis-store"
 *
 * const redis = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true })
 * redis.on("error", (error) => console.error(error))
 * await redis.connect()
 * const store = RedisStore(redis)
 * export const config = {
 *   adapter: withRedisSessionChanges(adapter, store),
 *   counterStore: store.counters,
 *   session: { strategy: "database", cache: true },
 * }
 * ```
 */
export function RedisStore(client: unknown, options: RedisStoreOptions = {}): RedisStore {
  assertClient(client)
  const prefix = options.prefix ?? DEFAULT_PREFIX
  if (typeof prefix !== "string") {
    throw new TypeError('@latch/redis-store: "prefix" must be a string')
  }
  const timeoutMs = positive("commandTimeoutMs", options.commandTimeoutMs, 1_000)
  const heartbeatMs = positive("heartbeatMs", options.heartbeatMs, 1_000)
  const onError = options.onError ?? ((error: unknown) => console.error(error))
  const publisher = new Publisher(client, `${prefix}sessions`, timeoutMs)
  return {
    counters: redisCounters({
      client,
      prefix: `${prefix}counter:`,
      timeoutMs,
      failOpen: options.failOpen === true,
      onError,
    }),
    channel: publisher.channel,
    publish: (change) => publisher.change(change),
    watchSessions: (listener) =>
      watchSessions({ client, publisher, heartbeatMs, timeoutMs }, listener),
  }
}

export { RedisStoreError }
