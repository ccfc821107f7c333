// The memory section of bench/http.mjs: the servers' resident memory after boot, after the HTTP
// rounds, and after each batch of signed-in requests of the memory phase, with a growth check.
import { median, ops, verdict } from "./common.mjs"
import { CONNECTIONS, MEMORY, MODES } from "./http-scenarios.mjs"

const MODE_NAMES = { none: "none", floor: "floor", latch: "latch", authjs: "Auth.js" }
const MiB = 2 ** 20
const mib = (bytes) => (Number.isFinite(bytes) ? `${(bytes / MiB).toFixed(1)} MiB` : "—")

/** Growth beyond which resident memory is said to grow: this many MiB, or this share of it. */
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
 * How much a server's memory still grows at the end: the Theil–Sen slope of RSS over the
 * requests served, fitted to the last half of the batches (at least 3), times the requests of
 * that half, with its 95% interval. The goal "no growth": at most `GROWTH_MIB` MiB or
 * `GROWTH_SHARE` of the mean RSS of that half, whichever is larger; settled when the whole
 * interval is on one side of it.
 */
function growthOf(samples) {
  const tail = samples.slice(-Math.max(3, Math.ceil(samples.length / 2)))
  const fit = theilSen(tail.map((s) => ({ x: s.requests, y: s.rss })))
  const span = tail.at(-1).requests - tail[0].requests
  const mean = tail.reduce((sum, s) => sum + s.rss, 0) / tail.length
  const limit = Math.max(GROWTH_MIB * MiB, GROWTH_SHARE * mean)
  const growth = { median: fit.slope * span, low: fit.low * span, high: fit.high * span }
  return {
    batches: tail.length,
    span,
    ...growth,
    limit,
    verdict: verdict(growth, limit, { atMost: true }),
  }
}

const signed = (bytes) => `${bytes >= 0 ? "+" : "−"}${(Math.abs(bytes) / MiB).toFixed(1)}`

export function reportMemory({ samples, requests, seconds, rss, servedInRounds, served }) {
  const rows = MODES.map((mode) => {
    const batches = samples[mode]
    const growth = batches && batches.length >= 3 ? growthOf(batches) : undefined
    return {
      mode,
      boot: rss.boot[mode],
      afterRounds: rss.rounds[mode].at(-1),
      first: batches?.[0]?.rss,
      last: batches?.at(-1)?.rss,
      max: batches ? Math.max(...batches.map((s) => s.rss)) : undefined,
      requests: requests[mode],
      batches: batches?.length ?? 0,
      servedInRounds: servedInRounds[mode],
      served: served[mode],
      growth,
    }
  })
  const latch = rows.find((row) => row.mode === "latch")
  const reached = latch.requests >= MEMORY.requests
  const latchVerdict = !latch.growth
    ? "not measured"
    : reached
      ? latch.growth.verdict
      : `${latch.growth.verdict}, over ${ops(latch.requests)} requests only`
  const growthText = (growth) =>
    growth
      ? `${signed(growth.median)} MiB (95% CI ${signed(growth.low)} to ${signed(growth.high)}) over the last ${growth.batches} batches (${ops(growth.span)} requests)`
      : "—"
  const limitText = (growth) => `at most ${(growth.limit / MiB).toFixed(1)} MiB`

  console.table(
    Object.fromEntries(
      rows.map((row) => [
        row.mode,
        {
          boot: mib(row.boot),
          "after rounds": mib(row.afterRounds),
          first: mib(row.first),
          last: mib(row.last),
          max: mib(row.max),
          "memory-phase requests": row.batches ? ops(row.requests) : "—",
          "fitted growth, last half": growthText(row.growth),
          "no growth": row.growth ? `${row.growth.verdict} (${limitText(row.growth)})` : "—",
        },
      ]),
    ),
  )
  const summary =
    `Memory: the latch server's RSS went ${mib(latch.first)} → ${mib(latch.last)} over ` +
    `${ops(latch.requests)} requests with the session (${latch.batches} batches; ${ops(latch.served)} ` +
    `with the session since it started); fitted growth ${growthText(latch.growth)}: ` +
    `no growth (${latch.growth ? limitText(latch.growth) : "—"}) ${latchVerdict}`
  console.log(summary)

  const table = rows
    .map(
      (row) =>
        `| ${MODE_NAMES[row.mode]} | ${mib(row.boot)} | ${mib(row.afterRounds)} (${ops(row.servedInRounds)}) | ` +
        (row.batches
          ? `${mib(row.first)} | ${mib(row.last)} | ${mib(row.max)} | ${ops(row.requests)} | ${growthText(row.growth)} | ${limitText(row.growth)}: ${row.growth.verdict} |`
          : "— | — | — | — | — | — |"),
    )
    .join("\n")

  const goals = [
    {
      area: "Memory",
      label: `resident memory of the latch server after ${ops(MEMORY.requests)} requests with a session`,
      goal: `no growth across rounds (${latch.growth ? limitText(latch.growth) : "—"} over the last half)`,
      value: `${mib(latch.first)} → ${mib(latch.last)}; fitted ${growthText(latch.growth)}`,
      verdict: latchVerdict,
    },
  ]

  const markdown = `## Memory

**The latch server's resident memory went ${mib(latch.first)} → ${mib(latch.last)} over the
${latch.batches} batches of the memory phase (${ops(latch.requests)} requests with the session);
fitted, it changed by ${growthText(latch.growth)}** — goal "no growth across rounds"
(${latch.growth ? limitText(latch.growth) : "—"}): ${latchVerdict}.

What is measured (\`bench/http.mjs\`, after the HTTP rounds, on the same servers): the resident
set size (\`VmRSS\` of \`/proc/<pid>/status\`) of each server process, after it booted, after the HTTP
rounds, and after each batch of the memory phase. A batch is ${MEMORY.seconds} s of load from the
same generator (${CONNECTIONS} connections) on one server, each connection asking for
${MEMORY.paths.map((path) => `\`${path}\``).join(" and ")} in turn with that server's session cookie
(every answer must be a 200). The batches rotate over the servers that read sessions (${MEMORY.modes.map((m) => MODE_NAMES[m]).join(", ")}),
round after round, until the latch server has served at least ${ops(MEMORY.requests)} of these
requests (${MEMORY.minRounds} rounds at least, ${MEMORY.maxRounds} at most); the others get the same
time, and serve as many requests as they can in it. No garbage collection is forced: this is the
memory a server keeps while it works. Growth is judged on the last half of the batches (at least
3): the Theil–Sen slope of RSS over the requests served (the median of the slopes between every
two batches, which a garbage collection in one batch barely moves), times the requests of that
half, with the slope's distribution-free 95% confidence interval. "No growth" allows at most
${GROWTH_MIB} MiB or ${GROWTH_SHARE * 100}% of the RSS, whichever is larger, over that half (over 50,000
requests, 2 MiB is about 40 bytes kept per request); like the ratios, the verdict is settled
(**met**, **missed**) when the interval is on one side of it, _within noise_ otherwise. RSS
moves with the garbage collector's heap sizing and with the memory pressure of other processes,
so on a busy machine the interval is wide.

| Server | RSS after boot | After the HTTP rounds (requests with a session so far) | Memory phase: first batch | Last batch | Max | Requests in the memory phase | Fitted growth, last half | No growth |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |
${table}

All four servers run the same build, with both libraries loaded whatever the mode; the none
server takes no part in the memory phase (it has no session to read). The memory phase took
${seconds.toFixed(0)} s.
`

  return { markdown, summary, goals }
}
