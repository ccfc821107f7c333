// The HTTP fuzzer of the built demo: seeded requests (fast-check) of every kind to the demo with
// database sessions and with JWT sessions, each answer checked against the invariants in
// lib/fuzz/invariants.mjs. The saved regressions (fuzz-regressions.json) are replayed first.
//
//   node fuzz.mjs                 full run: 50,000 requests per strategy, results saved
//   node fuzz.mjs --short         a few thousand with a fixed seed (part of the test command)
//   node fuzz.mjs --seed S --requests N [--strategy jwt] [--no-build] [--no-save]
//
// The failing requests of a run are saved as regressions in fuzz-regressions.json (tracked),
// except those of a short run: `npm test` must not change the checkout, and a short run's
// failure may be the machine's (a busy one) rather than the app's. Those go to results/local/
// (git-ignored), to be promoted by hand, as the run prints.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import fc from "fast-check"
import { startMailbox } from "latch-mailbox"
import { readMailbox } from "latch-mailbox/read"
import { buildDemo, freePort, SECRET, startDemo } from "./lib/demo.mjs"
import { liveContext, materialize } from "./lib/fuzz/context.mjs"
import { oversizedArbitrary, requestArbitrary } from "./lib/fuzz/generators.mjs"
import { send } from "./lib/fuzz/http.mjs"
import {
  BOUND_MS,
  checkResponse,
  INVARIANTS,
  secretForms,
  staysOnOrigin,
} from "./lib/fuzz/invariants.mjs"
import { saveResults } from "./lib/results.mjs"

const REGRESSIONS = fileURLToPath(new URL("./fuzz-regressions.json", import.meta.url))
/** Where a short run's failing requests go: git-ignored (.gitignore here). */
const LOCAL_FAILURES = fileURLToPath(new URL("./results/local/", import.meta.url))
const BATCH = 500
/** One request in this many is a multi-megabyte body. */
const OVERSIZED_EVERY = 250
const SHORT = { requests: 3_000, seed: 20_240_611 }

/** Lines of the server's output that mean an answer went wrong on its side. */
const SERVER_FAILURE = /Internal Error|\b50[0-9]\b|Unhandled|uncaught|FATAL/i
// Colour codes in the server's log lines. eslint-disable-next-line is needed: ESC is the point.
// eslint-disable-next-line no-control-regex
const ANSI_COLOR = /\x1b\[[\d;]*m/g

export const loadRegressions = () => JSON.parse(readFileSync(REGRESSIONS, "utf8"))

/** The generated requests of one batch: the same for the same seed, strategy and batch. */
export function batchOf(seed, strategyIndex, batch) {
  const base = (seed + strategyIndex * 1_000_003 + batch * 7_919) | 0
  const requests = fc.sample(requestArbitrary, { seed: base, numRuns: BATCH })
  const oversized = fc.sample(oversizedArbitrary, {
    seed: base ^ 0x5bd1e995,
    numRuns: Math.ceil(BATCH / OVERSIZED_EVERY),
  })
  return requests.map((request, i) =>
    (batch * BATCH + i) % OVERSIZED_EVERY === OVERSIZED_EVERY - 1
      ? oversized[Math.floor(i / OVERSIZED_EVERY)]
      : request,
  )
}

const short = (text, length = 400) =>
  text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text

function describe(request, response) {
  const body =
    request.body?.text !== undefined
      ? short(request.body.text, 300)
      : request.body
        ? `${request.body.count ?? "?"}× ${JSON.stringify(request.body.repeat)}`
        : ""
  return [
    `  request: ${request.method} ${short(request.path, 300)}`,
    ...request.headers.map(([name, value]) => `    ${name}: ${short(value, 200)}`),
    body && `    body: ${JSON.stringify(body)}`,
    response.error
      ? `  answer: none (${response.error})`
      : `  answer: ${response.status} in ${Math.round(response.latency)} ms`,
    ...(response.headers ?? []).map(([name, value]) => `    ${name}: ${short(value, 200)}`),
    response.body && `    body: ${JSON.stringify(short(response.body, 600))}`,
  ]
    .filter(Boolean)
    .join("\n")
}

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0
const round = (ms) => Math.round(ms * 10) / 10

/** Fuzzes one demo (one strategy); returns its figures and failures. */
async function fuzzStrategy({
  strategy,
  strategyIndex,
  requests,
  seed,
  concurrency,
  regressions,
  log,
}) {
  const mailboxDir = mkdtempSync(join(tmpdir(), "latch-fuzz-mail-"))
  const mailbox = await startMailbox({ host: "127.0.0.1", port: await freePort(), dir: mailboxDir })
  const demo = await startDemo({ strategy, smtp: `smtp://127.0.0.1:${mailbox.port}`, mailboxDir })
  // Every line the server prints, not just the tail output() keeps.
  const serverFailures = []
  let pending = ""
  const watch = (chunk) => {
    // A failure line with the error line after it (the stack itself is left out).
    const lines = (pending + String(chunk)).split("\n")
    pending = lines.pop()
    for (const [i, line] of lines.entries())
      if (SERVER_FAILURE.test(line))
        serverFailures.push(`${line} ${lines[i + 1] ?? ""}`.replace(ANSI_COLOR, "").slice(0, 300))
  }
  demo.child.stdout.on("data", watch)
  demo.child.stderr.on("data", watch)
  demo.child.once("close", (code, signal) => {
    if (!stopping)
      log(
        `\nTHE SERVER EXITED (${code ?? signal}); its last output:\n${demo.output().slice(-4_000)}`,
      )
  })
  let stopping = false
  const port = new URL(demo.origin).port
  const secrets = secretForms(SECRET)
  const counts = {}
  const statuses = {}
  const categories = {}
  const latencies = []
  const largeLatencies = []
  const failures = []
  let sent = 0
  let live
  try {
    live = await liveContext(demo.origin)
    const one = async (request, where, n) => {
      const concrete = materialize(request, live, n)
      const response = await send(port, concrete)
      sent++
      categories[request.category] = (categories[request.category] ?? 0) + 1
      if (response.unsendable) return
      const status = response.error ? `no answer (${response.error})` : String(response.status)
      statuses[status] = (statuses[status] ?? 0) + 1
      ;(request.large ? largeLatencies : latencies).push(response.latency)
      const violations = checkResponse(concrete, response, { origin: demo.origin, secrets, counts })
      if (violations.length) {
        failures.push({ strategy, where, violations, request })
        log(
          `\nFAILURE (${strategy}, ${where}, seed ${seed}):\n  ${violations.join("\n  ")}\n${describe(concrete, response)}`,
        )
      }
    }
    // The saved regressions first, each as it was saved.
    for (const [i, regression] of regressions.entries()) {
      if (regression.strategy && regression.strategy !== strategy) continue
      await one(
        { ...regression.request, category: `regression` },
        `regression ${regression.id ?? i}`,
        i,
      )
    }
    const batches = Math.ceil(requests / BATCH)
    for (let batch = 0; batch < batches; batch++) {
      const list = batchOf(seed, strategyIndex, batch).slice(0, requests - batch * BATCH)
      let next = 0
      const worker = async () => {
        while (next < list.length) {
          const i = next++
          await one(
            list[i],
            `batch ${batch}, sample ${i} (request #${batch * BATCH + i})`,
            batch * BATCH + i,
          )
        }
      }
      await Promise.all(Array.from({ length: concurrency }, worker))
      // Generated sign-outs and revocations end sessions: sign in again between batches.
      if (batch % 10 === 9) live = { ...live, ...(await freshSessions(demo.origin, live)) }
      if (batch % 20 === 19) log(`  ${strategy}: ${sent} requests, ${failures.length} failures`)
    }
    // The server is still up and answers its home page.
    const home = await send(port, { method: "GET", path: "/", headers: [] }, {})
    const alive = demo.child.exitCode === null && home.status === 200
    if (!alive)
      failures.push({
        strategy,
        where: "end",
        violations: [`the server is down (${home.status ?? home.error})`],
      })
    const distinct = new Map()
    for (const line of serverFailures) {
      const key = line.replace(/\d+/g, "N")
      distinct.set(key, [...(distinct.get(key) ?? []), line])
    }
    for (const [, lines] of distinct)
      failures.push({
        strategy,
        where: "server output",
        violations: [`${lines[0]} (${lines.length}×)`],
      })
    if (failures.length) log(`\nthe server's last output:\n${demo.output().slice(-6_000)}`)
    // Mailed links point at the app only.
    const mails = readMailbox(mailboxDir)
    const offOrigin = mails
      .flatMap(
        (mail) => ((mail.text ?? "") + (mail.html ?? "")).match(/https?:\/\/[^\s<>"')]+/g) ?? [],
      )
      .filter((url) => !staysOnOrigin(url, demo.origin))
    counts.mailLinks = mails.length
    for (const url of offOrigin)
      failures.push({
        strategy,
        where: "mail",
        violations: [`a mailed link off the origin: ${url}`],
      })
    latencies.sort((a, b) => a - b)
    largeLatencies.sort((a, b) => a - b)
    return {
      strategy,
      requests: sent,
      regressionsReplayed: regressions.filter((r) => !r.strategy || r.strategy === strategy).length,
      categories,
      statuses,
      checks: counts,
      mails: mails.length,
      serverAlive: alive,
      latencyMs: {
        median: round(percentile(latencies, 0.5)),
        p99: round(percentile(latencies, 0.99)),
        max: round(latencies.at(-1) ?? 0),
      },
      largeBodyLatencyMs: {
        count: largeLatencies.length,
        median: round(percentile(largeLatencies, 0.5)),
        max: round(largeLatencies.at(-1) ?? 0),
      },
      failures,
    }
  } finally {
    stopping = true
    await demo.stop()
    await mailbox.close()
    rmSync(mailboxDir, { recursive: true, force: true })
  }
}

/** New sessions when the old ones were signed out; the old ones when signing in is refused. */
async function freshSessions(origin, live) {
  try {
    const { sessions } = await liveContext(origin)
    return { sessions }
  } catch {
    return { sessions: live.sessions }
  }
}

/**
 * Runs the fuzzer: `requests` generated requests per strategy (after the saved regressions),
 * from `seed`. Resolves to the results object (see the README of the results in fuzz.mjs).
 */
export async function runFuzz({
  requests = 50_000,
  seed = Date.now() % 2 ** 31,
  strategies = ["database", "jwt"],
  concurrency = 12,
  log = console.log,
} = {}) {
  const started = performance.now()
  const regressions = loadRegressions()
  const perStrategy = []
  for (const strategy of strategies) {
    log(`fuzzing the demo with ${strategy} sessions: ${requests} requests, seed ${seed}`)
    perStrategy.push(
      await fuzzStrategy({
        strategy,
        strategyIndex: ["database", "jwt"].indexOf(strategy),
        requests,
        seed,
        concurrency,
        regressions,
        log,
      }),
    )
  }
  const failures = perStrategy.flatMap((result) => result.failures)
  const sum = (key) => perStrategy.reduce((total, result) => total + result[key], 0)
  return {
    seed,
    requestsPerStrategy: requests,
    requestsSent: sum("requests"),
    concurrency,
    boundMs: BOUND_MS,
    invariants: INVARIANTS,
    durationSeconds: Math.round((performance.now() - started) / 100) / 10,
    command: `node reliability/fuzz.mjs --seed ${seed} --requests ${requests}${strategies.length < 2 ? ` --strategy ${strategies[0]}` : ""}`,
    strategies: perStrategy.map(({ failures: list, ...rest }) => ({
      ...rest,
      failures: list.length,
    })),
    failures,
  }
}

/**
 * The failing requests of a run as regressions, numbered on from the `count` already saved (so
 * that they can be appended to fuzz-regressions.json as they are).
 */
function regressionsOf(failures, seed, count) {
  return failures
    .filter((failure) => failure.request)
    .map((failure, i) => ({
      id: `seed-${seed}-${count + i}`,
      seed,
      strategy: failure.strategy,
      found: failure.violations.join("; ").slice(0, 300),
      request: failure.request,
    }))
}

/** Saves the failing requests of a run as regressions, replayed first by every later run. */
function saveRegressions(failures, seed) {
  const saved = loadRegressions()
  saved.push(...regressionsOf(failures, seed, saved.length))
  writeFileSync(REGRESSIONS, `${JSON.stringify(saved, null, 2)}\n`)
}

/**
 * Saves the failing requests of a short run under results/local/, never in the tracked
 * regressions, and says how to promote them.
 */
function saveLocalFailures(failures, seed) {
  const found = regressionsOf(failures, seed, loadRegressions().length)
  if (found.length === 0) return
  mkdirSync(LOCAL_FAILURES, { recursive: true })
  const stamp = new Date().toISOString().replace(/[:.]/g, "-")
  const file = join(LOCAL_FAILURES, `fuzz-failures-${stamp}.json`)
  writeFileSync(file, `${JSON.stringify(found, null, 2)}\n`)
  const shown = relative(fileURLToPath(new URL("..", import.meta.url)), file)
  console.error(
    [
      `The failing requests of this short run are in ${shown} (git-ignored); ` +
        `reliability/fuzz-regressions.json is unchanged.`,
      `To keep one as a regression, replayed first by every later run: check with the command ` +
        `below that it fails again (a busy machine can fail the latency check), then copy its ` +
        `entry into the array in reliability/fuzz-regressions.json and commit it with the fix.`,
    ].join("\n"),
  )
}

async function main(argv) {
  const option = (name) => {
    const i = argv.indexOf(`--${name}`)
    return i === -1 ? undefined : argv[i + 1]
  }
  const isShort = argv.includes("--short")
  const requests = Number(option("requests") ?? (isShort ? SHORT.requests / 2 : 50_000))
  const seed = Number(option("seed") ?? (isShort ? SHORT.seed : Date.now() % 2 ** 31))
  const strategies = option("strategy") ? [option("strategy")] : ["database", "jwt"]
  const concurrency = Number(option("concurrency") ?? 12)
  if (!argv.includes("--no-build")) buildDemo()
  const results = await runFuzz({ requests, seed, strategies, concurrency })
  for (const s of results.strategies)
    console.log(
      `${s.strategy}: ${s.requests} requests, ${s.failures} failures, latency median ${s.latencyMs.median} ms, p99 ${s.latencyMs.p99} ms, max ${s.latencyMs.max} ms; statuses ${JSON.stringify(s.statuses)}`,
    )
  console.log(`${results.requestsSent} requests in ${results.durationSeconds} s, seed ${seed}`)
  if (!isShort && !option("requests") && !option("strategy")) saveResults("fuzz", results)
  for (const failure of results.failures.filter((f) => !f.request))
    console.error(
      `FAILURE (${failure.strategy}, ${failure.where}): ${failure.violations.join("; ")}`,
    )
  if (results.failures.length) {
    const save = isShort ? saveLocalFailures : saveRegressions
    if (!argv.includes("--no-save")) save(results.failures, seed)
    console.error(
      `${results.failures.length} invariant failures; reproduce with: ${results.command}`,
    )
    process.exit(1)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2))
