// Serving pages over HTTP: one SvelteKit app (bench/app), built once, served by three processes
// that differ only in how `locals.auth()` works (BENCH_MODE: none, floor, latch), loaded by
// autocannon from a separate process. `node http.mjs` prints the results; `node index.mjs` (the
// `bench` script) also writes them into README.md, with the section `runHttp()` returns.
import { fork, spawn, spawnSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { createServer } from "node:net"
import os from "node:os"
import { fileURLToPath } from "node:url"
import {
  BenchError,
  benchDir,
  isMain,
  median,
  ops,
  ratio,
  ratios,
  runAsScript,
} from "./lib/common.mjs"

const APP_DIR = fileURLToPath(new URL("app/", import.meta.url))
const SERVER = fileURLToPath(new URL("app/build/index.js", import.meta.url))
const WORKER = fileURLToPath(new URL("lib/load-worker.mjs", import.meta.url))
const SECRET = "latch-bench-secret-that-is-long-enough-0123456789"
const COOKIE_NAME = "latch.session-token" // no `__Secure-` prefix: the servers are plain http
const USER = "Alice" // the name the app's credentials provider gives user "alice"
const MODES = ["none", "floor", "latch"]
const ROUNDS = 19 // odd, so each median is one measured round
const SECONDS = 1 // per measurement: short, so that the modes compared in a round run close in time
const WARMUP_SECONDS = 1 // per scenario and mode, once, before the rounds
const CONNECTIONS = 10
const GOAL = 0.97 // latch/none on pages without a session

/**
 * What is loaded. `status` is what every response must answer, per mode where it differs:
 * `none` has no session to read, so its /protected redirects even with the cookie.
 */
const SCENARIOS = [
  {
    id: "signedIn",
    label: "`/protected` with the session cookie (3 × `locals.auth()`)",
    path: "/protected",
    cookie: true,
    modes: MODES,
    status: { none: 303, floor: 200, latch: 200 },
  },
  {
    id: "public",
    label: "`/` without cookie (no `locals.auth()`)",
    path: "/",
    cookie: false,
    modes: MODES,
    status: 200,
  },
  {
    id: "anonymous",
    label: "`/protected` without cookie (303 to `/signin`)",
    path: "/protected",
    cookie: false,
    modes: MODES,
    status: 303,
  },
  {
    id: "sessionRoute",
    label: "`GET /auth/session` with the session cookie",
    path: "/auth/session",
    cookie: true,
    modes: ["latch"],
    status: 200,
  },
]

const expectedStatus = (scenario, mode) =>
  typeof scenario.status === "number" ? scenario.status : scenario.status[mode]

function fail(message) {
  throw new BenchError(message)
}

// --- The app and its servers -------------------------------------------------------------------

/** `vite build` in bench/app, once for the three modes; returns the seconds it took. */
function buildApp() {
  const started = performance.now()
  const vite = fileURLToPath(new URL("node_modules/vite/bin/vite.js", benchDir))
  const result = spawnSync(process.execPath, [vite, "build"], { cwd: APP_DIR, encoding: "utf8" })
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr)
    fail(`vite build of bench/app failed (exit ${result.status ?? result.signal})`)
  }
  return (performance.now() - started) / 1000
}

/** A port nobody listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/**
 * Two CPUs of this process's affinity list, when `taskset` can pin to them (Linux): the servers
 * run on the first, the load generator on the second, so that they never share a core (left to
 * the scheduler, they could, and req/s then spread wider). Elsewhere, or with one CPU,
 * `undefined`: no pinning.
 */
function pinnableCpus() {
  if (os.platform() !== "linux") return undefined
  const result = spawnSync("taskset", ["-pc", String(process.pid)], { encoding: "utf8" })
  if (result.status !== 0) return undefined
  const list = result.stdout.split(":").pop().trim()
  const cpus = list.split(",").flatMap((part) => {
    const [from, to = from] = part.split("-").map(Number)
    return Array.from({ length: to - from + 1 }, (_, i) => from + i)
  })
  return cpus.length >= 2 && cpus.every(Number.isInteger) ? cpus.slice(0, 2) : undefined
}

const PINNED = pinnableCpus()

/** `[command, args]` running `node …args`, pinned to `cpu` when pinning is possible. */
const node = (cpu, args) =>
  PINNED ? ["taskset", ["-c", String(cpu), process.execPath, ...args]] : [process.execPath, args]

const children = new Set()
// Whatever happens to the runner, its servers and worker do not outlive it.
process.on("exit", () => {
  for (const child of children) child.kill()
})

function track(child) {
  children.add(child)
  child.once("exit", () => children.delete(child))
  return child
}

/** Starts `node bench/app/build/index.js` in `mode`; resolves once it answers. */
async function startServer(mode) {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const child = track(
    spawn(...node(PINNED?.[0], [SERVER]), {
      env: {
        ...process.env,
        NODE_ENV: "production",
        BENCH_MODE: mode,
        HOST: "127.0.0.1",
        PORT: String(port),
        ORIGIN: origin,
        AUTH_SECRET: SECRET,
      },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  )
  let output = ""
  const collect = (chunk) => (output = (output + chunk).slice(-4000))
  child.stdout.on("data", collect)
  child.stderr.on("data", collect)

  const deadline = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      fail(`the ${mode} server exited (${child.exitCode ?? child.signalCode}):\n${output}`)
    try {
      const response = await fetch(`${origin}/`)
      await response.arrayBuffer()
      if (response.ok) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) fail(`the ${mode} server did not answer within 20 s:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { mode, origin, child, output: () => output }
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.kill()
  await exited
}

// --- Signing in, and checking what each server answers -----------------------------------------

/** The `name=value` pairs of a response's Set-Cookie headers. */
const setCookies = (response) =>
  response.headers.getSetCookie().map((header) => header.split(";", 1)[0].trim())

/**
 * Signs in through the latch server as a browser would (the CSRF cookie carried over, an
 * `Origin` header on the POST); returns the session cookie, `latch.session-token=…`.
 */
async function signIn(origin) {
  const csrf = await fetch(`${origin}/auth/csrf`)
  const { csrfToken } = await csrf.json()
  const jar = setCookies(csrf)
  const response = await fetch(`${origin}/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin,
      cookie: jar.join("; "),
    },
    body: new URLSearchParams({ csrfToken, username: "alice", password: "x" }),
  })
  await response.arrayBuffer()
  const session = setCookies(response).find((pair) => pair.startsWith(`${COOKIE_NAME}=`))
  if (!session || session === `${COOKIE_NAME}=`)
    fail(`sign-in (status ${response.status}) set no ${COOKIE_NAME} cookie`)
  return session
}

async function get(origin, path, cookie) {
  const response = await fetch(`${origin}${path}`, {
    redirect: "manual",
    headers: cookie ? { cookie } : {},
  })
  return { response, body: await response.text() }
}

/** Checks each server once: every scenario's status, the user on the page, no re-issued cookie. */
async function verify(servers, cookie) {
  for (const scenario of SCENARIOS) {
    for (const mode of scenario.modes) {
      const { origin } = servers[mode]
      const where = `${mode}: GET ${scenario.path}${scenario.cookie ? " with the cookie" : ""}`
      const { response, body } = await get(origin, scenario.path, scenario.cookie && cookie)
      const status = expectedStatus(scenario, mode)
      if (response.status !== status) fail(`${where} answered ${response.status}, not ${status}`)
      if (status === 303 && response.headers.get("location") !== "/signin")
        fail(`${where} redirected to ${response.headers.get("location")}, not /signin`)
      if (scenario.id === "signedIn" && status === 200 && !body.includes(`>${USER}</strong>`))
        fail(`${where} does not show the user's name`)
      if (scenario.id === "sessionRoute" && JSON.parse(body)?.user?.name !== USER)
        fail(`${where} has no user: ${body}`)
      if (scenario.cookie && response.headers.getSetCookie().length)
        fail(`${where} set cookies: ${response.headers.getSetCookie().join(" | ")}`)
    }
  }
}

// --- Load ----------------------------------------------------------------------------------------

/** The forked load generator; `load(…)` runs one autocannon measurement in it. */
function loadGenerator() {
  // fork() runs `execPath …execArgv WORKER`: taskset execs node in place, keeping the IPC channel.
  const [execPath, execArgv] = PINNED
    ? ["taskset", ["-c", String(PINNED[1]), process.execPath]]
    : [process.execPath, []]
  const worker = track(
    fork(WORKER, [], { execPath, execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] }),
  )
  const pending = new Map()
  let next = 0
  worker.on("message", ({ id, result, error }) => {
    const { resolve, reject } = pending.get(id)
    pending.delete(id)
    if (error) reject(new Error(`autocannon failed: ${error}`))
    else resolve(result)
  })
  worker.once("exit", (code) => {
    for (const { reject } of pending.values())
      reject(new Error(`the load generator exited (${code})`))
  })
  const load = (options) =>
    new Promise((resolve, reject) => {
      const id = next++
      pending.set(id, { resolve, reject })
      worker.send({ id, connections: CONNECTIONS, ...options })
    })
  return { worker, load }
}

/**
 * The CPU time a process has used so far, in seconds, summed over its threads (Linux:
 * `/proc/<pid>/task/<tid>/schedstat`, nanoseconds); `undefined` where that is not available.
 */
function cpuSeconds(pid) {
  let tasks
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return undefined
  }
  let nanoseconds = 0
  for (const task of tasks) {
    try {
      nanoseconds += Number(
        readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0],
      )
    } catch {
      // A thread that just ended.
    }
  }
  return nanoseconds / 1e9
}

/**
 * One measurement of `scenario` on `server`: requests per second (`rate`), and requests per
 * second of the server's CPU time (`perCpu`, `undefined` where CPU time cannot be read).
 */
async function measure(load, server, scenario, cookie, seconds) {
  const cpuBefore = cpuSeconds(server.child.pid)
  const result = await load({
    url: `${server.origin}${scenario.path}`,
    headers: scenario.cookie ? { cookie } : {},
    duration: seconds,
  })
  const status = String(expectedStatus(scenario, server.mode))
  const where = `${server.mode}: ${scenario.path}${scenario.cookie ? " with the cookie" : ""}`
  if (result.errors || result.timeouts)
    fail(`${where}: ${result.errors} errors, ${result.timeouts} timeouts under load`)
  const unexpected = Object.keys(result.statusCodes).filter((code) => code !== status)
  if (unexpected.length)
    fail(`${where} answered ${JSON.stringify(result.statusCodes)} under load, not only ${status}`)
  if (!result.requests) fail(`${where}: no request completed`)
  const cpu = cpuSeconds(server.child.pid) - cpuBefore
  return { rate: result.requests / result.seconds, perCpu: cpu > 0 ? result.requests / cpu : NaN }
}

// --- The benchmark -----------------------------------------------------------------------------

/**
 * Builds the app, runs the benchmark and prints its results. Returns the README section
 * (`markdown`), a one-line `summary`, and `seconds`, `buildSeconds` and `rounds` for the notes.
 */
export async function runHttp() {
  console.log("\nbuilding bench/app (vite build)…")
  const buildSeconds = buildApp()

  const servers = {}
  let generator
  try {
    for (const mode of MODES) servers[mode] = await startServer(mode)
    const cookie = await signIn(servers.latch.origin)
    await verify(servers, cookie)
    generator = loadGenerator()
    const { load } = generator

    const started = performance.now()
    const load1 = [os.loadavg()[0]]
    const count = SCENARIOS.reduce((sum, s) => sum + s.modes.length, 0)
    console.log(
      `loading ${MODES.length} servers: ${ROUNDS} rounds of ${count} measurements of ${SECONDS} s ` +
        `(after a ${WARMUP_SECONDS} s warm-up each)`,
    )

    for (const scenario of SCENARIOS)
      for (const mode of scenario.modes)
        await measure(load, servers[mode], scenario, cookie, WARMUP_SECONDS)

    // Interleaved: per round, per scenario, every mode once, in an order rotating by round.
    const empty = () =>
      Object.fromEntries(
        SCENARIOS.map((s) => [s.id, Object.fromEntries(s.modes.map((mode) => [mode, []]))]),
      )
    const results = { rate: empty(), perCpu: empty() }
    for (let round = 0; round < ROUNDS; round++) {
      for (const scenario of SCENARIOS) {
        const { modes } = scenario
        for (let i = 0; i < modes.length; i++) {
          const mode = modes[(round + i) % modes.length]
          const { rate, perCpu } = await measure(load, servers[mode], scenario, cookie, SECONDS)
          results.rate[scenario.id][mode].push(rate)
          results.perCpu[scenario.id][mode].push(perCpu)
        }
      }
      const line = SCENARIOS.map(
        (s) =>
          `${s.id} ${s.modes.map((m) => `${m} ${ops(results.rate[s.id][m][round])}`).join(", ")}`,
      )
      console.log(`round ${round + 1}/${ROUNDS} (req/s): ${line.join(" · ")}`)
    }
    const seconds = (performance.now() - started) / 1000
    load1.push(os.loadavg()[0])

    // A server that logged an error under load is a failed run, not a slow one.
    for (const server of Object.values(servers)) {
      if (/error/i.test(server.output()))
        fail(`the ${server.mode} server logged an error:\n${server.output()}`)
    }

    return report(results, { seconds, buildSeconds, load1 })
  } finally {
    if (generator) generator.worker.disconnect()
    await Promise.all(Object.values(servers).map((server) => stop(server.child)))
  }
}

// --- Report ------------------------------------------------------------------------------------

const COMPARISONS = [
  {
    label: "latch/floor, `/protected` with the session cookie",
    scenario: "signedIn",
    of: ["latch", "floor"],
  },
  {
    label: "latch/none, `/protected` with the session cookie (none: a 303, no page)",
    scenario: "signedIn",
    of: ["latch", "none"],
  },
  {
    label: "latch/none, `/` without cookie",
    scenario: "public",
    of: ["latch", "none"],
    goal: true,
  },
  {
    label: "latch/none, `/protected` without cookie",
    scenario: "anonymous",
    of: ["latch", "none"],
    goal: true,
  },
  {
    label: "floor/none, `/` without cookie (noise gauge: neither reads anything)",
    scenario: "public",
    of: ["floor", "none"],
  },
]

const METRIC_NAMES = { rate: "req/s", perCpu: "per CPU-second" }

/**
 * Whether a ratio meets the goal: by its median, and whether the median's interval settles it
 * (entirely on one side of the goal) or the run was too noisy to tell.
 */
function verdict({ median, low, high }) {
  if (median >= GOAL) return low >= GOAL ? "met" : "met, within noise"
  return high < GOAL ? "missed" : "missed, within noise"
}

function report(results, { seconds, buildSeconds, load1 }) {
  const withCpu = Object.values(results.perCpu).every((byMode) =>
    Object.values(byMode).every((values) => values.every(Number.isFinite)),
  )
  const metrics = withCpu ? ["rate", "perCpu"] : ["rate"]
  const medians = Object.fromEntries(
    metrics.map((metric) => [
      metric,
      Object.fromEntries(
        SCENARIOS.map((s) => [
          s.id,
          Object.fromEntries(s.modes.map((mode) => [mode, median(results[metric][s.id][mode])])),
        ]),
      ),
    ]),
  )
  const comparisons = COMPARISONS.map((c) => ({
    ...c,
    ...Object.fromEntries(
      metrics.map((metric) => {
        const [a, b] = c.of
        return [metric, ratios(results[metric][c.scenario][a], results[metric][c.scenario][b])]
      }),
    ),
  }))
  const [signedInFloor, , publicNone, anonymousNone] = comparisons
  const goals = comparisons.filter((c) => c.goal)
  const overall = (metric) => {
    const verdicts = goals.map((c) => verdict(c[metric]))
    if (verdicts.every((v) => v === "met")) return "met"
    if (verdicts.some((v) => v === "missed")) return "missed"
    return verdicts.every((v) => v.startsWith("met"))
      ? "met by the medians, within noise"
      : "missed by a median, within noise"
  }
  const interval = ({ low, high }) => `${ratio(low)}–${ratio(high)}`
  const loadText = load1.map((value) => value.toFixed(1)).join(" → ")

  // --- Console ---

  console.log(
    `\n${ROUNDS} interleaved rounds, ${SECONDS} s per measurement, ${seconds.toFixed(0)} s`,
  )
  console.log(`load average (1 min) over the rounds: ${loadText}`)
  for (const metric of metrics) {
    console.log(metric === "rate" ? "median req/s" : "median requests per server CPU-second")
    console.table(
      Object.fromEntries(
        SCENARIOS.map((s) => [
          s.id,
          Object.fromEntries(
            MODES.map((m) => [m, m in medians[metric][s.id] ? ops(medians[metric][s.id][m]) : "—"]),
          ),
        ]),
      ),
    )
  }
  console.table(
    Object.fromEntries(
      comparisons.map((c) => [
        c.label.replaceAll("`", ""),
        Object.fromEntries(
          metrics.flatMap((metric) => [
            [`${METRIC_NAMES[metric]}`, ratio(c[metric].median)],
            [`${METRIC_NAMES[metric]} 95% CI`, interval(c[metric])],
            ...(c.goal ? [[`goal ${METRIC_NAMES[metric]}`, verdict(c[metric])]] : []),
          ]),
        ),
      ]),
    ),
  )
  const cpuOf = (...cs) =>
    `per CPU-second: ${cs.map((c) => `${ratio(c.perCpu.median)}×`).join(", ")}`
  const cpuIn = (before, ...cs) => (withCpu ? `${before}${cpuOf(...cs)}` : "")
  const goalText =
    `goal ≥ ${GOAL} — req/s: ${overall("rate")}` +
    (withCpu ? `; per CPU-second: ${overall("perCpu")}` : "")
  const summary =
    `HTTP: latch/floor ${ratio(signedInFloor.rate.median)}× on a signed-in page` +
    `${cpuIn(" — ", signedInFloor)}; latch/none ${ratio(publicNone.rate.median)}× on / and ` +
    `${ratio(anonymousNone.rate.median)}× on /protected → 303 without a session` +
    `${cpuIn(" — ", publicNone, anonymousNone)}; ${goalText}`
  console.log(summary)

  // --- Markdown ---

  const cell = (metric, id, mode) => {
    if (!(mode in medians[metric][id])) return "—"
    const scenario = SCENARIOS.find((s) => s.id === id)
    const note = id === "signedIn" && expectedStatus(scenario, mode) === 303 ? " (303)" : ""
    return `${ops(medians[metric][id][mode])}${note}`
  }
  const table = (metric, title) => `| ${title} | none | floor | latch |
| --- | ---: | ---: | ---: |
${SCENARIOS.map((s) => `| ${s.label} | ${MODES.map((mode) => cell(metric, s.id, mode)).join(" | ")} |`).join("\n")}
`
  const ratioTable = `| Ratio | ${metrics.map((m) => `${METRIC_NAMES[m]}: median | 95% CI`).join(" | ")} | Goal ≥ ${GOAL} |
| --- | ${metrics.map(() => "---: | ---:").join(" | ")} | --- |
${comparisons
  .map((c) => {
    const cells = metrics.map((m) => `**${ratio(c[m].median)}** | ${interval(c[m])}`)
    const goal = c.goal ? metrics.map((m) => `${METRIC_NAMES[m]}: ${verdict(c[m])}`).join("; ") : ""
    return `| ${c.label} | ${cells.join(" | ")} | ${goal} |`
  })
  .join("\n")}
`
  const cpuText = withCpu
    ? `
Each measurement also reads the CPU time the server used meanwhile (all its threads, from
\`/proc/<pid>/task/*/schedstat\`), giving **requests per CPU-second of the server**: about what a
core of its own would serve. Other processes on the machine take CPU away from the server and
lower its req/s; they change the CPU time a request takes much less, so on a shared machine this
is the steadier of the two figures (not immune: caches and a busy sibling core still slow it).
`
    : ""

  const pinText = PINNED
    ? ` The servers run pinned to CPU ${PINNED[0]} and the load generator to CPU ${PINNED[1]}
(\`taskset\`), so that they never share a core.`
    : ""

  const markdown = `## Serving pages over HTTP

**On a signed-in page, a SvelteKit app with Latch serves ${ratio(signedInFloor.rate.median)}× the
requests per second of the same app with a hand-written jose hook** (latch/floor${cpuIn("; ", signedInFloor)}).
**Without a session it keeps ${ratio(publicNone.rate.median)}× (\`/\`) and ${ratio(anonymousNone.rate.median)}×
(\`/protected\`, redirected) of the throughput of the app without auth** (latch/none${cpuIn("; ", publicNone, anonymousNone)}; ${goalText}).

What is measured (\`bench/http.mjs\`): one SvelteKit app, \`bench/app\`, built once with \`vite
build\` (adapter-node), started as three processes that differ only in \`BENCH_MODE\`, which its
\`src/hooks.server.ts\` reads at startup:

- **none**: no auth; \`locals.auth = async () => null\`.
- **floor**: a hand-written hook: \`locals.auth()\` memoized per request, doing one
  \`jose.jwtDecrypt\` of the \`${COOKIE_NAME}\` cookie with the key Latch derives (HKDF-SHA-256,
  64 bytes), derived once at startup, and returning \`{ user: { name, email, image }, expires }\`.
  The least a SvelteKit app can do to read Latch's cookie with jose.
- **latch**: \`SvelteKitAuth({ providers: [Credentials(…)] }).handle\`, which also answers \`/auth/*\`.

\`/protected\` calls \`locals.auth()\` three times per request (once in its \`+layout.server.ts\`,
twice in its \`+page.server.ts\`), shows the user's name, and redirects with 303 to \`/signin\`
without a session; \`/\` never calls it. The session cookie comes from signing in through the
latch server (\`GET /auth/csrf\`, then a form-encoded \`POST /auth/callback/credentials\` with the
cookies); the floor server reads the same cookie, since it derives the same key. Before loading,
the runner checks once per server that every scenario answers its status, that \`/protected\` with
the cookie shows the user (floor, latch), and that no response to the cookie sets a cookie (Latch
does not re-issue the session before \`updateAge\`). The **none** server has no session to read:
its \`/protected\` answers the cookie with the 303, so latch/none on the signed-in page compares a
rendered page with a redirect, and is context only. Latch above its floor is no paradox: it decrypts the cookie
for less than \`jose.jwtDecrypt\` does (see _Reading a session_).

Load comes from [autocannon](https://github.com/mcollina/autocannon) in a forked process (not the
servers', not the runner's): ${CONNECTIONS} connections, no pipelining, every response counted
whatever its status (each must be the expected one, with no errors or timeouts).${pinText} After a
${WARMUP_SECONDS} s warm-up per scenario and server, ${ROUNDS} rounds run each scenario on every
server for ${SECONDS} s, one server at a time, in an order rotating from round to round, so that the
measurements a ratio compares run seconds apart. A figure is the median of its rounds; a ratio is
computed per round, then the median is taken. Its **95% CI** is a distribution-free confidence
interval of that median (order statistics of the per-round ratios): a goal is **met** or
**missed** when the whole interval is on one side of it, and only _met/missed within noise_ by
the median otherwise.
${cpuText}
${table("rate", "Median req/s")}${withCpu ? `\n${table("perCpu", "Median requests per server CPU-second")}` : ""}
${ratioTable}
The absolute figures are context for this machine only (the servers and the load generator share
its ${os.cpus().length} cores; the 1-minute load average went ${loadText} over the rounds, about 2
of it the benchmark's own); the ratios are what carries over. \`floor/none\` on \`/\` measures
nothing but noise — neither server reads the session there — and shows how far apart two
equivalent servers land in this run.
`

  return { markdown, summary, seconds, buildSeconds, rounds: ROUNDS }
}

if (isMain(import.meta.url)) runAsScript(runHttp)
