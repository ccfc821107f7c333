// The memory section of bench/http.mjs: the servers' resident memory after boot, after the HTTP
// rounds, and after each batch of signed-in requests of the memory phase, with the live heap
// left by the full garbage collections, and whether either grows over the phase.
import { median, ops, verdict } from "./common.mjs"
import { CONNECTIONS, MEMORY, MODES } from "./http-scenarios.mjs"

const MODE_NAMES = { none: "none", floor: "floor", latch: "latch", authjs: "Auth.js" }
const MiB = 2 ** 20
const mib = (bytes) => (Number.isFinite(bytes) ? `${(bytes / MiB).toFixed(1)} MiB` : "—")
const signed = (bytes) => `${bytes >= 0 ? "+" : "−"}${(Math.abs(bytes) / MiB).toFixed(1)}`

/** Growth allowed over the memory phase: this many MiB, or this share of the RSS if larger. */
const GROWTH_MIB = 2
const GROWTH_SHARE = 0.02

/**
 * The Theil–Sen slope of `y` over `x` — the median of the slopes between every two points, which
 * a garbage collection dropping RSS in one batch barely moves — and its distribution-free 95%
 * confidence interval (Sen, 1968: order statistics of those slopes, from the variance of
 * Kendall's statistic).
 */
function theilSen(points) {
  const slopes = []
  for (let i = 0; i < points.length; i++)
    for (let j = i + 1; j < points.length; j++)
      if (points[j].x !== points[i].x)
        slopes.push((points[j].y - points[i].y) / (points[j].x - points[i].x))
  slopes.sort((a, b) => a - b)
  const n = points.length
  const count = slopes.length
  const c = 1.96 * Math.sqrt((n * (n - 1) * (2 * n + 5)) / 18)
  const lower = Math.max(0, Math.floor((count - c) / 2) - 1)
  const upper = Math.min(count - 1, Math.ceil((count + c) / 2))
  return { slope: median(slopes), low: slopes[lower], high: slopes[upper] }
}

/**
 * How much `key` (`rss` or `heap`) of a server's batches grows over the memory phase: the
 * Theil–Sen slope over the requests served, times the requests between the first and the last
 * batch, with its 95% interval, and the verdict against `limit` bytes ("no growth": at most
 * that, settled when the whole interval is on one side of it). `undefined` below 3 batches.
 */
function growthOf(batches, key, limit) {
  const points = batches.filter((b) => Number.isFinite(b[key]))
  if (points.length < 3) return undefined
  const fit = theilSen(points.map((b) => ({ x: b.requests, y: b[key] })))
  const span = points.at(-1).requests - points[0].requests
  const growth = { median: fit.slope * span, low: fit.low * span, high: fit.high * span }
  return {
    points: points.length,
    first: points[0][key],
    last: points.at(-1)[key],
    span,
    ...growth,
    limit,
    verdict: verdict(growth, limit, { atMost: true }),
  }
}

const growthText = (growth) =>
  growth
    ? `${signed(growth.median)} MiB (95% CI ${signed(growth.low)} to ${signed(growth.high)})`
    : "—"
const limitText = (growth) => (growth ? `≤ ${(growth.limit / MiB).toFixed(1)} MiB` : "—")

export function reportMemory({ samples, requests, seconds, rss, servedInRounds, served }) {
  const rows = MODES.map((mode) => {
    const batches = samples[mode] ?? []
    const meanRss = batches.reduce((sum, b) => sum + b.rss, 0) / (batches.length || 1)
    const limit = Math.max(GROWTH_MIB * MiB, GROWTH_SHARE * meanRss)
    return {
      mode,
      boot: rss.boot[mode],
      afterRounds: rss.rounds[mode].at(-1),
      batches,
      max: batches.length ? Math.max(...batches.map((b) => b.rss)) : undefined,
      requests: requests[mode] ?? 0,
      servedInRounds: servedInRounds[mode],
      served: served[mode],
      rssGrowth: growthOf(batches, "rss", limit),
      heapGrowth: growthOf(batches, "heap", limit),
    }
  })
  const latch = rows.find((row) => row.mode === "latch")
  const reached = latch.requests >= MEMORY.requests
  const verdictOf = (growth) =>
    !growth
      ? "not measured"
      : reached
        ? growth.verdict
        : `${growth.verdict}, over ${ops(latch.requests)} requests only`
  const latchVerdict = verdictOf(latch.rssGrowth)
  const heapVerdict = verdictOf(latch.heapGrowth)
  const firstLast = (growth) => (growth ? `${mib(growth.first)} → ${mib(growth.last)}` : "—")

  console.table(
    Object.fromEntries(
      rows.map((row) => [
        row.mode,
        {
          boot: mib(row.boot),
          "after rounds": mib(row.afterRounds),
          "RSS first → last": firstLast(row.rssGrowth),
          "RSS growth": growthText(row.rssGrowth),
          "RSS verdict": row.rssGrowth?.verdict ?? "—",
          "heap first → last": firstLast(row.heapGrowth),
          "heap growth": growthText(row.heapGrowth),
          "heap verdict": row.heapGrowth?.verdict ?? "—",
          requests: row.batches.length ? ops(row.requests) : "—",
        },
      ]),
    ),
  )
  const summary =
    `Memory: the latch server's RSS went ${firstLast(latch.rssGrowth)} over ` +
    `${ops(latch.requests)} requests with the session (${latch.batches.length} batches; ` +
    `${ops(latch.served)} with the session since it started), fitted ${growthText(latch.rssGrowth)}: ` +
    `no growth (${limitText(latch.rssGrowth)}) ${latchVerdict}; its live heap after full garbage ` +
    `collections ${firstLast(latch.heapGrowth)}, fitted ${growthText(latch.heapGrowth)}: ${heapVerdict}`
  console.log(summary)

  const table = rows
    .map((row) => {
      const head = `| ${MODE_NAMES[row.mode]} | ${mib(row.boot)} | ${mib(row.afterRounds)} (${ops(row.servedInRounds)}) |`
      if (!row.batches.length) return `${head} — | — | — | — | — |`
      const cell = (growth) =>
        growth ? `${firstLast(growth)}; ${growthText(growth)}: ${growth.verdict}` : "—"
      return `${head} ${ops(row.requests)} | ${mib(row.max)} | ${cell(row.rssGrowth)} | ${cell(row.heapGrowth)} (${row.heapGrowth?.points ?? 0} batches) | ${limitText(row.rssGrowth)} |`
    })
    .join("\n")

  const goals = [
    {
      area: "Memory",
      label: `resident memory of the latch server over ${ops(MEMORY.requests)} requests with a session`,
      goal: `no growth across rounds (${limitText(latch.rssGrowth)})`,
      value: `${firstLast(latch.rssGrowth)}; fitted ${growthText(latch.rssGrowth)}`,
      verdict: latchVerdict,
      note: `live heap after full garbage collections ${firstLast(latch.heapGrowth)}, fitted ${growthText(latch.heapGrowth)}: ${heapVerdict}`,
    },
  ]

  const markdown = `## Memory

**Over the memory phase (${latch.batches.length} batches, ${ops(latch.requests)} requests with the
session), the latch server's resident memory went ${firstLast(latch.rssGrowth)}, fitted
${growthText(latch.rssGrowth)}; its live heap, what full garbage collections left,
${firstLast(latch.heapGrowth)}, fitted ${growthText(latch.heapGrowth)}** — goal "no growth across
rounds" (${limitText(latch.rssGrowth)}): ${latchVerdict} for the resident memory, ${heapVerdict} for
the live heap.

What is measured (\`bench/http.mjs\`, after the HTTP rounds, on the same servers): the resident
set size (\`VmRSS\` of \`/proc/<pid>/status\`) of each server process, after it booted, after the HTTP
rounds, and after each batch of the memory phase; and the live heap: the servers run with
\`--trace-gc\` (one line on stdout per garbage collection, the same in every mode), and the heap
size a full (mark-compact) collection left is what the server still references; each batch
keeps the last such figure of the batch, when one ran. A batch is ${MEMORY.seconds} s of load from
the same generator (${CONNECTIONS} connections) on one server, each connection asking for
${MEMORY.paths.map((path) => `\`${path}\``).join(" and ")} in turn with that server's session cookie
(every answer must be a 200). The batches rotate over the servers that read sessions
(${MEMORY.modes.map((m) => MODE_NAMES[m]).join(", ")}), round after round, until the latch server
has served at least ${ops(MEMORY.requests)} of these requests (${MEMORY.minRounds} rounds at least,
${MEMORY.maxRounds} at most); the others get the same time, and serve as many requests as they can
in it. No garbage collection is forced.

Growth over the phase is the Theil–Sen slope of each figure over the requests served (the median
of the slopes between every two batches, which one collection's swing barely moves), times the
requests from the first batch to the last, with the slope's distribution-free 95% confidence
interval. "No growth" allows at most ${GROWTH_MIB} MiB or ${GROWTH_SHARE * 100}% of the RSS,
whichever is larger (over 100,000 requests, 2 MiB is about 20 bytes kept per request); like the
ratios, a verdict is settled (**met**, **missed**) when the interval is on one side of it, _within
noise_ otherwise. Resident memory also moves with the collector's sizing of the heap and with the
memory pressure of other processes, by several MiB from batch to batch; the live heap does not.

| Server | RSS after boot | After the HTTP rounds (requests with a session so far) | Requests in the memory phase | Max RSS | RSS: first → last; fitted growth | Live heap: first → last; fitted growth | No growth |
| --- | ---: | ---: | ---: | ---: | --- | --- | --- |
${table}

All four servers run the same build, with both libraries loaded whatever the mode; the none
server takes no part in the memory phase (it has no session to read). The memory phase took
${seconds.toFixed(0)} s.
`

  return { markdown, summary, goals }
}
