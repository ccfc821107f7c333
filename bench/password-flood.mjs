// A real user's password sign-in, and the server's memory, while anonymous sign-ups flood it:
// the server of bench/lib/password-server.mjs (`Auth()` behind node:http, one Password provider
// at its defaults) in a process of its own, a user signing in one request after another, and
// FLOOD sign-up loops of anonymous clients, each with a request always in flight. Rounds
// alternate the user's sign-ins alone and under the flood, in an order rotating per round; the
// server's resident memory is read from /proc while each runs. `node password-flood.mjs` prints
// the results; `node index.mjs` also writes them into README.md.
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import {
  BenchError,
  benchDir,
  isMain,
  median,
  QUICK,
  ratio,
  ratios,
  runAsScript,
  verdict,
} from "./lib/common.mjs"
import { rssBytes } from "./lib/servers.mjs"

const SERVER = fileURLToPath(new URL("lib/password-server.mjs", benchDir))
const SECRET = "latch-bench-secret-that-is-long-enough-0123456789"
const USER = { email: "alice@example.com", password: "correct horse battery staple" }
/** Anonymous sign-ups in flight at once during a flood (N). */
const FLOOD = 50
const ROUNDS = QUICK ? 3 : 9
/** The user's sign-ins measured per round and condition. */
const SIGN_INS = QUICK ? 8 : 12
/** How long a flood runs before the user's sign-ins are measured under it. */
const RAMP_MS = 1500
/** How often the server's memory is read. */
const SAMPLE_MS = 20
/** The goal: the user's p99 sign-in time under the flood at most this many times unloaded. */
const GOAL = 2
const MiB = 2 ** 20

const fail = (message) => {
  throw new BenchError(message)
}

/** Starts the server; resolves with its origin, process and resolved settings. */
function startServer() {
  const env = { ...process.env, AUTH_SECRET: SECRET, NODE_ENV: "production" }
  delete env.NODE_OPTIONS
  const child = spawn(process.execPath, [SERVER], { env, stdio: ["ignore", "pipe", "pipe"] })
  process.once("exit", () => child.kill())
  let output = ""
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new BenchError(`no server in 20 s:\n${output}`)), 20_000)
    child.stderr.on("data", (chunk) => (output = (output + chunk).slice(-4000)))
    child.once("exit", (code) => reject(new BenchError(`the server exited (${code}):\n${output}`)))
    child.stdout.once("data", (chunk) => {
      clearTimeout(timer)
      const { port, hashing, scrypt } = JSON.parse(String(chunk))
      resolve({ origin: `http://127.0.0.1:${port}`, child, hashing, scrypt, output: () => output })
    })
  })
}

/** A CSRF token and the cookie it goes with, as a browser holds them. */
async function csrfOf(origin) {
  const response = await fetch(`${origin}/auth/csrf`)
  const { csrfToken } = await response.json()
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";", 1)[0])
    .join("; ")
  return { csrfToken, cookie }
}

/** Posts a form; returns the redirect's URL and the `Retry-After` header. */
async function post(origin, path, csrf, fields) {
  const response = await fetch(`${origin}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: csrf.cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: csrf.csrfToken, ...fields }),
  })
  await response.arrayBuffer()
  const location = response.headers.get("location")
  if (!location) fail(`${path} answered ${response.status} without a redirect`)
  return { url: new URL(location, origin), retryAfter: Number(response.headers.get("retry-after")) }
}

/** One sign-in of the user: its milliseconds; it must succeed. */
async function signIn(server, csrf) {
  const started = performance.now()
  const { url } = await post(server.origin, "/auth/callback/password", csrf, USER)
  const elapsed = performance.now() - started
  if (url.searchParams.has("error"))
    fail(`the user's sign-in was refused: ${url}; the server said:\n${server.output()}`)
  return elapsed
}

let sequence = 0

/**
 * FLOOD loops, each posting sign-ups for fresh addresses back to back until `stop()`; one
 * refused as busy waits its `Retry-After` (at most a second) before the next, as a client that
 * keeps the queue full without spinning on refusals. `stop()` resolves once every request in
 * flight has been answered: the server is idle again.
 */
function flood(server, csrf) {
  let running = true
  const counts = { hashed: 0, busy: 0 }
  const loop = async () => {
    while (running) {
      const email = `flood-${process.pid}-${++sequence}@example.com`
      const { url, retryAfter } = await post(server.origin, "/auth/signup/password", csrf, {
        email,
        password: "a new password here",
      })
      if (url.searchParams.get("code") === "busy") {
        counts.busy++
        await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter, 1) * 1000))
      } else if (url.pathname.endsWith("/verify-request")) counts.hashed++
      else fail(`a sign-up answered ${url}; the server said:\n${server.output()}`)
    }
  }
  const loops = Array.from({ length: FLOOD }, loop)
  return {
    counts,
    stop: async () => {
      running = false
      await Promise.all(loops)
    },
  }
}

/** Reads the server's resident memory every SAMPLE_MS until `stop()`, which returns the peak. */
function sampleMemory(pid) {
  let peak = rssBytes(pid)
  const timer = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), SAMPLE_MS)
  return () => {
    clearInterval(timer)
    return Math.max(peak, rssBytes(pid))
  }
}

/** The q-quantile of `values` (nearest rank). */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
}

async function measure(server, csrf, condition) {
  const load = condition === "flood" ? flood(server, csrf) : undefined
  const peak = sampleMemory(server.child.pid)
  if (load) await new Promise((resolve) => setTimeout(resolve, RAMP_MS))
  const times = []
  for (let i = 0; i < SIGN_INS; i++) times.push(await signIn(server, csrf))
  const rss = peak()
  await load?.stop()
  return { times, rss, counts: load?.counts }
}

async function main() {
  const server = await startServer()
  try {
    const csrf = await csrfOf(server.origin)
    // Warm-up: both conditions once, unmeasured (the first derivations and requests run slower).
    for (let i = 0; i < 3; i++) await signIn(server, csrf)
    const idle = rssBytes(server.child.pid)
    const rounds = []
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? ["flood", "alone"] : ["alone", "flood"]
      const result = {}
      for (const condition of order) result[condition] = await measure(server, csrf, condition)
      rounds.push(result)
    }
    return { rounds, idle, hashing: server.hashing, scrypt: server.scrypt }
  } finally {
    server.child.kill()
  }
}

const ms = (value) => `${value.toFixed(0)} ms`
const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`

export async function runPasswordFlood() {
  const started = performance.now()
  const { rounds, idle, hashing, scrypt } = await main()
  const seconds = (performance.now() - started) / 1000
  const all = (condition) => rounds.flatMap((round) => round[condition].times)
  const perRound = (condition, q) => rounds.map((round) => quantile(round[condition].times, q))
  // Per round: each condition's p99 (of its SIGN_INS, so its slowest) and median; their ratios.
  const p99 = ratios(perRound("flood", 0.99), perRound("alone", 0.99))
  const mid = ratios(perRound("flood", 0.5), perRound("alone", 0.5))
  const pooled = {
    alone: { median: median(all("alone")), p99: quantile(all("alone"), 0.99) },
    flood: { median: median(all("flood")), p99: quantile(all("flood"), 0.99) },
  }
  const peakAlone = Math.max(...rounds.map((round) => round.alone.rss))
  const peakFlood = Math.max(...rounds.map((round) => round.flood.rss))
  const derivation = 128 * scrypt.r * 2 ** scrypt.ln
  const cap = hashing.concurrency * derivation
  // What the flood adds to the memory of the user's sign-ins alone (which hold one derivation).
  const added = peakFlood - peakAlone
  const hashed = rounds.reduce((sum, round) => sum + round.flood.counts.hashed, 0)
  const busy = rounds.reduce((sum, round) => sum + round.flood.counts.busy, 0)
  const p99Verdict = verdict(p99, GOAL, { atMost: true })
  const rssVerdict = added <= cap ? "met" : "missed"

  const summary =
    `Password sign-in under a flood of ${FLOOD} anonymous sign-ups ÷ alone: p99 ` +
    `${ratio(p99.median)}× (95% CI ${ratio(p99.low)}–${ratio(p99.high)}), median ` +
    `${ratio(mid.median)}×; the server's resident memory at most ${mib(peakAlone)} with the ` +
    `user alone and ${mib(peakFlood)} under the flood (+${mib(added)}; the hashing cap ` +
    `${hashing.concurrency} × ${mib(derivation)} = ${mib(cap)}; ${mib(idle)} idle)`
  console.table({
    alone: {
      "median ms": pooled.alone.median,
      "p99 ms": pooled.alone.p99,
      "peak RSS MiB": peakAlone / MiB,
    },
    flood: {
      "median ms": pooled.flood.median,
      "p99 ms": pooled.flood.p99,
      "peak RSS MiB": peakFlood / MiB,
    },
  })
  console.log(summary)
  console.log(`flood: ${hashed} sign-ups hashed, ${busy} refused as busy`)

  const goals = [
    {
      area: "Passwords",
      label: `a user's sign-in p99 under a flood of ${FLOOD} anonymous sign-ups ÷ without`,
      goal: `≤ ${GOAL}×`,
      value: `${ratio(p99.median)}× (95% CI ${ratio(p99.low)}–${ratio(p99.high)})`,
      verdict: p99Verdict,
      note: `${ms(pooled.flood.p99)} vs ${ms(pooled.alone.p99)} over all rounds; median ${ratio(mid.median)}×`,
    },
    {
      area: "Passwords",
      label: `the server's peak resident memory under that flood, above the user's sign-ins alone`,
      goal: `≤ the hashing cap (${hashing.concurrency} × ${mib(derivation)})`,
      value: `+${mib(added)} (${mib(peakAlone)} → ${mib(peakFlood)})`,
      verdict: rssVerdict,
      note: `${mib(idle)} idle, between requests`,
    },
  ]
  const rows = ["alone", "flood"]
    .map((condition) => {
      const peak = condition === "alone" ? peakAlone : peakFlood
      const label = condition === "alone" ? "the user alone" : `under ${FLOOD} sign-ups`
      return `| ${label} | ${ms(pooled[condition].median)} | ${ms(pooled[condition].p99)} | ${mib(peak)} |`
    })
    .join("\n")
  const markdown = `## Password hashing under a flood of sign-ups

**${summary}.** Anyone may post the sign-up form, and each sign-up costs a scrypt derivation:
budgets per client and for the app stop most of a flood before it hashes, and what passes them
runs a few derivations at once, the account holders' first. The user's sign-in should stay
within ${GOAL}× its time alone (p99), and the server's memory within the cap.

What is measured (\`bench/password-flood.mjs\`): \`Auth()\` of @latch/core behind \`node:http\` in a
process of its own (\`bench/lib/password-server.mjs\`), one \`Password\` provider at its defaults
(scrypt N = 2^${scrypt.ln}, r = ${scrypt.r}, p = ${scrypt.p}; \`hashing.concurrency\` ${hashing.concurrency},
\`hashing.queue\` ${hashing.queue} on this machine), an adapter in memory whose counters never refuse (so
every sign-up reaches the limiter: the worst case, an attacker with addresses enough to stay
under every budget), mails kept in memory. A user signs in ${SIGN_INS} times in a row, alone and then
under the flood (or the other way round, alternating), in each of ${ROUNDS} rounds; the flood is
${FLOOD} loops of fresh sign-ups, each with a request always in flight (one refused as busy waits
its \`Retry-After\`, at most a second), running ${RAMP_MS / 1000} s before the sign-ins are measured
and until they end; it then drains before the next measurement. The ratio is per round (each
condition's p99 of its ${SIGN_INS} sign-ins, that is its slowest), with a distribution-free 95% interval
of its median. The server's resident memory (\`VmRSS\`) is read every ${SAMPLE_MS} ms during each
measurement; the goal compares what the flood adds to the peak of the user's sign-ins alone
(which hold one derivation at a time) with the cap: ${hashing.concurrency} derivations of ${mib(derivation)} at once.
Without a cap, each sign-up in flight would hold its own derivation's memory. Under the floods, ${hashed} sign-ups were hashed
and ${busy} refused as busy.

| The user's sign-ins | Median | p99 | Server's peak RSS |
| --- | ---: | ---: | ---: |
${rows}
`
  return { summary, goals, markdown, seconds, rounds: ROUNDS }
}

if (isMain(import.meta.url)) runAsScript(runPasswordFlood)
