/**
 * Latch's `counterStore` on Redis: every rate limit, the single use of TOTP steps, passkey
 * challenges and pending second factors, and the lease of a token refresh, counted once for all
 * instances.
 *
 * When Redis fails, a counter fails closed: the store throws, Latch answers 503 (API) or its
 * error page with `code=unavailable` (pages), and nothing is let through uncounted. With
 * `failOpen`, the counters of pure rate limits (named below by their key prefixes) let the
 * request through instead; a counter that guards a single use or a guess at a short code never
 * does, and neither does any counter this list does not name (a kind added to Latch later fails
 * closed until it is named here).
 */
import type { CounterReading, CounterStore } from "@latch/core/types"
import type { RedisClient } from "./client.js"
import { INCREMENT, READ, runScript, script } from "./scripts.js"

/**
 * The key prefixes of Latch's counters that only limit a rate: sign-in attempts with a password
 * (`credentials:`), email sign-in mails per address and per client, passkey options per client,
 * password changes and new passwords, the password-hashing budget, and re-authentication mails.
 * Their failing open lets an attacker try faster while Redis is away; it lets nobody in.
 */
export const RATE_LIMIT_PREFIXES: readonly string[] = [
  "credentials:",
  "email:address:",
  "email:ip:",
  "webauthn:options:",
  "password:change:",
  "password:new:",
  "password:hash:",
  "reauthentication:",
]

export interface CountersOptions {
  client: RedisClient
  /** Put before every key. */
  prefix: string
  timeoutMs: number
  failOpen: boolean
  onError: (error: unknown) => void
}

const increment = script(INCREMENT)
const read = script(READ)

/** Whether `key` (as Latch names it) may fail open. */
export const isRateLimit = (key: string) =>
  RATE_LIMIT_PREFIXES.some((prefix) => key.startsWith(prefix))

export function redisCounters(options: CountersOptions): CounterStore {
  const { client, prefix, timeoutMs, failOpen, onError } = options
  /** Runs `run`; on failure, `open()` for a rate limit under `failOpen`, else the error. */
  const guarded = async <T>(key: string, run: () => Promise<T>, open: () => T): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      if (!failOpen || !isRateLimit(key)) throw error
      onError(error)
      return open()
    }
  }
  return {
    increment: (key, expires) =>
      guarded(
        key,
        async () => {
          const count = Number(
            await runScript(
              client,
              increment,
              prefix + key,
              [String(expires.getTime())],
              timeoutMs,
            ),
          )
          if (!Number.isSafeInteger(count)) throw new TypeError(`not a count: ${count}`)
          return count
        },
        // The first attempt of a window: let through.
        () => 1,
      ),
    get: (key) =>
      guarded(
        key,
        async (): Promise<CounterReading | null> => {
          const reply = await runScript(client, read, prefix + key, [], timeoutMs)
          if (reply === null || reply === undefined) return null
          const [count, ttl] = reply as [string, number]
          const left = Number(ttl)
          // -2: gone since; -1: no expiry, which nothing here writes (the next increment sets one).
          if (!(left > 0)) return null
          return { count: Number(count), expires: new Date(Date.now() + left) }
        },
        () => null,
      ),
  }
}
