/**
 * How many scrypt derivations run at once in this process, and in what order the others wait.
 *
 * Every derivation (a new hash, a check, the work done for an unknown address) goes through one
 * limiter per process: at most `concurrency` run at once, the rest wait in a queue of at most
 * `queue`, and one past that is refused before any work (`HashingBusy`, with the seconds after
 * which the queue will have drained: the `Retry-After` of the refusal). Each derivation holds
 * about 32 MiB with the default parameters (see hash.ts), so the memory of password hashing is
 * bounded by `concurrency` × that, whatever the traffic.
 *
 * Two lanes, so that a flood of sign-ups does not delay the people who have an account:
 *
 * - `"account"`: sign-ins (of any address: a sign-in of an unknown address waits like one of a
 *   known one, so that the wait says nothing about the account), a change of password, the new
 *   password of a reset link. Served first.
 * - `"anonymous"`: sign-ups. Served when no account derivation waits, and never in the last free
 *   slot (with `concurrency` ≥ 2): a sign-in arriving during a flood starts at once instead of
 *   waiting for a sign-up's derivation to end.
 *
 * A full queue makes room for an account derivation by refusing the anonymous one that came last.
 *
 * Node runs scrypt on libuv's thread pool (4 threads unless `UV_THREADPOOL_SIZE` says otherwise),
 * which also serves file reads, `dns.lookup` and zlib: the default concurrency leaves one of its
 * threads to them, so that a flood of sign-ups cannot stall a static file or a new database
 * connection.
 *
 * Each entry carries the limits of the configuration that asked for it, so that every
 * configuration in the process shares one count: an app whose Password providers (or whose
 * configurations, built per request) set different limits still has one limiter, each
 * derivation starting only while fewer than its own `concurrency` run.
 */

/** The lane a derivation waits in. */
export type HashingPriority = "account" | "anonymous"

/** The limits of a derivation, as the Password provider's `hashing` option resolves them. */
export interface HashingLimits {
  /** Derivations running at once in this process, at most. */
  concurrency: number
  /** Derivations waiting for a slot, at most; one more is refused. */
  queue: number
}

/** A derivation refused because the queue is full: nothing was computed. */
export class HashingBusy extends Error {
  override name = "HashingBusy"
  /** Seconds after which the derivations ahead of it will likely have run. */
  retryAfter: number

  constructor(retryAfter: number) {
    super("Password hashing is at capacity: the derivation was refused before any work")
    this.retryAfter = retryAfter
  }
}

/** What a limiter is doing, for tests and operators. */
export interface LimiterStats {
  /** Derivations running now. */
  active: number
  /** Derivations waiting now, per lane. */
  waiting: Record<HashingPriority, number>
  /** Derivations started since the limiter was made. */
  started: number
  /** Derivations refused (queue full, or pushed out by an account derivation) since then. */
  refused: number
  /** The most derivations that ran at once since then. */
  peak: number
}

interface Waiting {
  start: () => void
  refuse: (error: HashingBusy) => void
  limits: HashingLimits
}

/** Queue length of the default limits. */
const DEFAULT_QUEUE = 32
/** The seconds a derivation is assumed to take before one has been timed. */
const FIRST_GUESS_SECONDS = 0.5
/** The longest `Retry-After` a refusal says: a queue never takes longer than this to drain. */
const MAX_RETRY_AFTER = 60

type NodeProcess = {
  env?: Record<string, string | undefined>
  getBuiltinModule?: (id: string) => unknown
}

/**
 * The default limits: as many derivations at once as the machine has cores, at most one fewer
 * than libuv's thread pool has threads (3 by default), at least 1; without `node:os` (another
 * runtime), 2. A queue of 32.
 */
export function defaultHashingLimits(): HashingLimits {
  const process = (globalThis as { process?: NodeProcess }).process
  const os = process?.getBuiltinModule?.("node:os") as
    { availableParallelism?: () => number } | undefined
  const cores = os?.availableParallelism?.()
  if (!cores) return { concurrency: 2, queue: DEFAULT_QUEUE }
  const pool = Number(threadPoolSize(process)) || 4
  return { concurrency: Math.max(1, Math.min(cores, pool - 1)), queue: DEFAULT_QUEUE }
}

/**
 * `UV_THREADPOOL_SIZE`, or `undefined` where the environment may not be read: Deno without
 * `--allow-env` throws on the read, and the Password provider is made before any request, so a
 * throw here would stop the app at start-up.
 */
function threadPoolSize(process: NodeProcess | undefined): string | undefined {
  try {
    return process?.env?.UV_THREADPOOL_SIZE
  } catch {
    return undefined
  }
}

/** The slots a derivation of `lane` may start in: anonymous ones leave the last one free. */
function capOf(lane: HashingPriority, limits: HashingLimits): number {
  return lane === "anonymous" && limits.concurrency > 1
    ? limits.concurrency - 1
    : limits.concurrency
}

/** A limiter of scrypt derivations (see the module's comment). */
export class HashingLimiter {
  #active = 0
  #lanes: Record<HashingPriority, Waiting[]> = { account: [], anonymous: [] }
  #started = 0
  #refused = 0
  #peak = 0
  /** Mean seconds of the last derivations (an exponential moving average). */
  #seconds = FIRST_GUESS_SECONDS

  /**
   * Runs `derive` when a slot is free, or refuses it with `HashingBusy` (the promise rejects,
   * `derive` is never called).
   */
  run<T>(
    derive: () => Promise<T>,
    options: { priority: HashingPriority; limits: HashingLimits },
  ): Promise<T> {
    const { priority, limits } = options
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.#active++
        this.#started++
        this.#peak = Math.max(this.#peak, this.#active)
        const began = performance.now()
        let done: Promise<T>
        try {
          done = derive()
        } catch (error) {
          done = Promise.reject(error)
        }
        done.then(resolve, reject).finally(() => {
          this.#active--
          const seconds = (performance.now() - began) / 1000
          this.#seconds = this.#seconds * 0.8 + seconds * 0.2
          this.#dispatch()
        })
      }
      const ahead = priority === "account" ? this.#lanes.account.length : this.#waiting()
      if (ahead === 0 && this.#active < capOf(priority, limits)) return start()
      if (this.#waiting() >= limits.queue && !this.#makeRoom(priority, limits)) {
        this.#refused++
        return reject(new HashingBusy(this.#retryAfter(limits)))
      }
      this.#lanes[priority].push({ start, refuse: reject, limits })
    })
  }

  /** What the limiter is doing. */
  stats(): LimiterStats {
    return {
      active: this.#active,
      waiting: { account: this.#lanes.account.length, anonymous: this.#lanes.anonymous.length },
      started: this.#started,
      refused: this.#refused,
      peak: this.#peak,
    }
  }

  #waiting(): number {
    return this.#lanes.account.length + this.#lanes.anonymous.length
  }

  /**
   * For an account derivation at a full queue: refuses the anonymous one that came last, when
   * that makes room under its own limits.
   */
  #makeRoom(priority: HashingPriority, limits: HashingLimits): boolean {
    if (priority !== "account" || this.#waiting() !== limits.queue) return false
    const evicted = this.#lanes.anonymous.pop()
    if (!evicted) return false
    this.#refused++
    evicted.refuse(new HashingBusy(this.#retryAfter(evicted.limits)))
    return true
  }

  /** Starts what may start: account derivations first, then anonymous ones, each in order. */
  #dispatch(): void {
    for (const lane of ["account", "anonymous"] as const) {
      const queue = this.#lanes[lane]
      while (queue.length > 0 && this.#active < capOf(lane, queue[0]!.limits))
        queue.shift()!.start()
      // Sign-ups wait while a sign-in does: the account lane goes first even when its head
      // cannot start yet.
      if (queue.length > 0) return
    }
  }

  /** Seconds until the derivations running and waiting now will have run, rounded up. */
  #retryAfter(limits: HashingLimits): number {
    const ahead = this.#active + this.#waiting()
    const seconds = Math.ceil((ahead / Math.max(1, limits.concurrency)) * this.#seconds)
    return Math.min(MAX_RETRY_AFTER, Math.max(1, seconds))
  }
}

/**
 * On `globalThis` under a registered symbol, so that two copies of this module in one process
 * (an app bundling one, a dependency importing another) still share one limiter.
 */
const LIMITER = Symbol.for("latch.hashing-limiter")

/** The process's limiter, through which every derivation of hash.ts goes. */
export function processLimiter(): HashingLimiter {
  const holder = globalThis as typeof globalThis & { [LIMITER]?: HashingLimiter }
  const existing = holder[LIMITER]
  // A copy of another version may have put something else there: replace it.
  if (existing && typeof existing.run === "function" && typeof existing.stats === "function")
    return existing
  const limiter = new HashingLimiter()
  holder[LIMITER] = limiter
  return limiter
}
