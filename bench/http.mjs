// Serving pages over HTTP: one SvelteKit app (bench/app), built once, served by four processes
// that differ only in how `locals.auth()` works (BENCH_MODE: none, floor, latch, authjs), loaded
// by autocannon from a separate process, in interleaved rounds; full sign-ins (Latch and Auth.js)
// in the same rounds; then the servers' resident memory under batches of signed-in requests.
// `node http.mjs` prints the results; `node index.mjs` (the `bench` script) also writes them into
// README.md, with the sections `runHttp()` returns.
import os from "node:os"
import { BenchError, isMain, ops, runAsScript } from "./lib/common.mjs"
import { reportHttp, reportSignIn } from "./lib/http-report.mjs"
import {
  CONNECTIONS,
  COOKIE_NAMES,
  expectedStatus,
  MEMORY,
  MODES,
  ROUNDS,
  SCENARIOS,
  SECONDS,
  WARMUP_SECONDS,
} from "./lib/http-scenarios.mjs"
import { reportMemory } from "./lib/memory-report.mjs"
import {
  buildApp,
  cpuSeconds,
  loadGenerator,
  rssBytes,
  signIn,
  startServer,
  stop,
  USER,
} from "./lib/servers.mjs"

/** The session cookie a mode's requests carry: floor reads Latch's; none reads nothing. */
const cookieOf = (cookies, mode) => (mode === "authjs" ? cookies.authjs : cookies.latch)

/**
 * The cookies a server may set in answer to a scenario's requests. Latch: none (the session is
 * not re-issued before `updateAge`). Auth.js re-issues its session cookie on every read of the
 * session (a fresh JWE each time), and sets its callback-url cookie for a visitor without one.
 */
const mayBeSet = (mode, scenario, name) =>
  mode === "authjs" &&
  ((scenario.cookie && name === COOKIE_NAMES.authjs) ||
    (!scenario.cookie && name === "authjs.callback-url"))

function fail(message) {
  throw new BenchError(message)
}

async function get(origin, path, cookie) {
  const response = await fetch(`${origin}${path}`, {
    redirect: "manual",
    headers: cookie ? { cookie } : {},
  })
  return { response, body: await response.text() }
}

/**
 * Checks each server once: every scenario's status, the user on the page and in the session
 * route, and which cookies the responses set (none, except Auth.js's own session cookie).
 */
async function verify(servers, cookies) {
  for (const [mode, status] of [
    ["latch", 200],
    ["authjs", 404],
  ]) {
    const { response, body } = await get(servers[mode].origin, "/auth/csrf")
    if (response.status !== status) fail(`${mode}: GET /auth/csrf answered ${response.status}`)
    if (status === 200 && !/^[0-9a-f]{64}$/.test(JSON.parse(body).csrfToken ?? ""))
      fail(`${mode}: GET /auth/csrf gave no token: ${body}`)
  }
  for (const scenario of SCENARIOS) {
    if (scenario.signIn) continue // each sign-in is checked under load
    for (const mode of scenario.modes) {
      const { origin } = servers[mode]
      const where = `${mode}: GET ${scenario.path}${scenario.cookie ? " with the cookie" : ""}`
      const cookie = scenario.cookie ? cookieOf(cookies, mode) : undefined
      const { response, body } = await get(origin, scenario.path, cookie)
      const status = expectedStatus(scenario, mode)
      if (response.status !== status) fail(`${where} answered ${response.status}, not ${status}`)
      if (status === 303 && response.headers.get("location") !== "/signin")
        fail(`${where} redirected to ${response.headers.get("location")}, not /signin`)
      if (scenario.id === "signedIn" && status === 200 && !body.includes(`>${USER}</strong>`))
        fail(`${where} does not show the user's name`)
      if (scenario.id === "sessionRoute" && JSON.parse(body)?.user?.name !== USER)
        fail(`${where} has no user: ${body}`)
      const set = response.headers.getSetCookie()
      if (set.some((header) => !mayBeSet(mode, scenario, header.split("=", 1)[0])))
        fail(`${where} set cookies: ${set.join(" | ")}`)
    }
  }
}

/**
 * One measurement of `scenario` on `server`: per second (`rate`) and per second of the server's
 * CPU time (`perCpu`, NaN where CPU time cannot be read), requests — or sign-ins — and the
 * number of requests that carried a session cookie (`withSession`).
 */
async function measure(load, server, scenario, cookies, seconds) {
  const { mode } = server
  const cpuBefore = cpuSeconds(server.child.pid)
  const where = scenario.signIn
    ? `${mode}: sign-ins (${scenario.id})`
    : `${mode}: ${scenario.path}${scenario.cookie ? " with the cookie" : ""}`
  const result = await load(
    scenario.signIn
      ? {
          url: server.origin,
          signIn: { cookieName: COOKIE_NAMES[mode], ...scenario.signIn },
          duration: seconds,
        }
      : {
          url: `${server.origin}${scenario.path}`,
          headers: scenario.cookie ? { cookie: cookieOf(cookies, mode) } : {},
          duration: seconds,
        },
  )
  if (result.errors || result.timeouts)
    fail(`${where}: ${result.errors} errors, ${result.timeouts} timeouts under load`)
  const expected = [expectedStatus(scenario, mode)].flat().map(String)
  const unexpected = Object.keys(result.statusCodes).filter((code) => !expected.includes(code))
  if (unexpected.length)
    fail(`${where} answered ${JSON.stringify(result.statusCodes)} under load, not only ${expected}`)
  if (scenario.signIn && result.failed)
    fail(`${where}: ${result.failed} sign-ins failed under load (last: ${result.lastFailure})`)
  const done = scenario.signIn ? result.signIns : result.requests
  if (!done) fail(`${where}: nothing completed`)
  const cpu = cpuSeconds(server.child.pid) - cpuBefore
  return {
    rate: done / result.seconds,
    perCpu: cpu > 0 ? done / cpu : NaN,
    withSession: scenario.cookie ? result.requests : 0,
  }
}

/**
 * The memory phase: batches of signed-in requests (`/protected` and `GET /auth/session` in turn,
 * with the cookie) on each server that reads sessions, interleaved, the resident memory read
 * after every batch, until the latch server has served `MEMORY.requests` of them.
 */
async function memoryRounds(load, servers, cookies, served) {
  const samples = Object.fromEntries(MEMORY.modes.map((mode) => [mode, []]))
  const requests = Object.fromEntries(MEMORY.modes.map((mode) => [mode, 0]))
  const started = performance.now()
  for (let round = 0; round < MEMORY.maxRounds; round++) {
    for (let i = 0; i < MEMORY.modes.length; i++) {
      const mode = MEMORY.modes[(round + i) % MEMORY.modes.length]
      const server = servers[mode]
      const batchStart = performance.now()
      const result = await load({
        url: server.origin,
        paths: MEMORY.paths,
        headers: { cookie: cookieOf(cookies, mode) },
        duration: MEMORY.seconds,
      })
      const codes = Object.keys(result.statusCodes)
      if (result.errors || result.timeouts || codes.some((code) => code !== "200"))
        fail(
          `${mode}: memory batch answered ${JSON.stringify(result.statusCodes)}, ` +
            `${result.errors} errors, ${result.timeouts} timeouts`,
        )
      requests[mode] += result.requests
      served[mode] += result.requests
      // The live heap: what the last full garbage collection of the batch left, if one ran.
      const heap = server.fullGcs.filter((gc) => gc.at >= batchStart).at(-1)?.heap
      samples[mode].push({ requests: requests[mode], rss: rssBytes(server.child.pid), heap })
    }
    const line = MEMORY.modes.map(
      (mode) =>
        `${mode} ${(samples[mode].at(-1).rss / 2 ** 20).toFixed(1)} MiB after ${ops(requests[mode])}`,
    )
    console.log(`memory round ${round + 1}: ${line.join(" · ")}`)
    if (round + 1 >= MEMORY.minRounds && requests.latch >= MEMORY.requests) break
  }
  return { samples, requests, seconds: (performance.now() - started) / 1000 }
}

/**
 * Builds the app, runs the benchmark and prints its results. Returns the README sections
 * (`http`, `signIn`, `memory`: each `{ markdown, summary }`), the `goals` they check, the
 * `chart` rows, and `seconds`, `buildSeconds` and `rounds` for the notes.
 */
export async function runHttp() {
  console.log("\nbuilding bench/app (vite build)…")
  const buildSeconds = buildApp()

  const servers = {}
  let generator
  try {
    for (const mode of MODES) servers[mode] = await startServer(mode)
    const rss = { boot: {}, rounds: {} }
    for (const mode of MODES) rss.boot[mode] = rssBytes(servers[mode].child.pid)
    // Each as its own client signs in: Latch's fetches a CSRF token first, Auth.js's does not
    // (@auth/sveltekit has no csrf action: see `verify`).
    const cookies = {
      latch: await signIn(servers.latch.origin, COOKIE_NAMES.latch, { csrf: true }),
      authjs: await signIn(servers.authjs.origin, COOKIE_NAMES.authjs, { csrf: false }),
    }
    await verify(servers, cookies)
    generator = loadGenerator({ connections: CONNECTIONS })
    const { load } = generator

    const started = performance.now()
    const load1 = [os.loadavg()[0]]
    const count = SCENARIOS.reduce((sum, s) => sum + s.modes.length, 0)
    console.log(
      `loading ${MODES.length} servers: ${ROUNDS} rounds of ${count} measurements of ${SECONDS} s ` +
        `(after a ${WARMUP_SECONDS} s warm-up each)`,
    )

    const served = Object.fromEntries(MODES.map((mode) => [mode, 0])) // requests with a session
    for (const scenario of SCENARIOS) {
      for (const mode of scenario.modes) {
        const { withSession } = await measure(
          load,
          servers[mode],
          scenario,
          cookies,
          WARMUP_SECONDS,
        )
        served[mode] += withSession
      }
    }

    // Interleaved: per round, per scenario, every mode once, in an order rotating by round.
    const empty = () =>
      Object.fromEntries(
        SCENARIOS.map((s) => [s.id, Object.fromEntries(s.modes.map((mode) => [mode, []]))]),
      )
    const results = { rate: empty(), perCpu: empty() }
    for (const mode of MODES) rss.rounds[mode] = []
    for (let round = 0; round < ROUNDS; round++) {
      for (const scenario of SCENARIOS) {
        const { modes } = scenario
        for (let i = 0; i < modes.length; i++) {
          const mode = modes[(round + i) % modes.length]
          const measured = await measure(load, servers[mode], scenario, cookies, SECONDS)
          results.rate[scenario.id][mode].push(measured.rate)
          results.perCpu[scenario.id][mode].push(measured.perCpu)
          served[mode] += measured.withSession
        }
      }
      for (const mode of MODES) rss.rounds[mode].push(rssBytes(servers[mode].child.pid))
      const line = SCENARIOS.map(
        (s) =>
          `${s.id} ${s.modes.map((m) => `${m} ${ops(results.rate[s.id][m][round])}`).join(", ")}`,
      )
      console.log(`round ${round + 1}/${ROUNDS} (per s): ${line.join(" · ")}`)
    }
    const seconds = (performance.now() - started) / 1000
    load1.push(os.loadavg()[0])
    const servedInRounds = { ...served }

    console.log(
      `\nmemory: batches of ${MEMORY.seconds} s (${MEMORY.paths.join(", ")} with the cookie) ` +
        `until the latch server has served ${ops(MEMORY.requests)} of them`,
    )
    const memory = await memoryRounds(load, servers, cookies, served)

    // A server that logged an error under load is a failed run, not a slow one.
    for (const server of Object.values(servers)) {
      if (/error/i.test(server.output()))
        fail(`the ${server.mode} server logged an error:\n${server.output()}`)
    }

    const http = reportHttp(results, { seconds, buildSeconds, load1, cookies })
    const signIns = reportSignIn(results)
    const memoryReport = reportMemory({ ...memory, rss, servedInRounds, served })
    return {
      http,
      signIn: signIns,
      memory: memoryReport,
      goals: [...http.goals, ...memoryReport.goals],
      chart: [...http.chart, ...signIns.chart],
      seconds,
      memorySeconds: memory.seconds,
      buildSeconds,
      rounds: ROUNDS,
    }
  } finally {
    if (generator) generator.worker.disconnect()
    await Promise.all(Object.values(servers).map((server) => stop(server.child)))
  }
}

if (isMain(import.meta.url)) {
  runAsScript(async () => {
    const { http, signIn, memory } = await runHttp()
    console.log(`\n${http.summary}\n${signIn.summary}\n${memory.summary}`)
  })
}
