// Database sessions: reading a session with `session.strategy: "database"` — @latch/pg-adapter on
// PGlite (in memory, in this process) and on a real PostgreSQL server (a throwaway cluster, over
// a pg.Pool), without and with the session cache (`session.cache`) — against the JWT strategy,
// through `getSession` and `GET /auth/session`.
// Interleaved in one process. `node database.mjs` prints the results; `node index.mjs` (the
// `bench` script) also writes them into README.md, with the section `runDatabase()` returns.
import { createHash } from "node:crypto"
import { PGlite } from "@electric-sql/pglite"
import { Auth, closeSessionCache, getSession } from "@latch/core"
import Credentials from "@latch/core/providers/credentials"
import { migrate, PostgresAdapter } from "@latch/pg-adapter"
import pg from "pg"
import {
  BenchError,
  interleave,
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
import { COOKIE_NAME, ORIGIN, signIn } from "./lib/sign-in.mjs"

const SECRET = "latch-bench-secret-that-is-long-enough-0123456789"
const WARMUP_MS = QUICK ? 500 : 1000 // per candidate, spread over interleaved passes
const BATCH_MS = QUICK ? 100 : 200 // target duration of one candidate's batch in a round
const ROUNDS = QUICK ? 5 : 15 // odd, so each median is one measured round
const POOL_SIZE = 4 // pg.Pool `max`; the reads are sequential, so one connection is in use

/** The user the credentials provider signs in, seeded with `adapter.createUser` for the
 * database strategy (which only accepts a credentials user the adapter knows). */
const USER = {
  id: "bench-alice",
  name: "Alice",
  email: "alice@example.com",
  image: "https://img.example/alice.png",
}

function fail(message) {
  throw new BenchError(message)
}

/** One configuration per strategy; `errors` collects what Latch logs (a failing read is logged
 * and answered as no session, so it must not go unnoticed). */
function configFor(adapter, errors, cache = false) {
  return {
    secret: SECRET,
    trustHost: true,
    ...(adapter
      ? { adapter, session: { strategy: "database", cache } }
      : { session: { strategy: "jwt" } }),
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: () => ({ ...USER }),
      }),
    ],
    logger: { error: (error) => errors.push(error) },
  }
}

/** Seconds since `started` (a `performance.now()`). */
const since = (started) => (performance.now() - started) / 1000

// --- The strategies ----------------------------------------------------------------------------

/** The stores of the database strategy, each migrated and seeded with the user. */
async function openStores(cleanup) {
  let started = performance.now()
  const pglite = new PGlite()
  cleanup.push(() => pglite.close())
  await migrate(pglite)
  await PostgresAdapter(pglite).createUser({ ...USER, emailVerified: null })
  const pgliteSeconds = since(started)

  started = performance.now()
  const server = await startPostgres()
  cleanup.push(() => server.destroy())
  const pool = new pg.Pool({ connectionString: server.connectionString, max: POOL_SIZE })
  cleanup.push(() => pool.end())
  await migrate(pool)
  await PostgresAdapter(pool).createUser({ ...USER, emailVerified: null })
  const postgresSeconds = since(started)

  const version = async (client) => (await client.query("show server_version")).rows[0]
  return {
    pglite: {
      client: pglite,
      seconds: pgliteSeconds,
      version: (await version(pglite)).server_version,
    },
    postgres: {
      client: pool,
      seconds: postgresSeconds,
      version: (await version(pool)).server_version,
    },
  }
}

// --- Checks ------------------------------------------------------------------------------------

const sameUser = (user) =>
  user?.name === USER.name && user?.email === USER.email && user?.image === USER.image

/**
 * Checks a strategy's session cookie and both reads of it: the session has the user, and no
 * read sets a cookie (none is due before `updateAge`). For the database strategy the cookie is
 * the token of a stored session of that user, expiring when the reads say.
 */
async function check(strategy) {
  const { name, client, token, config, request } = strategy
  const direct = await getSession(request(), config)
  if (!sameUser(direct.session?.user))
    fail(`${name}: getSession lacks the user: ${JSON.stringify(direct.session)}`)
  if (direct.cookies.length) fail(`${name}: getSession asked to set cookies`)

  const response = await Auth(request(), config)
  const body = await response.json()
  if (response.status !== 200) fail(`${name}: GET /auth/session answered ${response.status}`)
  if (!sameUser(body?.user))
    fail(`${name}: GET /auth/session lacks the user: ${JSON.stringify(body)}`)
  if (response.headers.getSetCookie().length)
    fail(`${name}: GET /auth/session set cookies: ${response.headers.getSetCookie().join(" | ")}`)

  if (client) {
    // The database holds the token's SHA-256, not the token (`session.hashTokens`).
    const { rows } = await client.query(
      "select user_id, expires from sessions where session_token = $1",
      [createHash("sha256").update(token).digest("hex")],
    )
    if (rows.length !== 1 || rows[0].user_id !== USER.id)
      fail(`${name}: the cookie is not the token of a stored session of the user`)
    if (new Date(rows[0].expires).toISOString() !== body.expires)
      fail(`${name}: the session read expires ${body.expires}, the stored one ${rows[0].expires}`)
  } else if (token.split(".").length !== 5) {
    fail(`${name}: the session cookie is not a compact JWE`)
  }
}

// --- The benchmark -----------------------------------------------------------------------------

/**
 * Runs the benchmark and prints its results. Returns the README section (`markdown`), a one-line
 * `summary`, and `seconds`, `rounds`, `postgresVersion` and `postgresSeconds` (its start-up, from
 * initdb to a migrated, seeded database) for the environment notes.
 */
export async function runDatabase() {
  const cleanup = [] // run in reverse order, whatever happens
  try {
    return await measure(cleanup)
  } finally {
    for (const close of cleanup.reverse()) {
      // Each one runs even if one before it failed; a failure here must not hide the run's own.
      await Promise.resolve()
        .then(close)
        .catch((error) => console.error(`cleanup failed: ${error.stack ?? error}`))
    }
  }
}

async function measure(cleanup) {
  const errors = []
  console.log("\nstarting PGlite and a throwaway PostgreSQL cluster…")
  const stores = await openStores(cleanup)
  console.log(
    `PGlite (PostgreSQL ${stores.pglite.version}) ready in ${stores.pglite.seconds.toFixed(1)} s, ` +
      `PostgreSQL ${stores.postgres.version} in ${stores.postgres.seconds.toFixed(1)} s`,
  )

  const strategies = [
    { id: "jwt", name: "JWT", label: "JWT (encrypted cookie)" },
    {
      id: "pglite",
      name: "PGlite",
      label: "database, PGlite (in memory)",
      client: stores.pglite.client,
    },
    {
      id: "postgres",
      name: "PostgreSQL",
      label: `database, PostgreSQL ${stores.postgres.version.split(" ")[0]} (pg.Pool, 127.0.0.1)`,
      client: stores.postgres.client,
    },
    {
      id: "pglite-cache",
      name: "PGlite, cached",
      label: "database, PGlite, `session.cache`",
      client: stores.pglite.client,
      cache: true,
    },
    {
      id: "postgres-cache",
      name: "PostgreSQL, cached",
      label: `database, PostgreSQL ${stores.postgres.version.split(" ")[0]}, \`session.cache\``,
      client: stores.postgres.client,
      cache: true,
    },
  ]
  for (const strategy of strategies) {
    const adapter = strategy.client && PostgresAdapter(strategy.client)
    // A cached strategy's adapter watches the database (LISTEN) until the run ends.
    if (strategy.cache) cleanup.push(() => closeSessionCache(adapter))
    strategy.config = configFor(adapter, errors, strategy.cache === true)
    strategy.token = await signIn(strategy.config)
    const cookie = `${COOKIE_NAME}=${strategy.token}`
    strategy.request = () => new Request(`${ORIGIN}/auth/session`, { headers: { cookie } })
    await check(strategy)
  }
  if (errors.length) fail(`Latch logged an error: ${errors[0].stack ?? errors[0]}`)

  // Two reads per strategy: the direct one and the route.
  const candidates = strategies.flatMap((strategy) => [
    {
      strategy,
      read: "getSession",
      readLabel: "`getSession(request, config)`",
      run: () => getSession(strategy.request(), strategy.config),
    },
    {
      strategy,
      read: "route",
      readLabel: "`Auth(GET /auth/session)` + `response.json()`",
      run: async () => (await Auth(strategy.request(), strategy.config)).json(),
    },
  ])

  const started = performance.now()

  // Interleaved warm-up and rounds (see \`interleave\`).
  await interleave(candidates, {
    passes: 2,
    warmupMs: WARMUP_MS,
    batchMs: BATCH_MS,
    rounds: ROUNDS,
  })
  const seconds = since(started)

  // Nothing failed quietly during the rounds, and every session is still there, unchanged.
  if (errors.length)
    fail(`Latch logged an error during the rounds: ${errors[0].stack ?? errors[0]}`)
  for (const strategy of strategies) await check(strategy)

  // Per round, each read of the database strategy against the same read of the JWT strategy.
  const jwtOf = (read) => candidates.find((c) => c.strategy.id === "jwt" && c.read === read)
  for (const candidate of candidates) {
    candidate.median = median(candidate.rounds)
    candidate.vsJwt = ratios(candidate.rounds, jwtOf(candidate.read).rounds)
  }
  const find = (id, read) => candidates.find((c) => c.strategy.id === id && c.read === read)
  const byRead = (read) => ({
    jwt: find("jwt", read),
    pglite: find("pglite", read),
    postgres: find("postgres", read),
    pgliteCache: find("pglite-cache", read),
    postgresCache: find("postgres-cache", read),
  })
  const direct = byRead("getSession")
  const route = byRead("route")

  // --- Report ----------------------------------------------------------------------------------

  const micros = (c) => 1e6 / c.median
  const interval = (r) => `${ratio(r.low)}–${ratio(r.high)}`
  const spread = (r) => `${ratio(r.min)}–${ratio(r.max)}`
  console.log(
    `\n${ROUNDS} interleaved rounds, ${BATCH_MS} ms batches, ${seconds.toFixed(1)} s in all`,
  )
  console.table(
    Object.fromEntries(
      candidates.map((c) => [
        `${c.strategy.id} ${c.read}`,
        {
          "median ops/s": ops(c.median),
          "µs/read": micros(c).toFixed(1),
          "÷ JWT": ratio(c.vsJwt.median),
          "95% CI": interval(c.vsJwt),
          "min–max": spread(c.vsJwt),
          "ops/batch": c.iterations,
        },
      ]),
    ),
  )
  const summary =
    `Database sessions: getSession reads ${ratio(direct.pglite.vsJwt.median)}× (PGlite) and ` +
    `${ratio(direct.postgres.vsJwt.median)}× (PostgreSQL) the sessions per second of the JWT ` +
    `strategy, GET /auth/session ${ratio(route.pglite.vsJwt.median)}× and ` +
    `${ratio(route.postgres.vsJwt.median)}×; with the session cache getSession reads ` +
    `${ratio(direct.pgliteCache.vsJwt.median)}× and ${ratio(direct.postgresCache.vsJwt.median)}×, ` +
    `GET /auth/session ${ratio(route.pgliteCache.vsJwt.median)}× and ` +
    `${ratio(route.postgresCache.vsJwt.median)}× (medians of per-round ratios)`
  console.log(summary)

  const rows = candidates
    .map((c) => {
      const strategy = c.read === "getSession" ? c.strategy.label : ""
      const vsJwt =
        c.strategy.id === "jwt"
          ? "1 | — | —"
          : `**${ratio(c.vsJwt.median)}×** | ${interval(c.vsJwt)} | ${spread(c.vsJwt)}`
      return `| ${strategy} | ${c.readLabel} | ${vsJwt} | ${ops(c.median)} | ${micros(c).toFixed(1)} µs |`
    })
    .join("\n")

  const added = (c, jwt) => `${(micros(c) - micros(jwt)).toFixed(0)} µs`
  const postgresVersion = stores.postgres.version
  const shortVersion = postgresVersion.split(" ")[0]
  const markdown = `## Database sessions

**With database sessions, \`getSession\` reads ${ratio(direct.pglite.vsJwt.median)}× the
sessions per second of the JWT strategy on PGlite (in memory) and ${ratio(direct.postgres.vsJwt.median)}×
on a PostgreSQL server; \`GET /auth/session\` reads ${ratio(route.pglite.vsJwt.median)}× and
${ratio(route.postgres.vsJwt.median)}×** (ratio database/JWT of reads per second, same read, per
round, median; below 1 the database strategy is slower). **With the session cache
(\`session.cache: true\`), \`getSession\` reads ${ratio(direct.pgliteCache.vsJwt.median)}× (PGlite) and
${ratio(direct.postgresCache.vsJwt.median)}× (PostgreSQL), \`GET /auth/session\`
${ratio(route.pgliteCache.vsJwt.median)}× and ${ratio(route.postgresCache.vsJwt.median)}×.**

What is measured (\`bench/database.mjs\`): the same user signs in three times through Latch's
credentials provider (\`GET /auth/csrf\`, then a form-encoded \`POST /auth/callback/credentials\`,
cookies carried over), under three configurations that differ only in where the session lives:

- **JWT**: \`session: { strategy: "jwt" }\`, no adapter: the cookie is the encrypted session
  (JWE), read without leaving the process — what _Reading a session_ measures.
- **database, PGlite**: \`session: { strategy: "database" }\` with
  \`PostgresAdapter(new PGlite())\` (\`@latch/pg-adapter\`; PGlite is PostgreSQL
  ${stores.pglite.version} compiled to WebAssembly, running in memory in the benchmark's process).
- **database, PostgreSQL**: the same with \`PostgresAdapter(pool)\`, a \`pg.Pool\`
  (\`max: ${POOL_SIZE}\`) on a throwaway PostgreSQL ${shortVersion} cluster started for the run
  (Debian's package; \`initdb\` in a temporary directory, TCP on 127.0.0.1, \`fsync\` off),
  stopped and removed at the end. The server is another process on the same machine.
- **database, cached**: the same two with \`session.cache: true\` (and an adapter object of
  their own, so a cache of their own): a session read recently is served from the instance's
  memory, and the adapter's \`watchSessions\` (triggers and \`LISTEN\`/\`NOTIFY\`; PGlite's own
  \`listen\`) evicts it the moment it changes. The reads here find it cached after the first; the
  figure is the cost of a known session on a page.

The database strategy only takes a credentials user the adapter knows, so each database is first
migrated (\`migrate(client)\`) and given the user with \`adapter.createUser\`. Its cookie then holds
only a session token; each read is one \`getSessionAndUser\` query (the session joined to its
user, by primary key). Each strategy is read two ways: **getSession**, \`getSession(request,
config)\`, and **route**, \`Auth(request, config)\` on \`new Request("${ORIGIN}/auth/session", {
headers: { cookie } })\` and \`response.json()\`, with one reused configuration object per strategy.
Once per strategy, before the rounds and again after them, the run checks that both reads give
the signed-in user and set no cookie (no expiry is due before \`updateAge\`), that a database
cookie is the token of a stored session of that user expiring when the reads say, and that Latch
logged no error (a failing database read is logged and answered as no session).

The ten candidates run in one process, interleaved: after a ${WARMUP_MS / 1000} s warm-up per
candidate (which also sizes a fixed batch of about ${BATCH_MS} ms per candidate), ${ROUNDS} rounds
each run every candidate's batch once, reads sequentially awaited, in an order rotating from round
to round. A candidate's figure is the median of its per-round reads per second; each ratio is
computed per round against the same read of the JWT strategy in that round, and the median of
those ratios is reported, with a distribution-free 95% confidence interval of that median and
the min–max over the rounds.

| Strategy | Read | ÷ JWT, same read (median) | 95% CI | Min–max | Median reads/s | Time per read |
| --- | --- | ---: | ---: | ---: | ---: | ---: |
${rows}

The ratios are the headline; the absolute figures are context for this machine only. In time
per read (from the medians), the database adds about ${added(direct.pglite, direct.jwt)}
(PGlite) and ${added(direct.postgres, direct.jwt)} (PostgreSQL) to a \`getSession\` here. The reads are
sequential: this is the rate of one caller waiting for each read, not the capacity of a server
handling many requests at once, which can overlap round trips to PostgreSQL (not measured here).
The PostgreSQL server shares the machine's cores with the benchmark.
`

  const goals = [
    ["pgliteCache", "PGlite"],
    ["postgresCache", "PostgreSQL"],
  ].map(([key, name]) => ({
    area: "Sessions",
    label: `\`getSession\` with a cached database session on ${name} ÷ JWT sessions, in one process`,
    goal: "≥ 0.8×",
    value: `${ratio(direct[key].vsJwt.median)}× (95% CI ${interval(direct[key].vsJwt)}; uncached ${ratio(direct[key.replace("Cache", "")].vsJwt.median)}×)`,
    verdict: verdict(direct[key].vsJwt, 0.8),
  }))

  return {
    markdown,
    summary,
    goals,
    seconds,
    rounds: ROUNDS,
    postgresVersion,
    postgresSeconds: stores.postgres.seconds,
  }
}

if (isMain(import.meta.url)) runAsScript(runDatabase)
