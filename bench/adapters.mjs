// Every adapter and store side by side, in one process and one run: a database-session read
// (`getSession`) uncached and with `session.cache`, a credentials sign-in with the database
// strategy, counter increments one at a time and 64 in flight, and how fast a revocation on one
// instance reaches another — on PGlite and a PostgreSQL server (@latch/pg-adapter), the same
// server through @latch/drizzle-adapter, a SQLite file (libsql) and a MariaDB server (mysql2),
// with @latch/redis-store as change channel and counter store, each against an in-process floor.
//
//   node adapters.mjs            prints the results (QUICK=1 or BENCH_QUICK=1: fewer, shorter rounds)
//   node adapters.mjs --readme   also puts its section into README.md in place of the last one
//
// `node index.mjs` (the `bench` script) writes the section with the others.
import { createHash } from "node:crypto"
import os from "node:os"
import { readFileSync, writeFileSync } from "node:fs"
import { closeSessionCache, getSession } from "@latch/core"
import Credentials from "@latch/core/providers/credentials"
import { RedisStore, withRedisSessionChanges } from "@latch/redis-store"
import { startRedis } from "latch-test-servers"
import { createClient } from "redis"
import { openTargets } from "./lib/adapter-targets.mjs"
import {
  BenchError,
  isMain,
  machine,
  median,
  ops,
  QUICK,
  ratio,
  ratios,
  runAsScript,
} from "./lib/common.mjs"
import { counterRate, interleaveTimed, percentile } from "./lib/latency.mjs"
import { COOKIE_NAME, ORIGIN, signIn } from "./lib/sign-in.mjs"

const SECRET = "latch-bench-secret-that-is-long-enough-0123456789"
const WARMUP_MS = QUICK ? 300 : 1000 // per candidate
const BATCH_MS = QUICK ? 100 : 200 // one candidate's batch in a round
const ROUNDS = QUICK ? 5 : 15 // odd: each median is one measured round
const COUNTER_ROUNDS = QUICK ? 3 : 7
const COUNTER_MS = QUICK ? 150 : 300 // one store, one concurrency, one round
const IN_FLIGHT = 64
const TRIALS = QUICK ? 200 : 1000 // revocations per channel
const TRIAL_TIMEOUT_MS = 5000
const REVOCATION_GOAL_MS = 50

const USER = { id: "bench-alice", name: "Alice", email: "alice@example.com", image: null }

const fail = (message) => {
  throw new BenchError(message)
}
const sha256 = (text) => createHash("sha256").update(text).digest("hex")
/** A ratio to the floor: with two significant digits when far below it. */
const share = (value) => (value < 0.01 ? value.toPrecision(2) : ratio(value))
const ms = (value) => `${value.toFixed(value < 10 ? 2 : 1)} ms`
const interval = (r) => `${share(r.low)}–${share(r.high)}`

function configFor(adapter, errors, { cache = false, counterStore } = {}) {
  return {
    secret: SECRET,
    trustHost: true,
    session: { strategy: "database", cache },
    adapter,
    ...(counterStore ? { counterStore } : {}),
    providers: [
      Credentials({ credentials: { username: {}, password: {} }, authorize: () => ({ ...USER }) }),
    ],
    logger: { error: (error) => errors.push(error), warn: () => {} },
  }
}

/** Counts the adapter's session lookups (`adapter.lookups`): what a cache did not serve. */
function counted(adapter) {
  const lookup = adapter.getSessionAndUser.bind(adapter)
  adapter.lookups = 0
  adapter.getSessionAndUser = (token) => {
    adapter.lookups++
    return lookup(token)
  }
  return adapter
}

/**
 * A session watch that fails (Redis or PostgreSQL too slow to answer on a loaded machine) is
 * logged, and the cache serves nothing until it is set up again, a second later: the figures
 * stay true (the rows say how many reads the cache served). Any other logged error fails the run.
 */
const watchFailure = (error) =>
  error?.name === "RedisStoreError" || /watch|listen|heartbeat/i.test(String(error?.message))

const sessionRequest = (token) =>
  new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${COOKIE_NAME}=${token}` } })

/** `getSession` on `config` with `token` has the user (twice: the second from a cache). */
async function checkRead(name, config, token) {
  for (let i = 0; i < 2; i++) {
    const { session } = await getSession(sessionRequest(token), config)
    if (session?.user?.email !== USER.email)
      fail(`${name}: getSession lacks the user: ${JSON.stringify(session)}`)
  }
}

async function connectRedis(url, cleanup) {
  const client = createClient({ url })
  client.on("error", () => {}) // a lost connection is reported by the store, not here
  await client.connect()
  cleanup.push(() => client.destroy())
  return client
}

// --- (a) Session reads -------------------------------------------------------------------------

async function sessionReads(targets, redisUrl, errors, cleanup) {
  const candidates = []
  const add = async (target, variant, label, adapter, cache) => {
    counted(adapter)
    if (cache) cleanup.push(() => closeSessionCache(adapter))
    const config = configFor(adapter, errors, { cache })
    const token = await signIn(config)
    const name = `${target.id} ${variant}`
    await checkRead(name, config, token)
    const request = sessionRequest(token)
    candidates.push({
      target,
      variant,
      name,
      label,
      adapter,
      config,
      token,
      run: () => getSession(request, config),
    })
  }
  for (const target of targets) {
    await add(target, "uncached", "uncached", target.adapter(), false)
    if (target.watch)
      await add(target, "cached", `\`session.cache\`, ${target.watch}`, target.adapter(), true)
    if (target.id === "sqlite" || target.id === "mariadb") {
      const store = RedisStore(await connectRedis(redisUrl, cleanup))
      const adapter = withRedisSessionChanges(target.adapter(), store)
      await add(target, "redis", "`session.cache`, `withRedisSessionChanges`", adapter, true)
    }
  }
  for (const c of candidates) c.adapter.lookups = 0
  await interleaveTimed(candidates, { warmupMs: WARMUP_MS, batchMs: BATCH_MS, rounds: ROUNDS })
  for (const c of candidates) {
    // Every read since the counts were reset: the warm-up's and the rounds'.
    c.lookupShare = c.adapter.lookups / (c.warmupCalls + c.latencies.length)
    await checkRead(c.name, c.config, c.token)
  }
  return candidates
}

// --- (b) Sign-ins ------------------------------------------------------------------------------

async function signIns(targets, redisUrl, errors, cleanup) {
  const candidates = targets.map((target) => {
    const config = configFor(target.adapter(), errors)
    return { target, label: "adapter's counters", config, run: () => signIn(config) }
  })
  const mariadb = targets.find((target) => target.id === "mariadb")
  const store = RedisStore(await connectRedis(redisUrl, cleanup))
  const config = configFor(mariadb.adapter(), errors, { counterStore: store.counters })
  candidates.push({
    target: mariadb,
    label: "`counterStore`: Redis",
    config,
    run: () => signIn(config),
  })
  await interleaveTimed(candidates, { warmupMs: WARMUP_MS, batchMs: BATCH_MS, rounds: ROUNDS })
  return candidates
}

// --- (c) Counters ------------------------------------------------------------------------------

/** Core's own in-process counter store (what Latch falls back to without adapter counters or a
 * `counterStore`): made by a sign-in that needs it, found under its registered symbol. */
async function processCounters(errors) {
  const config = { ...configFor(undefined, errors), session: { strategy: "jwt" } }
  delete config.adapter
  await signIn(config)
  const store = globalThis[Symbol.for("latch.memory-counters")]
  if (typeof store?.increment !== "function")
    fail("core's in-process counter store was not found under Symbol.for('latch.memory-counters')")
  return (key, expires) => store.increment(key, expires)
}

/** Of `IN_FLIGHT` concurrent increments of one fresh key, each must see a different count. */
async function checkAtomic(name, increment) {
  const key = `bench:atomic:${crypto.randomUUID()}`
  const expires = new Date(Date.now() + 60_000)
  const counts = await Promise.all(Array.from({ length: IN_FLIGHT }, () => increment(key, expires)))
  const sorted = counts.map(Number).sort((a, b) => a - b)
  if (sorted.some((count, i) => count !== i + 1))
    fail(`${name}: ${IN_FLIGHT} concurrent increments of one key gave ${sorted.join(",")}`)
}

async function counters(targets, redisUrl, errors, cleanup) {
  const stores = [{ id: "process", label: "in-process fallback (core's, floor)" }]
  stores[0].increment = await processCounters(errors)
  for (const target of targets) {
    if (target.id === "memory") continue
    const adapter = target.adapter()
    stores.push({
      id: target.id,
      label: `${target.label}: \`incrementCounter\``,
      increment: (key, expires) => adapter.incrementCounter(key, expires),
    })
  }
  const redis = RedisStore(await connectRedis(redisUrl, cleanup))
  stores.push({
    id: "redis",
    label: "`@latch/redis-store` (node-redis, one connection): `counters.increment`",
    increment: redis.counters.increment,
  })
  for (const store of stores) {
    await checkAtomic(store.label, store.increment)
    await counterRate(store.increment, 1, COUNTER_MS / 2, `warm:${store.id}`)
    store.one = []
    store.many = []
  }
  for (let round = 0; round < COUNTER_ROUNDS; round++) {
    for (let i = 0; i < stores.length; i++) {
      const store = stores[(round + i) % stores.length]
      store.one.push(await counterRate(store.increment, 1, COUNTER_MS, `${round}:1:${store.id}`))
      store.many.push(
        await counterRate(store.increment, IN_FLIGHT, COUNTER_MS, `${round}:n:${store.id}`),
      )
    }
  }
  return stores
}

// --- Revocation arrival ------------------------------------------------------------------------

/**
 * A session cached on instance B is deleted on instance A; the time until B refuses it is one
 * trial. Two adapter objects on connections of their own, each with its own session cache.
 */
async function revocations(name, a, b, errors, cleanup) {
  for (const adapter of [a, b]) cleanup.push(() => closeSessionCache(adapter))
  counted(b)
  const configB = configFor(b, errors, { cache: true })
  const read = async (token) => (await getSession(sessionRequest(token), configB)).session
  const times = []
  let uncachedSince = 0 // while B's watch is not up, B does not cache: no trial to make
  for (let i = 0; i < TRIALS;) {
    const token = crypto.randomUUID()
    // Stored as core stores it: the token's SHA-256 (`session.hashTokens`, on by default).
    const sessionToken = sha256(token)
    const expires = new Date(Date.now() + 3_600_000)
    await a.createSession({ sessionToken, userId: USER.id, expires })
    // Until B serves it from its cache: on PostgreSQL the insert's own notification reaches B
    // after A wrote it, and a read that crosses it is not kept.
    let cached = false
    for (let attempt = 0; attempt < 50 && !cached; attempt++) {
      const before = b.lookups
      if (!(await read(token))) fail(`${name}: B did not read the session`)
      cached = b.lookups === before
      if (!cached) await new Promise((resolve) => setTimeout(resolve, 2))
    }
    if (!cached) {
      uncachedSince ||= performance.now()
      if (performance.now() - uncachedSince > 30_000) fail(`${name}: B has not cached for 30 s`)
      await a.deleteSession(sessionToken)
      await new Promise((resolve) => setTimeout(resolve, 100))
      continue
    }
    uncachedSince = 0
    i++
    const started = performance.now()
    await a.deleteSession(sessionToken)
    while (await read(token)) {
      if (performance.now() - started > TRIAL_TIMEOUT_MS)
        fail(`${name}: B still served a deleted session after ${TRIAL_TIMEOUT_MS} ms`)
      await new Promise((resolve) => setImmediate(resolve))
    }
    times.push(performance.now() - started)
  }
  return { name, times, p50: percentile(times, 50), p99: percentile(times, 99) }
}

async function arrivals(targets, redisUrl, errors, cleanup) {
  const byId = (id) => targets.find((target) => target.id === id)
  const results = []
  for (const id of ["postgres", "drizzle-pg"]) {
    const target = byId(id)
    const name = `${target.label}, ${target.watch}`
    results.push(await revocations(name, target.instance(), target.instance(), errors, cleanup))
  }
  for (const id of ["sqlite", "mariadb"]) {
    const target = byId(id)
    const [a, b] = [target.instance(), target.instance()].map(async (adapter) =>
      withRedisSessionChanges(adapter, RedisStore(await connectRedis(redisUrl, cleanup))),
    )
    const name = `${target.label}, Redis pub/sub`
    results.push(await revocations(name, await a, await b, errors, cleanup))
  }
  return results
}

// --- The run -----------------------------------------------------------------------------------

export async function runAdapters() {
  const cleanup = []
  try {
    return await measure(cleanup)
  } finally {
    for (const close of cleanup.reverse()) {
      await Promise.resolve()
        .then(close)
        .catch((error) => console.error(`cleanup failed: ${error.stack ?? error}`))
    }
  }
}

async function measure(cleanup) {
  const errors = []
  const started = performance.now()
  const load = [os.loadavg()[0]]
  console.log("\nstarting PGlite, PostgreSQL, SQLite, MariaDB and Redis…")
  const redis = await startRedis({ signals: true })
  cleanup.push(() => redis.destroy())
  const { targets, postgresVersion, mariadbVersion } = await openTargets(cleanup, USER)
  const redisVersion = /redis_version:(\S+)/.exec(
    await (await connectRedis(redis.url, cleanup)).info("server"),
  )?.[1]
  const setupSeconds = (performance.now() - started) / 1000
  console.log(`ready in ${setupSeconds.toFixed(1)} s; session reads…`)

  const reads = await sessionReads(targets, redis.url, errors, cleanup)
  console.log("sign-ins…")
  const signInRuns = await signIns(targets, redis.url, errors, cleanup)
  console.log("counters…")
  const stores = await counters(targets, redis.url, errors, cleanup)
  console.log("revocations…")
  const revoked = await arrivals(targets, redis.url, errors, cleanup)
  const fatal = errors.filter((error) => !watchFailure(error))
  if (fatal.length) fail(`Latch logged an error: ${fatal[0].stack ?? fatal[0]}`)
  const watchErrors = errors.filter(watchFailure).map((error) => error.message)
  const seconds = (performance.now() - started) / 1000
  load.push(os.loadavg()[0])

  return report({
    watchErrors,
    load,
    redisVersion,
    reads,
    signInRuns,
    stores,
    revoked,
    seconds,
    setupSeconds,
    postgresVersion,
    mariadbVersion,
  })
}

// --- Report ------------------------------------------------------------------------------------

function report({
  reads,
  signInRuns,
  stores,
  revoked,
  seconds,
  postgresVersion,
  mariadbVersion,
  redisVersion,
  load,
  watchErrors,
}) {
  const readFloor = reads.find((c) => c.target.id === "memory")
  const signInFloor = signInRuns.find((c) => c.target.id === "memory")
  const counterFloor = stores.find((s) => s.id === "process")
  for (const c of reads) c.vsFloor = ratios(c.rounds, readFloor.rounds)
  for (const c of signInRuns) c.vsFloor = ratios(c.rounds, signInFloor.rounds)
  for (const s of stores) {
    s.oneVsFloor = ratios(s.one, counterFloor.one)
    s.manyVsFloor = ratios(s.many, counterFloor.many)
  }

  const readRows = reads
    .map((c) => {
      const p50 = percentile(c.latencies, 50)
      const p99 = percentile(c.latencies, 99)
      const vs = c === readFloor ? "1" : `**${share(c.vsFloor.median)}×** (${interval(c.vsFloor)})`
      const lookups = `${(c.lookupShare * 100).toFixed(c.lookupShare < 0.01 ? 2 : 0)}%`
      return `| ${c.target.label} | ${c.label} | ${ops(median(c.rounds))} | ${vs} | ${ms(p50)} | ${ms(p99)} | ${lookups} |`
    })
    .join("\n")
  const signInRows = signInRuns
    .map((c) => {
      const vs =
        c === signInFloor ? "1" : `**${ratio(c.vsFloor.median)}×** (${interval(c.vsFloor)})`
      return `| ${c.target.label} | ${c.label} | ${ops(median(c.rounds))} | ${vs} | ${ms(percentile(c.latencies, 50))} | ${ms(percentile(c.latencies, 99))} |`
    })
    .join("\n")
  const counterRows = stores
    .map((s) => {
      const vs = (r) => (s === counterFloor ? "1" : `${share(r.median)}×`)
      return `| ${s.label} | ${ops(median(s.one))} | ${vs(s.oneVsFloor)} | ${ops(median(s.many))} | ${vs(s.manyVsFloor)} |`
    })
    .join("\n")
  const revocationRows = revoked
    .map((r) => `| ${r.name} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(Math.max(...r.times))} |`)
    .join("\n")

  const find = (id, variant) => reads.find((c) => c.target.id === id && c.variant === variant)
  const cachedSummary = [
    ["pglite", "cached", "PGlite"],
    ["postgres", "cached", "PostgreSQL"],
    ["drizzle-pg", "cached", "PostgreSQL via Drizzle"],
    ["sqlite", "cached", "SQLite"],
    ["mariadb", "redis", "MariaDB + Redis"],
  ]
    .map(([id, variant, name]) => {
      const c = find(id, variant)
      return `${name} ${share(find(id, "uncached").vsFloor.median)}× → ${ratio(c.vsFloor.median)}×`
    })
    .join(", ")
  const worst = revoked.reduce((a, b) => (b.p99 > a.p99 ? b : a))
  const summary =
    `Adapters: \`getSession\` ÷ the in-process memory adapter, uncached → cached: ${cachedSummary}; ` +
    `a revocation reaches another instance within ${ms(worst.p99)} p99 at worst (${worst.name})`
  console.log(`\n${summary}`)
  console.log(`\nSession reads\n| Adapter | Read | reads/s | ÷ floor | p50 | p99 |\n${readRows}`)
  console.log(
    `\nSign-ins\n| Adapter | Counters | sign-ins/s | ÷ floor | p50 | p99 |\n${signInRows}`,
  )
  console.log(
    `\nCounters\n| Store | 1 in flight | ÷ | ${IN_FLIGHT} in flight | ÷ |\n${counterRows}`,
  )
  console.log(`\nRevocations\n| Channel | p50 | p99 | max |\n${revocationRows}`)

  const distinct = [...new Set(watchErrors)]
  const watchNote = distinct.length
    ? `\nLatch logged ${watchErrors.length} failure${watchErrors.length === 1 ? "" : "s"} to set up a session watch in this run, ` +
      `each followed by a retry a second later (uncached reads meanwhile): ${distinct.map((m) => `“${m}”`).join("; ")}.\n`
    : ""
  const pgShort = postgresVersion.split(" ")[0]
  const markdown = `## Adapters and stores side by side

**${summary}.** Each figure is a median of interleaved rounds in one process, and each ratio the
median of per-round ratios against the floor measured in the same rounds (below 1: slower than
the floor).

What is measured (\`bench/adapters.mjs\`), on one run's databases, each empty, given Latch's
tables and the user, the servers started for the run from Debian's packages on 127.0.0.1
(\`latch-test-servers\`) and removed at the end:

- **in-process memory adapter** (the floor): Maps in this process (\`bench/lib/memory-adapter.mjs\`),
  no I/O — what an adapter costs beyond it is its database.
- **PGlite** (in memory, in this process) and a **PostgreSQL ${pgShort}** server (\`pg.Pool\`,
  \`max: 10\`; \`fsync\` off) through \`@latch/pg-adapter\` (\`migrate\`).
- the same server through **\`@latch/drizzle-adapter\`** (\`drizzle-orm/node-postgres\`), its tables
  from \`drizzle-kit/api\` as \`drizzle-kit generate\` writes them, and \`installSessionTriggers\`.
- a **SQLite file** (WAL) through \`@latch/drizzle-adapter\` and \`@libsql/client\`.
- a **MariaDB ${mariadbVersion.split("-")[0]}** server through \`@latch/drizzle-adapter\` and a \`mysql2\` pool
  (\`connectionLimit: 10\`, InnoDB, \`innodb_flush_log_at_trx_commit=0\`).
- **Redis ${redisVersion}** (\`redis-server\`, no persistence) through \`@latch/redis-store\` and one node-redis
  connection per store: the change channel (\`withRedisSessionChanges\`) and a counter store.

### Reading a database session

\`getSession(request, config)\` with the cookie of a session made by a credentials sign-in
(\`session: { strategy: "database" }\`, tokens stored hashed), one configuration and adapter
object per row, reads sequentially awaited: ${ROUNDS} rounds of about ${BATCH_MS} ms per row after a
${WARMUP_MS / 1000} s warm-up. **Cached** rows set \`session.cache: true\`: after the first read the
session is served from the instance's memory while the adapter's \`watchSessions\` (its own, or
Redis pub/sub through \`withRedisSessionChanges\` where the database has none — MariaDB — or where
several processes share a SQLite file) would evict it on any change. Latencies are over every
read of every round; the last column is the share of reads that went to the database
(\`getSessionAndUser\` calls ÷ reads), which shows whether a cache served them. A cached read
skips the adapter altogether, so it may beat the uncached floor (a ratio above 1).

| Adapter | Read | Median reads/s | ÷ memory adapter (95% CI) | p50 | p99 | Database lookups |
| --- | --- | ---: | ---: | ---: | ---: | ---: |
${readRows}

### Signing in

A whole credentials sign-in with the database strategy through \`Auth()\` (\`GET /auth/csrf\`, then
the form \`POST /auth/callback/credentials\`, cookies carried over): the rate-limit counters (the
adapter's \`incrementCounter\` / \`getCounter\`, or Redis as \`counterStore\`), then
\`createSession\`. Same rounds as above.

| Adapter | Counters | Median sign-ins/s | ÷ memory adapter (95% CI) | p50 | p99 |
| --- | --- | ---: | ---: | ---: | ---: |
${signInRows}

### Counters

\`increment(key, expires)\` calls a second — one caller awaiting each call, and ${IN_FLIGHT} callers at
once — on each store as Latch calls it, over 100 keys per caller in a live window. ${COUNTER_ROUNDS} rounds of
${COUNTER_MS} ms per store and concurrency, interleaved; the floor is core's own in-process store,
what Latch falls back to without adapter counters or a \`counterStore\` (right for one instance
only). Before measuring, ${IN_FLIGHT} concurrent increments of one fresh key on each store must see
the counts 1 to ${IN_FLIGHT}, each once (atomic), or the run fails.

| Store | 1 in flight, median/s | ÷ floor | ${IN_FLIGHT} in flight, median/s | ÷ floor |
| --- | ---: | ---: | ---: | ---: |
${counterRows}

### A revocation reaching another instance

Two instances (two adapter objects on connections of their own, two session caches) share each
database: a session read twice on B (so cached there) is deleted on A with \`deleteSession\`, and
B is read again, yielding between reads, until it refuses the session. A trial counts only when B
served its second read from its cache (while B's watch is being set up again it caches nothing,
and the trial waits). ${TRIALS} trials per channel; goal: refused within ${REVOCATION_GOAL_MS} ms at p99.

| Database, channel | p50 | p99 | max |
| --- | ---: | ---: | ---: |
${revocationRows}
${watchNote}
Run alone: \`pnpm --filter latch-bench run bench:adapters\` (\`QUICK=1\` for a short run, \`--readme\`
to put this section here); it needs Debian's \`postgresql\`, \`mariadb-server\` and \`redis-server\`
(a missing one is named). The reads and sign-ins are sequential: the rate of one caller waiting for each operation, not a
server's capacity with many requests in flight. The servers share the machine's cores with the
benchmark; absolute figures are context for this machine only. This run: ${machine().cpu},
${machine().cores} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, ${seconds.toFixed(0)} s${QUICK ? " (quick mode)" : ""}; the
1-minute load average went ${load.map((v) => v.toFixed(1)).join(" → ")} (about 2 of it the benchmark
and its servers; more is other work on the machine, which widens the intervals).
`

  const goals = revoked.map((r) => ({
    area: "Sessions",
    label: `a revocation on one instance refused by another, p99: ${r.name}`,
    goal: `≤ ${REVOCATION_GOAL_MS} ms`,
    value: `${ms(r.p99)} (median ${ms(r.p50)}, ${r.times.length} trials)`,
    verdict: r.p99 <= REVOCATION_GOAL_MS ? "met" : "missed",
  }))

  return {
    markdown,
    summary,
    goals,
    seconds,
    rounds: ROUNDS,
    postgresVersion,
    mariadbVersion,
    redisVersion,
  }
}

/** Replaces this benchmark's section of README.md, or adds it where index.mjs puts it. */
function spliceReadme(markdown) {
  const file = new URL("README.md", import.meta.url)
  const readme = readFileSync(file, "utf8")
  const start = readme.indexOf("## Adapters and stores side by side")
  const next = (from) => readme.indexOf("\n## ", from) + 1
  const updated =
    start >= 0
      ? readme.slice(0, start) + markdown + readme.slice(next(start + 3))
      : readme.replace("## The session cache", `${markdown}\n## The session cache`)
  writeFileSync(file, updated)
  console.log("\nwrote its section into bench/README.md")
}

if (isMain(import.meta.url))
  runAsScript(async () => {
    const { markdown } = await runAdapters()
    if (process.argv.includes("--readme")) spliceReadme(markdown)
  })
