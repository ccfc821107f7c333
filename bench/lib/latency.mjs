// Interleaved rounds that keep each operation's latency as well as each round's rate, and the
// counter throughput rounds (one caller, or many in flight) of the adapter benchmark.
import { timed } from "./common.mjs"

/** The `p`th percentile (nearest rank) of `values`. */
export function percentile(values, p) {
  const sorted = Float64Array.from(values).sort()
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

/**
 * Like `interleave` (lib/common.mjs), timing every call too: a warm-up sizes each candidate's
 * batch to about `batchMs`, then `rounds` rounds run every batch once, sequentially awaited, in
 * an order rotating from round to round. Sets `candidate.rounds` (operations per second of each
 * round), `candidate.latencies` (milliseconds, every call of every round) and
 * `candidate.warmupCalls`.
 */
export async function interleaveTimed(candidates, { warmupMs, batchMs, rounds }) {
  for (const candidate of candidates) {
    let calls = 0
    const opsPerSecond = await timed(() => (calls++, candidate.run()), warmupMs)
    candidate.warmupCalls = calls
    candidate.iterations = Math.max(1, Math.round((opsPerSecond * batchMs) / 1000))
    candidate.rounds = []
    candidate.latencies = []
  }
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[(round + i) % candidates.length]
      const { run, iterations, latencies } = candidate
      const started = performance.now()
      for (let n = 0; n < iterations; n++) {
        const before = performance.now()
        await run()
        latencies.push(performance.now() - before)
      }
      candidate.rounds.push((iterations / (performance.now() - started)) * 1000)
    }
  }
}

/**
 * `increment` calls a second for `ms` milliseconds, `inFlight` callers each awaiting its own
 * calls, over 100 keys per caller (a live window: the counts grow, as a rate limit's do).
 */
export async function counterRate(increment, inFlight, ms, tag) {
  let done = 0
  const end = performance.now() + ms
  const expires = new Date(Date.now() + 600_000)
  const caller = async (id) => {
    let n = 0
    while (performance.now() < end) {
      await increment(`bench:${tag}:${id}:${n++ % 100}`, expires)
      done++
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: inFlight }, (_, id) => caller(id)))
  return done / ((performance.now() - started) / 1000)
}
