// Shared by the benchmarks: statistics, formatting, the machine and package versions.
import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import os from "node:os"
import { pathToFileURL } from "node:url"

/**
 * `BENCH_QUICK=1` (or `QUICK=1`, as bench/redis-store.mjs reads it): fewer and shorter rounds
 * everywhere, for trying the benchmarks out; the figures are then indicative only, and README.md
 * says so.
 */
export const QUICK = process.env.BENCH_QUICK === "1" || process.env.QUICK === "1"

/** The bench package's directory, as a URL ending in "/". */
export const benchDir = new URL("../", import.meta.url)

/** Whether the module at `url` is the script node was started with. */
export const isMain = (url) =>
  process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === url

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * A distribution-free confidence interval of the median (≥ 95 %), from order statistics: with
 * `n` values, the `k`-th smallest and `k`-th largest, `k` the largest rank such that
 * P(Binomial(n, ½) < k) ≤ 2.5 %. Too few values for that: their min and max.
 */
export function medianInterval(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const n = sorted.length
  let k = 0
  let below = 0 // P(X < k)
  let term = 1 // C(n, k)
  while (k < n && below + term / 2 ** n <= 0.025) {
    below += term / 2 ** n
    term = (term * (n - k)) / (k + 1)
    k++
  }
  return k === 0
    ? { low: sorted[0], high: sorted[n - 1] }
    : { low: sorted[k - 1], high: sorted[n - k] }
}

/** Per-round ratios `a[i] / b[i]`: their median, min–max, and the median's interval. */
export function ratios(a, b) {
  const values = a.map((value, round) => value / b[round])
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    ...medianInterval(values),
  }
}

/**
 * Whether a ratio `{ median, low, high }` meets a goal "at least `goal`" (or "at most `goal`"
 * with `atMost`): by its median, and whether the median's interval settles it (entirely on one
 * side of the goal) or the run was too noisy to tell.
 */
export function verdict({ median, low, high }, goal, { atMost = false } = {}) {
  const meets = (value) => (atMost ? value <= goal : value >= goal)
  if (meets(median)) return meets(atMost ? high : low) ? "met" : "met within noise"
  return meets(atMost ? low : high) ? "missed within noise" : "missed"
}

/** A rate, rounded, with thousands separators. */
export const ops = (value) => Math.round(value).toLocaleString("en-US")

/** A ratio: three decimals below 1, two from 1 up. */
export const ratio = (value) => value.toFixed(value < 1 ? 3 : 2)

/** The version of a package installed for the bench (read from its package.json on disk). */
export function versionOf(name) {
  const file = new URL(`node_modules/${name}/package.json`, benchDir)
  return JSON.parse(readFileSync(file, "utf8")).version
}

export function machine() {
  const cpus = os.cpus()
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown CPU",
    cores: cpus.length,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    platform: `${os.platform()} ${os.release()} (${os.arch()})`,
  }
}

/** Runs `main` as a script: an error is printed (without a stack for expected failures). */
export function runAsScript(main) {
  main().catch((error) => {
    console.error(error instanceof BenchError ? `✗ ${error.message}` : error)
    process.exitCode = 1
  })
}

/** A check of the benchmark failed: the numbers would not mean what they say. */
export class BenchError extends Error {}

/** Runs `run` `iterations` times in sequence, each awaited; returns the elapsed milliseconds. */
export async function batch(run, iterations) {
  const start = performance.now()
  for (let i = 0; i < iterations; i++) await run()
  return performance.now() - start
}

/** Runs `run` for about `ms` milliseconds, in doubling batches; returns the operations per second. */
export async function timed(run, ms) {
  let iterations = 0
  let elapsed = 0
  let step = 16
  while (elapsed < ms) {
    elapsed += await batch(run, step)
    iterations += step
    step = Math.min(step * 2, 4096)
  }
  return (iterations / elapsed) * 1000
}

/**
 * Measures candidates `{ run }` in interleaved rounds: a warm-up in `passes` interleaved passes
 * (the last one sizes each candidate's fixed batch to about `batchMs`), then `rounds` rounds in
 * which every candidate runs its batch once, starting with a different one each round. Sets
 * `candidate.rounds` to the operations per second of each round.
 */
export async function interleave(candidates, { passes, warmupMs, batchMs, rounds }) {
  for (let pass = 0; pass < passes; pass++) {
    for (const candidate of candidates) {
      const opsPerSecond = await timed(candidate.run, warmupMs / passes)
      candidate.iterations = Math.max(1, Math.round((opsPerSecond * batchMs) / 1000))
    }
  }
  for (const candidate of candidates) candidate.rounds = []
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[(round + i) % candidates.length]
      const elapsed = await batch(candidate.run, candidate.iterations)
      candidate.rounds.push((candidate.iterations / elapsed) * 1000)
    }
  }
}

/** A TCP port free on 127.0.0.1 right now (it may be taken before a server binds it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}
