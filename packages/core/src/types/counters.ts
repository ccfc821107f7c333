/** Expiring counters, and the store that may hold them for every instance of an app. */
import type { Awaitable } from "./common.js"

/** A counter as a store holds it: how many so far, and when it starts again from zero. */
export interface CounterReading {
  count: number
  expires: Date
}

/**
 * A store of expiring counters, for `counterStore`: Latch counts sign-in attempts and spent
 * passkey challenges in it. Keys are at most 200 characters and reveal nothing of what they
 * count (HMACs under the secret). The core README has an example on Redis.
 */
export interface CounterStore {
  /**
   * Adds one to the counter of `key` and returns its new value, atomically: of concurrent calls,
   * each sees a different value. A counter that does not exist, or whose expiry has passed,
   * starts again at 1 and expires at `expires`; later calls keep that first expiry.
   */
  increment(key: string, expires: Date): Awaitable<number>
  /** The live counter of `key`, or `null` when there is none or it expired; never changes it. */
  get(key: string): Awaitable<CounterReading | null>
}
