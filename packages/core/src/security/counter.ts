/**
 * Expiring counters, for what must hold across every instance of an app: the sign-in rate
 * limits (email, credentials), the single use of a passkey challenge, and the rate limit of
 * passkey options.
 *
 * They live in the deployer's `counterStore` (Redis, say), else in the adapter
 * (`incrementCounter`, and `getCounter` for the counters that are read before they are
 * counted), so that every instance sees the same count. Without either they live in this
 * process's memory: correct for one instance, per instance with several. That is logged once
 * per process, as the `memory-counter` warning (`memory-rate-limit` when only `getCounter` is
 * missing: then only the counters that need reading go to memory).
 *
 * The memory store is one per process, not one per configuration object: an app may build its
 * configuration per request (a lazy `SvelteKitAuth(async (event) => …)`), and an integration may
 * run one configuration as several objects (the handle and the form actions). Counters per
 * object would start from zero each time — a spent challenge usable again, a rate limit that
 * never trips. Sharing one store is safe: every key is an HMAC under the configuration's secret,
 * so configurations with different secrets never meet in it.
 */
import type * as NodeCrypto from "node:crypto"
import type { ResolvedConfig } from "../config/resolved.js"
import { AdapterError } from "../errors.js"
import { hmacSha256Hex } from "../lib/crypto.js"
import { nodeCrypto } from "../lib/node-crypto.js"
import { callAdapter } from "../session/adapter-call.js"
import type { CounterReading, CounterStore } from "../types.js"

/** Adds one to `key`'s counter (a fresh one expires at `expires`) and returns the new value. */
export type Increment = (key: string, expires: Date) => Promise<number>

/** A counter store as Latch calls it: promises, failures as `AdapterError`. */
export interface Counters {
  increment: Increment
  /** The live counter of `key`, or `null`; never changes it. */
  get(key: string): Promise<CounterReading | null>
}

interface MemoryCounter {
  count: number
  expires: number
}

/**
 * The memory store's synchronous face: what it does without a promise. A credentials sign-in
 * makes several counter operations, and on this store each one is a `Map` lookup: awaiting
 * them one by one would cost a sign-in more than the lookups do.
 */
interface SyncCounters {
  /** `increment`, at once; `expires` in milliseconds. */
  incrementNow(key: string, expires: number): number
  /** The live count of `key`, 0 for none. */
  countNow(key: string): number
}

/** The process's memory store, and which of its warnings were printed. */
interface MemoryStore extends Counters, SyncCounters {
  warned: boolean
  warnedRateLimit?: boolean
}

/** A process-local counter store: a Map swept of expired entries as it grows. */
function memoryCounters(): Counters & SyncCounters {
  const counters = new Map<string, MemoryCounter>()
  let nextSweep = 1024
  const incrementNow = (key: string, expires: number) => {
    const now = Date.now()
    const current = counters.get(key)
    if (current && current.expires > now) return ++current.count
    counters.set(key, { count: 1, expires })
    if (counters.size >= nextSweep) {
      for (const [name, counter] of counters) if (counter.expires <= now) counters.delete(name)
      nextSweep = Math.max(1024, counters.size * 2)
    }
    return 1
  }
  const live = (key: string) => {
    const current = counters.get(key)
    return current && current.expires > Date.now() ? current : undefined
  }
  return {
    incrementNow,
    countNow: (key) => live(key)?.count ?? 0,
    async increment(key, expires) {
      return incrementNow(key, expires.getTime())
    },
    async get(key) {
      const current = live(key)
      return current ? { count: current.count, expires: new Date(current.expires) } : null
    },
  }
}

/**
 * On `globalThis` under a registered symbol, so that two copies of this module in one process
 * (an app bundling one, a dependency importing another) still share one store.
 */
const STORE = Symbol.for("latch.memory-counters")

function memoryStore(): MemoryStore {
  const holder = globalThis as typeof globalThis & { [STORE]?: MemoryStore }
  const existing = holder[STORE]
  // A copy of an older version may have put a store there that lacks a method: replace it.
  if (existing && typeof existing.get === "function" && typeof existing.countNow === "function") {
    return existing
  }
  const store: MemoryStore = { ...memoryCounters(), warned: existing?.warned ?? false }
  holder[STORE] = store
  return store
}

/** A reading as Latch uses it, whatever the store returned (a JSON store gives strings). */
function reading(value: CounterReading | null | undefined): CounterReading | null {
  if (!value) return null
  const expires = new Date(value.expires)
  const count = Number(value.count)
  // An expired counter is no counter, even from a store that has not swept it yet.
  if (!(expires.getTime() > Date.now()) || !Number.isFinite(count)) return null
  return { count, expires }
}

/** The deployer's `counterStore`, with its failures as `AdapterError` like the adapter's. */
function deployerStore(store: CounterStore): Counters {
  const call = async <T>(method: string, run: () => PromiseLike<T> | T): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      throw new AdapterError(`counterStore.${method} failed`, { cause: error })
    }
  }
  return {
    increment: (key, expires) =>
      call("increment", async () => Number(await store.increment(key, expires))),
    get: (key) => call("get", async () => reading(await store.get(key))),
  }
}

/** The adapter's counters, when it has both methods. */
function adapterStore(config: ResolvedConfig): Counters | undefined {
  const adapter = config.adapter
  if (typeof adapter?.incrementCounter !== "function") return undefined
  if (typeof adapter.getCounter !== "function") return undefined
  const increment = adapter.incrementCounter.bind(adapter)
  const get = adapter.getCounter.bind(adapter)
  return {
    increment: (key, expires) =>
      callAdapter("incrementCounter", async () => Number(await increment(key, expires))),
    get: (key) => callAdapter("getCounter", async () => reading(await get(key))),
  }
}

/** The memory store, with the `memory-counter` warning once per process. */
function memoryFallback(config: ResolvedConfig): MemoryStore {
  const store = memoryStore()
  if (!store.warned) {
    store.warned = true
    config.logger.warn("memory-counter")
  }
  return store
}

/**
 * The configuration's counters for what is only ever incremented (the email limits, spent
 * challenges, the passkey options limit): the `counterStore`, the adapter's `incrementCounter`,
 * or the process's memory (warned once).
 */
export function counters(config: ResolvedConfig): Increment {
  if (config.counterStore) return deployerStore(config.counterStore).increment
  const adapter = config.adapter
  if (adapter && typeof adapter.incrementCounter === "function") {
    const increment = adapter.incrementCounter.bind(adapter)
    return (key, expires) =>
      callAdapter("incrementCounter", async () => Number(await increment(key, expires)))
  }
  return memoryFallback(config).increment
}

/**
 * The configuration's counters for what is read before it is counted (the credentials rate
 * limit): the `counterStore`, the adapter's when it has `incrementCounter` and `getCounter`, or
 * the process's memory. An adapter with `incrementCounter` alone cannot be read without
 * counting, so these counters go to memory then, with the `memory-rate-limit` warning once.
 */
export function counterStore(config: ResolvedConfig): Counters {
  if (config.counterStore) return deployerStore(config.counterStore)
  const adapter = adapterStore(config)
  if (adapter) return adapter
  if (typeof config.adapter?.incrementCounter !== "function") return memoryFallback(config)
  const store = memoryStore()
  if (!store.warnedRateLimit) {
    store.warnedRateLimit = true
    config.logger.warn("memory-rate-limit")
  }
  return store
}

/**
 * One counter operation: an increment when `expires` (of a new counter, in milliseconds) is
 * given, else a read. Its result is the count (0 for a counter that does not exist).
 */
export interface CounterOp {
  key: string
  expires?: number
}

/**
 * An algorithm over counters, as a generator: each `yield` is a step, operations that do not
 * depend on each other (run together: one round trip to a remote store), answered with their
 * counts in order. Written once, it runs without a single promise on the memory store and with
 * one `Promise.all` per step on any other.
 */
export type CounterSteps<T> = Generator<CounterOp[], T, number[]>

/** Runs `steps` against `store`: synchronously on the memory store, else as a promise. */
export function runSteps<T>(store: Counters, steps: CounterSteps<T>): T | Promise<T> {
  const sync = store as Partial<SyncCounters>
  if (typeof sync.countNow === "function" && typeof sync.incrementNow === "function") {
    const { countNow, incrementNow } = sync as SyncCounters
    let step = steps.next()
    while (!step.done) {
      step = steps.next(
        step.value.map((op) =>
          op.expires === undefined ? countNow(op.key) : incrementNow(op.key, op.expires),
        ),
      )
    }
    return step.value
  }
  return (async () => {
    let step = steps.next()
    while (!step.done) {
      const counts = await Promise.all(
        step.value.map((op) =>
          op.expires === undefined
            ? store.get(op.key).then((reading) => reading?.count ?? 0)
            : store.increment(op.key, new Date(op.expires)),
        ),
      )
      step = steps.next(counts)
    }
    return step.value
  })()
}

/**
 * A counter key that does not reveal what it counts: `prefix` and the HMAC-SHA-256 of `value`
 * under the configuration's secret. Email addresses and IP addresses are not stored in the clear.
 */
export async function counterKey(
  config: ResolvedConfig,
  prefix: string,
  value: string,
): Promise<string> {
  const secret = config.secrets[0] ?? ""
  const data = `${prefix}\u0000${value}`
  const mac = nodeCrypto
    ? nodeCrypto.createHmac("sha256", nodeKey(nodeCrypto, secret)).update(data).digest("hex")
    : await hmacSha256Hex(secret, data)
  return `${prefix}:${mac}`
}

const nodeKeys = new Map<string, NodeCrypto.KeyObject>()

/** The secret as a `KeyObject`, made once per secret (secrets rarely change: a small cache). */
function nodeKey(node: typeof NodeCrypto, secret: string): NodeCrypto.KeyObject {
  let key = nodeKeys.get(secret)
  if (!key) {
    if (nodeKeys.size >= 64) nodeKeys.clear()
    key = node.createSecretKey(new TextEncoder().encode(secret))
    nodeKeys.set(secret, key)
  }
  return key
}
