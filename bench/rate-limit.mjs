// What the credentials rate limit costs a sign-in: the SvelteKit app of bench/app served twice,
// `BENCH_MODE=latch` (the limit on, as by default) and `BENCH_MODE=latch-unlimited`
// (`rateLimit: false`), loaded with whole sign-ins as bench/http.mjs loads them, in interleaved
// rounds. `node rate-limit.mjs` prints the results; `node index.mjs` (the `bench` script) also
// writes them into README.md, with the section `runRateLimit()` returns.
import {
  BenchError,
  isMain,
  median,
  ops,
  QUICK,
  ratio,
  ratios,
  runAsScript,
  verdict,
} from "./lib/common.mjs"
import { CONNECTIONS, COOKIE_NAMES } from "./lib/http-scenarios.mjs"
import { measureRateLimitCpu } from "./lib/rate-limit-cpu.mjs"
import { buildApp, cpuSeconds, loadGenerator, signIn, startServer, stop } from "./lib/servers.mjs"

const MODES = ["latch", "latch-unlimited"]
const ROUNDS = QUICK ? 5 : 11 // odd, so each median is one measured round
const SECONDS = 1 // per measurement
const WARMUP_SECONDS = 3 // per server, once, before the rounds (the first seconds run slower on both)
const COOKIE_NAME = COOKIE_NAMES.latch

function fail(message) {
  throw new BenchError(message)
}

/**
 * Checks that the two servers differ in what they say: wrong passwords for one account from one
 * address are refused with `code=rate_limited` after 5 with the limit on, never with it off.
 */
async function verify(servers) {
  const account = `mallory-${process.pid}-${Date.now()}`
  for (const mode of MODES) {
    const { origin } = servers[mode]
    let last
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${origin}/auth/callback/credentials`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({ username: account, password: `guess-${i}` }),
      })
      await response.arrayBuffer()
      last = response
    }
    const code = new URL(last.headers.get("location") ?? "", origin).searchParams.get("code")
    const expected = mode === "latch" ? "rate_limited" : "credentials"
    if (code !== expected) fail(`${mode}: the 6th wrong password answered code=${code}`)
    if (mode === "latch" && !/^\d+$/.test(last.headers.get("retry-after") ?? ""))
      fail(`${mode}: a rate-limited answer without Retry-After`)
    // And a sign-in works on both.
    await signIn(origin, COOKIE_NAME, { csrf: true })
  }
}

/** One measurement: sign-ins per second, and per second of the server's CPU time. */
async function measure(load, server, seconds) {
  const cpuBefore = cpuSeconds(server.child.pid)
  const result = await load({
    url: server.origin,
    signIn: { cookieName: COOKIE_NAME, csrf: true },
    duration: seconds,
  })
  const where = `${server.mode}: sign-ins`
  if (result.errors || result.timeouts)
    fail(`${where}: ${result.errors} errors, ${result.timeouts} timeouts under load`)
  if (result.failed)
    fail(`${where}: ${result.failed} sign-ins failed under load (last: ${result.lastFailure})`)
  if (!result.signIns) fail(`${where}: nothing completed`)
  const cpu = cpuSeconds(server.child.pid) - cpuBefore
  return { rate: result.signIns / result.seconds, perCpu: cpu > 0 ? result.signIns / cpu : NaN }
}

const interval = ({ low, high }) => `${ratio(low)}–${ratio(high)}`

function report(results, { rounds, seconds, cpu }) {
  const metrics = Object.values(results.perCpu).every((values) => values.every(Number.isFinite))
    ? ["rate", "perCpu"]
    : ["rate"]
  const rows = metrics.map((metric) => {
    const on = results[metric].latch
    const off = results[metric]["latch-unlimited"]
    return { metric, on: median(on), off: median(off), ...ratios(on, off) }
  })
  const [rate] = rows
  const summary =
    `Credentials rate limit: ${ratio(rate.median)}× the sign-ins per second with the limit on ` +
    `(the default) as with \`rateLimit: false\` over HTTP (95% CI ${interval(rate)}); ` +
    `${ratio(cpu.median)}× in one process, without HTTP (95% CI ${interval(cpu)})`
  console.log("median sign-ins per second")
  console.table(
    Object.fromEntries(
      rows.map((row) => [
        row.metric === "rate" ? "per second" : "per server CPU-second",
        {
          "limit on": ops(row.on),
          "limit off": ops(row.off),
          "on/off": ratio(row.median),
          "95% CI": interval(row),
        },
      ]),
    ),
  )
  console.log(summary)

  const table = rows
    .map(
      (row) =>
        `| ${row.metric === "rate" ? "per second" : "per server CPU-second"} | ${ops(row.on)} | ` +
        `${ops(row.off)} | **${ratio(row.median)}** | ${interval(row)} | ${ratio(row.min)}–${ratio(row.max)} |`,
    )
    .join("\n")
  const markdown = `## The credentials rate limit

**With its credentials rate limit on (the default), Latch completes ${ratio(cpu.median)}× the
sign-ins per second it completes with \`rateLimit: false\`** (on/off in one process, where the sign-ins are
all the work, median of per-round ratios; 95% CI ${interval(cpu)}), and ${ratio(rate.median)}× the sign-ins per second
over HTTP (95% CI ${interval(rate)}).

In one process (\`bench/lib/rate-limit-cpu.mjs\`): the same form-encoded \`POST
/auth/callback/credentials\` through \`Auth()\` of the built \`@latch/core\`, with its CSRF token,
the next of 1,000 accounts, from one client address, ${cpu.batch} sign-ins with each configuration
per round, interleaved one by one (which goes first changes at every pair) and each timed on its
own (${cpu.rounds} rounds after a warm-up round): no HTTP server and no load generator share the
two cores, and the two configurations see the same heap and the same moments of the process, so
this is the measurement that can tell a few percent apart; ${ops(cpu.on)} and ${ops(cpu.off)}
sign-ins per second of their own time (medians), min–max of the per-round ratios
${ratio(cpu.min)}–${ratio(cpu.max)}.

Over HTTP:

What is measured (\`bench/rate-limit.mjs\`): the app of _Serving pages over HTTP_ served twice,
\`BENCH_MODE=latch\` (\`Credentials({ … })\`, the limit on) and \`BENCH_MODE=latch-unlimited\`
(\`Credentials({ …, rateLimit: false })\`), loaded as _Signing in_ loads them: ${CONNECTIONS}
connections each signing in over and over (\`GET /auth/csrf\`, then a form-encoded \`POST
/auth/callback/credentials\`), each sign-in to the next of 1,000 accounts, all from 127.0.0.1.
With the limit on, every attempt is counted before \`authorize\` runs, in the process's memory
store (the app has no adapter), under HMAC-named counters: the first sign-in of a pair
(account, address) reads whether it is known and counts the pair, the address and the account;
every later one — most of this load, as most sign-ins of a real site — counts the pair's attempt
before \`authorize\` and its success after, nothing else. The HMACs of the last 4,096 accounts
and addresses are kept, and this load reuses them all: a site whose sign-ins come from ever new
addresses pays one more each time (about 5 µs). Before the rounds the run
checks that the servers differ as they should: a sixth wrong password for one account answers
\`code=rate_limited\` with \`Retry-After\` with the limit on, \`code=credentials\` with it off.
After a ${WARMUP_SECONDS} s warm-up per server, ${rounds} rounds run ${SECONDS} s of sign-ins on
each server, in an order alternating by round; each ratio is taken per round, then its median.
The bench's \`authorize\` only compares a name: with a real password hash (tens of milliseconds of
scrypt or argon2) the limit's share of a sign-in is far smaller.

| Sign-ins | limit on | limit off | on/off (median) | 95% CI | min–max |
| --- | ---: | ---: | ---: | ---: | ---: |
${table}

Not measured here: a refused attempt, which does less than a sign-in (no \`authorize\`, no
session). This part took ${seconds.toFixed(0)} s.
`
  const goals = [
    {
      area: "Credentials",
      label: "sign-ins per second, rate limit on ÷ off, in one process",
      goal: "≥ 0.95 (the limit costs at most 5% of a sign-in)",
      value: `${ratio(cpu.median)}× (95% CI ${interval(cpu)})`,
      verdict: verdict(cpu, 0.95),
      note: `over HTTP ${ratio(rate.median)}×, 95% CI ${interval(rate)}`,
    },
  ]
  return { markdown, summary, goals }
}

/**
 * Runs the benchmark and prints its results; returns the README section (`markdown`, `summary`)
 * and `seconds`. `build: false` reuses bench/app's build (bench/http.mjs made one).
 */
export async function runRateLimit({ build = true } = {}) {
  if (build) {
    console.log("\nbuilding bench/app (vite build)…")
    buildApp()
  }
  const servers = {}
  let generator
  try {
    for (const mode of MODES) servers[mode] = await startServer(mode)
    await verify(servers)
    generator = loadGenerator({ connections: CONNECTIONS })
    const { load } = generator
    const started = performance.now()
    console.log(
      `\ncredentials rate limit: ${ROUNDS} rounds of ${SECONDS} s of sign-ins on ${MODES.join(" and ")}`,
    )
    for (const mode of MODES) await measure(load, servers[mode], WARMUP_SECONDS)
    const empty = () => Object.fromEntries(MODES.map((mode) => [mode, []]))
    const results = { rate: empty(), perCpu: empty() }
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < MODES.length; i++) {
        const mode = MODES[(round + i) % MODES.length]
        const { rate, perCpu } = await measure(load, servers[mode], SECONDS)
        results.rate[mode].push(rate)
        results.perCpu[mode].push(perCpu)
      }
      console.log(
        `round ${round + 1}/${ROUNDS}: ${MODES.map((m) => `${m} ${ops(results.rate[m][round])}/s`).join(", ")}`,
      )
    }
    for (const server of Object.values(servers)) {
      if (/error/i.test(server.output()))
        fail(`the ${server.mode} server logged an error:\n${server.output()}`)
    }
    console.log("\ncredentials rate limit in one process, without HTTP…")
    const cpu = await measureRateLimitCpu()
    const seconds = (performance.now() - started) / 1000
    return { ...report(results, { rounds: ROUNDS, seconds, cpu }), seconds }
  } finally {
    if (generator) generator.worker.disconnect()
    await Promise.all(Object.values(servers).map((server) => stop(server.child)))
  }
}

if (isMain(import.meta.url)) {
  runAsScript(async () => {
    const { summary } = await runRateLimit({ build: process.env.BENCH_NO_BUILD !== "1" })
    console.log(`\n${summary}`)
  })
}
