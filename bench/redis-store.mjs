// @latch/redis-store: how fast a revocation reaches another instance through Redis pub/sub, and
// how many counter operations a second each store does. Two instances (two configurations, two
// Redis connections, two adapter objects and so two session caches) share one PGlite database
// and one throwaway redis-server (Debian's `redis-server`, started by latch-test-servers on a
// free port of 127.0.0.1 and killed at the end). A session cached on B is deleted on A; the time
// until B refuses it is one trial. Counter throughput: `increment` calls a second, one at a time and 64
// in flight, on the Redis store, pg-adapter's counters on PGlite, and an in-process Map (what
// Latch falls back to without a store). Medians of rounds; not part of the test command.
//
//   node redis-store.mjs            (QUICK=1 for fewer trials and rounds)
import { PGlite } from "@electric-sql/pglite"
import { getSession } from "@latch/core"
import { closeSessionCache } from "@latch/core"
import { migrate, PostgresAdapter } from "@latch/pg-adapter"
import { RedisStore, withRedisSessionChanges } from "@latch/redis-store"
import { startRedis } from "latch-test-servers"
import { createClient } from "redis"

const QUICK = process.env.QUICK === "1"
const TRIALS = QUICK ? 200 : 1000
const ROUNDS = QUICK ? 3 : 7
const ROUND_MS = 1000
const SECRET = "a-bench-secret-that-is-long-enough-0123456789"

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}
const median = (values) => percentile(values, 50)

async function connect(url) {
  const client = createClient({ url })
  client.on("error", () => {})
  await client.connect()
  return client
}

function instance(db, redis) {
  const store = RedisStore(redis)
  const adapter = withRedisSessionChanges(PostgresAdapter(db), store)
  const config = {
    secret: SECRET,
    trustHost: true,
    providers: [],
    adapter,
    counterStore: store.counters,
    session: { strategy: "database", cache: true, hashTokens: false },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  }
  return { adapter, config, store }
}

const read = async (on, token) =>
  (
    await getSession(
      new Request("http://localhost/", { headers: { cookie: `authjs.session-token=${token}` } }),
      on.config,
    )
  ).session

async function revocations(a, b, db) {
  const userId = crypto.randomUUID()
  await a.adapter.createUser({ id: userId, email: `${userId}@example.com`, emailVerified: null })
  const times = []
  for (let i = 0; i < TRIALS; i++) {
    const token = crypto.randomUUID()
    await a.adapter.createSession({
      sessionToken: token,
      userId,
      expires: new Date(Date.now() + 3_600_000),
    })
    // Read twice on B: the second read is served from B's cache.
    if (!(await read(b, token)) || !(await read(b, token)))
      throw new Error("B did not read the session")
    const started = performance.now()
    await a.adapter.deleteSession(token)
    while (await read(b, token)) await new Promise((resolve) => setImmediate(resolve))
    times.push(performance.now() - started)
  }
  void db
  return times
}

/** `increment` calls a second, `inFlight` at a time, median of the rounds. */
async function throughput(increment, inFlight) {
  const rates = []
  for (let round = 0; round < ROUNDS; round++) {
    let done = 0
    const end = performance.now() + ROUND_MS
    const expires = new Date(Date.now() + 60_000)
    const worker = async (w) => {
      let n = 0
      while (performance.now() < end) {
        await increment(`bench:${round}:${w}:${n++ % 100}`, expires)
        done++
      }
    }
    const started = performance.now()
    await Promise.all(Array.from({ length: inFlight }, (_, w) => worker(w)))
    rates.push(done / ((performance.now() - started) / 1000))
  }
  return median(rates)
}

/** An in-process Map counter, as Latch keeps one without a store. */
function memoryIncrement() {
  const counters = new Map()
  return async (key, expires) => {
    const now = Date.now()
    const current = counters.get(key)
    if (current && current.expires > now) return ++current.count
    counters.set(key, { count: 1, expires: expires.getTime() })
    return 1
  }
}

const redisServer = await startRedis({ signals: true })
const db = new PGlite()
await migrate(db)
const clients = [await connect(redisServer.url), await connect(redisServer.url)]
const a = instance(db, clients[0])
const b = instance(db, clients[1])
try {
  const times = await revocations(a, b, db)
  console.log(`\nRevocation on A refused by B (${TRIALS} trials, Redis pub/sub, PGlite database)`)
  console.log(`| p50 | p99 | max |\n|---|---|---|`)
  console.log(
    `| ${median(times).toFixed(2)} ms | ${percentile(times, 99).toFixed(2)} ms | ${Math.max(...times).toFixed(2)} ms |`,
  )

  const pg = PostgresAdapter(db)
  const stores = [
    ["Redis store (node-redis, one connection)", a.store.counters.increment],
    ["pg-adapter counters on PGlite", (key, expires) => pg.incrementCounter(key, expires)],
    ["in-process memory (Map)", memoryIncrement()],
  ]
  console.log(`\nCounter increments per second (median of ${ROUNDS} rounds of ${ROUND_MS} ms)`)
  console.log(`| store | 1 in flight | 64 in flight |\n|---|---|---|`)
  for (const [label, increment] of stores) {
    const one = await throughput(increment, 1)
    const many = await throughput(increment, 64)
    console.log(
      `| ${label} | ${Math.round(one).toLocaleString("en")} | ${Math.round(many).toLocaleString("en")} |`,
    )
  }
} finally {
  await closeSessionCache(a.adapter)
  await closeSessionCache(b.adapter)
  for (const client of clients) client.destroy()
  await db.close()
  await redisServer.destroy()
}
