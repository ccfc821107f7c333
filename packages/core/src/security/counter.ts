/**
 * Expiring counters, for what must hold across every instance of an app: the email sign-in rate
 * limit, the single use of a passkey challenge, and the rate limit of passkey options.
 *
 * They live in the adapter (`incrementCounter`) so that every instance sees the same count. An
 * adapter without it gets counters in this process's memory: correct for one instance, per
 * instance with several. That is logged once per process, as the `memory-counter` warning.
 *
 * The memory store is one per process, not one per configuration object: an app may build its
 * configuration per request (a lazy `SvelteKitAuth(async (event) => …)`), and an integration may
 * run one configuration as several objects (the handle and the form actions). Counters per
 * object would start from zero each time — a spent challenge usable again, a rate limit that
 * never trips. Sharing one store is safe: every key is an HMAC under the configuration's secret,
 * so configurations with different secrets never meet in it.
 */
import type { ResolvedConfig } from "../config/resolve.js"
import { hmacSha256Hex } from "../lib/crypto.js"
import { callAdapter } from "../session/adapter-call.js"

/** Adds one to `key`'s counter (a fresh one expires at `expires`) and returns the new value. */
export type Increment = (key: string, expires: Date) => Promise<number>

interface MemoryCounter {
  count: number
  expires: number
}

/** The process's memory store, and whether its warning was printed. */
interface MemoryStore {
  increment: Increment
  warned: boolean
}

/** A process-local counter store: a Map swept of expired entries as it grows. */
function memoryCounters(): Increment {
  const counters = new Map<string, MemoryCounter>()
  let nextSweep = 1024
  return async (key, expires) => {
    const now = Date.now()
    const current = counters.get(key)
    if (current && current.expires > now) return ++current.count
    counters.set(key, { count: 1, expires: expires.getTime() })
    if (counters.size >= nextSweep) {
      for (const [name, counter] of counters) if (counter.expires <= now) counters.delete(name)
      nextSweep = Math.max(1024, counters.size * 2)
    }
    return 1
  }
}

/**
 * On `globalThis` under a registered symbol, so that two copies of this module in one process
 * (an app bundling one, a dependency importing another) still share one store.
 */
const STORE = Symbol.for("latch.memory-counters")

function memoryStore(): MemoryStore {
  const holder = globalThis as typeof globalThis & { [STORE]?: MemoryStore }
  return (holder[STORE] ??= { increment: memoryCounters(), warned: false })
}

/** The configuration's counter store: the adapter's, or the process's memory (warned once). */
export function counters(config: ResolvedConfig): Increment {
  const adapter = config.adapter
  if (adapter && typeof adapter.incrementCounter === "function") {
    const increment = adapter.incrementCounter.bind(adapter)
    return (key, expires) =>
      callAdapter("incrementCounter", async () => Number(await increment(key, expires)))
  }
  const store = memoryStore()
  if (!store.warned) {
    store.warned = true
    config.logger.warn("memory-counter")
  }
  return store.increment
}

/**
 * A counter key that does not reveal what it counts: `prefix` and the HMAC of `value` under the
 * configuration's secret. Email addresses and IP addresses are not stored in the clear.
 */
export async function counterKey(
  config: ResolvedConfig,
  prefix: string,
  value: string,
): Promise<string> {
  return `${prefix}:${await hmacSha256Hex(config.secrets[0] ?? "", `${prefix}\u0000${value}`)}`
}
