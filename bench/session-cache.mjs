// The session cache (`session.cache`) over HTTP: the SvelteKit app of bench/app serving its
// protected page to a signed-in user with database sessions — cached on PGlite, cached on a
// PostgreSQL server, and uncached on PostgreSQL (one database read per page) — against the JWT
// strategy; then how fast a revocation reaches another instance: two servers on one PostgreSQL
// database, a sign-out on one, and the time until the other refuses the session.
// `node session-cache.mjs` prints the results; `node index.mjs` (the `bench` script) also writes
// them into README.md, with the section `runSessionCache()` returns.
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
import { startPostgres } from "./lib/postgres.mjs"
import { buildApp, loadGenerator, signIn, startServer, stop } from "./lib/servers.mjs"

const COOKIE_NAME = "authjs.session-token"
const CONNECTIONS = 10
const ROUNDS = QUICK ? 5 : 11 // odd, so each median is one measured round
const SECONDS = 1 // per measurement
const WARMUP_SECONDS = 2 // per server, once, before the rounds
const TRIALS = QUICK ? 200 : 1000 // revocations timed
const GOAL = 0.8 // a cached database session's page ÷ the JWT strategy's
const LATENCY_GOAL = 50 // ms, p99

function fail(message) {
  throw new BenchError(message)
}

/** The servers compared on the protected page: `env` is added to the server's environment. */
const candidates = (databaseUrl) => [
  { id: "jwt", label: "JWT sessions", mode: "latch", env: {} },
  { id: "pglite", label: "database, PGlite, cached", mode: "latch-db", env: {} },
  {
    id: "postgres",
    label: "database, PostgreSQL, cached",
    mode: "latch-db",
    env: { DATABASE_URL: databaseUrl },
  },
  {
    id: "postgres-nocache",
    label: "database, PostgreSQL, no cache",
    mode: "latch-db-nocache",
    env: { DATABASE_URL: databaseUrl },
  },
]

/** One `GET path` with the cookie; its status and JSON body (or text). */
async function get(origin, path, cookie) {
  const response = await fetch(`${origin}${path}`, {
    redirect: "manual",
    headers: cookie ? { cookie } : {},
  })
  const text = await response.text()
  let body
  try {
    body = JSON.parse(text)
  } catch {
    body = text
  }
  return { status: response.status, body }
}

/** The database reads a database-mode server has made so far. */
const readsOf = async (server) => (await get(server.origin, "/bench/reads")).body.reads

/** Signs the cookie's session out on `origin`, as a browser's form does. */
async function signOut(origin, cookie) {
  const { body } = await get(origin, "/auth/csrf", cookie)
  const response = await fetch(`${origin}/auth/signout`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin, cookie },
    body: new URLSearchParams({ csrfToken: body.csrfToken }),
  })
  await response.arrayBuffer()
  if (response.status !== 302) fail(`sign-out at ${origin} answered ${response.status}`)
}

/** Reads until the server serves the session from its cache (no database read); or fails. */
async function warm(server, cookie) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const before = await readsOf(server)
    const { body } = await get(server.origin, "/auth/session", cookie)
    if (!body?.user) fail(`${server.label}: the session did not read`)
    if ((await readsOf(server)) === before) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  fail(`${server.label}: never served the session from its cache`)
}

/** The protected page over and over for `seconds`: pages per second. */
async function measure(load, server, cookie, seconds) {
  const result = await load({
    url: `${server.origin}/protected`,
    headers: { cookie },
    duration: seconds,
  })
  const codes = Object.keys(result.statusCodes)
  if (result.errors || result.timeouts || codes.some((code) => code !== "200"))
    fail(
      `${server.label}: /protected answered ${JSON.stringify(result.statusCodes)}, ` +
        `${result.errors} errors, ${result.timeouts} timeouts`,
    )
  return result.requests / result.seconds
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

/**
 * Times `TRIALS` revocations: a session signed in on `a`, read on `b` until `b` serves it from
 * its cache, signed out on `a`; then `b` is asked over and over until it refuses the session.
 * The time from `a`'s answer to the sign-out (the row is gone) to `b`'s first refusal.
 */
async function revocations(a, b) {
  const latencies = []
  let polls = 0
  for (let trial = 0; trial < TRIALS; trial++) {
    const cookie = await signIn(a.origin, COOKIE_NAME, { csrf: true })
    await warm(b, cookie)
    await signOut(a.origin, cookie)
    const revoked = performance.now()
    for (;;) {
      polls++
      const { body } = await get(b.origin, "/auth/session", cookie)
      if (body === null) break
      if (performance.now() - revoked > 5_000) fail("instance b served a revoked session for 5 s")
    }
    latencies.push(performance.now() - revoked)
  }
  latencies.sort((x, y) => x - y)
  return {
    latencies,
    polls,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: latencies.at(-1),
  }
}

/** Runs the benchmark; returns the README section (`markdown`, `summary`), `goals`, `seconds`. */
export async function runSessionCache({ build = true } = {}) {
  if (build) {
    console.log("\nbuilding bench/app (vite build)…")
    buildApp()
  }
  const started = performance.now()
  const cleanup = []
  try {
    console.log("\nsession cache: a throwaway PostgreSQL cluster…")
    const postgres = await startPostgres()
    cleanup.push(() => postgres.destroy())
    const servers = candidates(postgres.connectionString)
    for (const server of servers) {
      Object.assign(server, await startServer(server.mode, server.env))
      cleanup.push(() => stop(server.child))
      server.cookie = await signIn(server.origin, COOKIE_NAME, { csrf: true })
    }
    for (const server of servers.filter((s) => s.mode === "latch-db")) {
      await warm(server, server.cookie)
    }
    const generator = loadGenerator({ connections: CONNECTIONS })
    cleanup.push(() => generator.worker.disconnect())
    const { load } = generator
    for (const server of servers) await measure(load, server, server.cookie, WARMUP_SECONDS)
    const rates = Object.fromEntries(servers.map((server) => [server.id, []]))
    console.log(
      `${ROUNDS} rounds of ${SECONDS} s of /protected on ${servers.map((s) => s.id).join(", ")}`,
    )
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < servers.length; i++) {
        const server = servers[(round + i) % servers.length]
        rates[server.id].push(await measure(load, server, server.cookie, SECONDS))
      }
      console.log(
        `round ${round + 1}/${ROUNDS}: ${servers.map((s) => `${s.id} ${ops(rates[s.id][round])}/s`).join(", ")}`,
      )
    }
    // The cached servers served the page from memory: their reads did not grow with the load.
    for (const server of servers.filter((s) => s.mode === "latch-db")) {
      const before = await readsOf(server)
      await measure(load, server, server.cookie, 0.5)
      server.cachedReads = (await readsOf(server)) - before
      if (server.cachedReads > 2)
        fail(`${server.label}: ${server.cachedReads} database reads in 0.5 s of cached pages`)
    }
    for (const server of servers) {
      if (/error/i.test(server.output()))
        fail(`${server.label} logged an error:\n${server.output()}`)
    }
    const vsJwt = Object.fromEntries(
      servers.filter((s) => s.id !== "jwt").map((s) => [s.id, ratios(rates[s.id], rates.jwt)]),
    )

    // Two instances on the PostgreSQL database: revocation latency.
    console.log(`\nrevocation: ${TRIALS} sign-outs on instance a, each refused by instance b…`)
    const pair = []
    for (const id of ["a", "b"]) {
      const server = { id, label: `instance ${id}` }
      Object.assign(
        server,
        await startServer("latch-db", { DATABASE_URL: postgres.connectionString }),
      )
      cleanup.push(() => stop(server.child))
      pair.push(server)
    }
    const latency = await revocations(pair[0], pair[1])
    for (const server of pair) {
      if (/error/i.test(server.output()))
        fail(`${server.label} logged an error:\n${server.output()}`)
    }
    const seconds = (performance.now() - started) / 1000
    return report({ servers, rates, vsJwt, latency, seconds, postgres })
  } finally {
    for (const close of cleanup.reverse()) {
      await Promise.resolve()
        .then(close)
        .catch((error) => console.error(`cleanup failed: ${error.stack ?? error}`))
    }
  }
}

const interval = ({ low, high }) => `${ratio(low)}–${ratio(high)}`
const ms = (value) => `${value.toFixed(1)} ms`

function report({ servers, rates, vsJwt, latency, seconds }) {
  const { pglite, postgres } = vsJwt
  const nocache = vsJwt["postgres-nocache"]
  const summary =
    `Session cache: the protected page with a database session reads ${ratio(pglite.median)}× ` +
    `(PGlite) and ${ratio(postgres.median)}× (PostgreSQL) the pages per second of the JWT ` +
    `strategy cached, ${ratio(nocache.median)}× uncached on PostgreSQL; a sign-out on one ` +
    `instance is refused by another after ${ms(latency.p50)} (median), ${ms(latency.p99)} (p99) ` +
    `over ${TRIALS} trials`
  console.log(`\n${summary}`)
  const rows = servers
    .map((server) => {
      const r = vsJwt[server.id]
      const figure = r
        ? `**${ratio(r.median)}×** | ${interval(r)} | ${ratio(r.min)}–${ratio(r.max)}`
        : "1 | — | —"
      return `| ${server.label} | ${ops(median(rates[server.id]))} | ${figure} |`
    })
    .join("\n")
  const buckets = [1, 2, 5, 10, 20, 50, 100, Infinity]
  const histogram = buckets
    .map((limit, i) => {
      const low = i === 0 ? 0 : buckets[i - 1]
      const count = latency.latencies.filter((v) => v > low && v <= limit).length
      const label = limit === Infinity ? `over ${low} ms` : `${low}–${limit} ms`
      return `| ${label} | ${count} |`
    })
    .join("\n")
  const markdown = `## The session cache

**With \`session.cache\`, a signed-in user's protected page with database sessions serves
${ratio(pglite.median)}× (PGlite) and ${ratio(postgres.median)}× (PostgreSQL) the pages per second
of the JWT strategy** (${ratio(nocache.median)}× without the cache, on PostgreSQL), and **a session
signed out on one instance is refused by another after ${ms(latency.p50)} at the median and
${ms(latency.p99)} at p99** (${TRIALS} trials; max ${ms(latency.max)}).

What is measured (\`bench/session-cache.mjs\`): the app of _Serving pages over HTTP_, its
\`/protected\` page (three \`locals.auth()\` calls, one session read) loaded by ${CONNECTIONS}
connections with a signed-in user's cookie, on four servers: \`BENCH_MODE=latch\` (JWT sessions),
\`latch-db\` (\`session: { strategy: "database", cache: true }\` with \`@latch/pg-adapter\`) on PGlite
in the server's memory and on a PostgreSQL server (a throwaway cluster, a \`pg.Pool\`), and
\`latch-db-nocache\` on PostgreSQL (one database read per page). After a ${WARMUP_SECONDS} s warm-up
per server, ${ROUNDS} rounds run ${SECONDS} s on each server in an order rotating by round; each
ratio to JWT is taken per round, then its median. Before the rounds each cached server is read
until it serves the session without a database read (the app counts its adapter's
\`getSessionAndUser\` calls), and after them half a second of load on each cached server made
${Object.entries(cachedReads(servers))
  .map(([id, n]) => `${n} (${id})`)
  .join(" and ")} database reads.

| Server | Pages/s (median) | ÷ JWT (median) | 95% CI | min–max |
| --- | ---: | ---: | ---: | ---: |
${rows}

Revocation: two more \`latch-db\` servers on the same PostgreSQL database, as two instances of one
app. Each trial signs in on instance a, reads the session on instance b until b serves it from
its cache, signs out on a (\`POST /auth/signout\`: the row is deleted, a trigger notifies the
\`LISTEN\`ing instances), and from a's answer asks b for the session over and over until b
refuses it; the time to that refusal is the trial's figure (b was asked ${ops(latency.polls)} times in
all, about ${(latency.polls / TRIALS).toFixed(1)} per trial: a refusal is seen within one request
of the eviction).

| Refused after | Trials |
| --- | ---: |
${histogram}

Median ${ms(latency.p50)}, p90 ${ms(latency.p90)}, p99 ${ms(latency.p99)}, max ${ms(latency.max)}.
This part took ${seconds.toFixed(0)} s.
`
  const goals = [
    ...[
      ["pglite", "PGlite"],
      ["postgres", "PostgreSQL"],
    ].map(([id, name]) => ({
      area: "Sessions",
      label: `\`/protected\` with a cached database session on ${name} ÷ JWT sessions`,
      goal: `≥ ${GOAL}×`,
      value: `${ratio(vsJwt[id].median)}× (95% CI ${interval(vsJwt[id])})`,
      verdict: verdict(vsJwt[id], GOAL),
    })),
    {
      area: "Sessions",
      label: "a sign-out on one instance refused by another, p99",
      goal: `≤ ${LATENCY_GOAL} ms`,
      value: `${ms(latency.p99)} (median ${ms(latency.p50)}, ${TRIALS} trials)`,
      verdict: latency.p99 <= LATENCY_GOAL ? "met" : "missed",
    },
  ]
  return { markdown, summary, goals, seconds }
}

/** The database reads of the cached servers during the check after the rounds. */
function cachedReads(servers) {
  return Object.fromEntries(
    servers.filter((s) => s.cachedReads !== undefined).map((s) => [s.id, s.cachedReads]),
  )
}

if (isMain(import.meta.url)) {
  runAsScript(async () => {
    const { summary } = await runSessionCache({ build: process.env.BENCH_NO_BUILD !== "1" })
    console.log(`\n${summary}`)
  })
}
