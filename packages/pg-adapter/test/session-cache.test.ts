/**
 * The session cache (`session.cache`) of two instances of an app on one PostgreSQL server, each
 * with its own pool, adapter and cache, under a steady load of session reads — and faults: the
 * listening connection killed, the server restarted. What must hold throughout:
 *
 * - a session revoked on one instance is refused by the other once the revocation has had time
 *   to arrive (the bound below), and never served again after that, whatever fails meanwhile;
 * - a live session reads (no sign-out by a fault) and, once the database is back, the cache
 *   serves it again without a database read — nothing is restarted.
 */
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getSession } from "../../core/src/index.js"
import { closeSessionCache, existingSessionCache } from "../../core/src/session/cache.js"
import type { AuthConfig } from "../../core/src/types.js"
import { ALICE, Browser, ORIGIN, testConfig } from "../../core/test/helpers/request.js"
import { migrate, PostgresAdapter } from "../src/index.js"
import { startPostgres, type PostgresServer } from "./postgres-server.js"

/**
 * How long a revocation may take to reach the other instance before the test calls it lost: a
 * bound for correctness (it arrives), not a measure of speed — bench/ measures the delay
 * (p99 of a few tens of milliseconds), and a loaded machine must not fail a correct run.
 */
const ARRIVAL_MS = 1_000
const SESSIONS = 24

let server: PostgresServer
const pools: pg.Pool[] = []
const adapters: ReturnType<typeof PostgresAdapter>[] = []
const errors: string[] = []

/** One instance of the app: its own pool, adapter and so cache. */
function instance(connectionString: string) {
  const pool = new pg.Pool({ connectionString, max: 6, connectionTimeoutMillis: 1_000 })
  pools.push(pool)
  const adapter = PostgresAdapter(pool, { watch: { heartbeatMs: 250 } })
  adapters.push(adapter)
  // Database reads, counted: a cached read makes none.
  const read = adapter.getSessionAndUser
  let reads = 0
  adapter.getSessionAndUser = (token) => {
    reads++
    return read(token)
  }
  const config: AuthConfig = testConfig({
    adapter,
    session: { strategy: "database", cache: true },
    logger: {
      error: (error) => errors.push(`${error.name}: ${error.message}`),
      warn: () => {},
      debug: () => {},
    },
  })
  return { adapter, config, pool, reads: () => reads }
}

type Instance = ReturnType<typeof instance>

const request = (cookie: string) =>
  new Request(`${ORIGIN}/`, { headers: { cookie: `authjs.session-token=${cookie}` } })

const readOn = async (on: Instance, token: string) =>
  (await getSession(request(token), on.config)).session

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(10)
  }
}

let a: Instance
let b: Instance

beforeAll(async () => {
  server = await startPostgres()
  const connectionString = await server.createDatabase("latch_session_cache")
  const setup = new pg.Pool({ connectionString, max: 1 })
  await migrate(setup)
  await PostgresAdapter(setup).createUser({ ...ALICE, emailVerified: null })
  await setup.end()
  a = instance(connectionString)
  b = instance(connectionString)
}, 60_000)

afterAll(async () => {
  for (const adapter of adapters) await closeSessionCache(adapter)
  for (const pool of pools) await pool.end()
  await server?.destroy()
})

/** Signs `n` browsers in on `on`; their cookies. */
async function signInMany(on: Instance, n: number): Promise<string[]> {
  const tokens: string[] = []
  for (let i = 0; i < n; i++) {
    const browser = new Browser(on.config)
    await browser.signIn()
    tokens.push(browser.cookies.get("authjs.session-token")!)
  }
  return tokens
}

/**
 * Reads every live and revoked session on `b`, over and over, until `stop()`: a revoked session
 * read as a session more than ARRIVAL_MS after its revocation is a violation.
 */
function loadOn(on: Instance, live: () => string[], revoked: Map<string, number>) {
  let running = true
  const violations: string[] = []
  let reads = 0
  let liveMissed = 0
  const worker = async () => {
    while (running) {
      for (const token of [...live(), ...revoked.keys()]) {
        const started = Date.now()
        let session
        try {
          session = await readOn(on, token)
        } catch {
          continue
        }
        reads++
        const revokedAt = revoked.get(token)
        if (revokedAt !== undefined && session && started - revokedAt > ARRIVAL_MS) {
          violations.push(`a session revoked ${started - revokedAt} ms before was served`)
        }
        if (revokedAt === undefined && !session) liveMissed++
      }
      await sleep(1)
    }
  }
  const workers = [worker(), worker(), worker()]
  return {
    async stop() {
      running = false
      await Promise.all(workers)
      return { violations, reads, liveMissed }
    },
  }
}

/** Signs the session of `token` out on `on`; records when the row was gone. */
async function signOutOn(on: Instance, token: string, revoked: Map<string, number>) {
  const browser = new Browser(on.config)
  browser.cookies.set("authjs.session-token", token)
  const csrfToken = await browser.csrfToken()
  await browser.fetch("/auth/signout", { form: { csrfToken } })
  revoked.set(token, Date.now())
}

describe("the session cache of two instances on one PostgreSQL server, under faults", () => {
  it("refuses every revoked session and keeps every live one, through a killed listener and a restart", async () => {
    const tokens = await signInMany(a, SESSIONS)
    const revoked = new Map<string, number>()
    const live = () => tokens.filter((token) => !revoked.has(token))
    // B serves every session from its cache.
    for (const token of tokens) expect(await readOn(b, token)).not.toBeNull()
    await readOn(a, tokens[0]!)
    await until(() => existingSessionCache(a.adapter)?.serving === true, "a's cache to serve")
    await until(() => existingSessionCache(b.adapter)?.serving === true, "b's cache to serve")
    for (const token of tokens) await readOn(b, token)
    const before = b.reads()
    for (const token of tokens) expect(await readOn(b, token)).not.toBeNull()
    expect(b.reads() - before).toBe(0)

    const load = loadOn(b, live, revoked)
    try {
      await faults(tokens, revoked, live)
    } finally {
      outcome = await load.stop()
    }
    const { violations, reads, liveMissed } = outcome
    expect(violations).toEqual([])
    expect(reads).toBeGreaterThan(500)
    // Live sessions were refused only while the server was down (each read then fails).
    expect(liveMissed).toBeLessThan(reads / 4)

    // Afterwards: every revoked session refused, every live one read — from the cache again.
    for (const token of revoked.keys()) expect(await readOn(b, token)).toBeNull()
    for (const token of live()) expect(await readOn(b, token)).not.toBeNull()
    const after = b.reads()
    for (const token of live()) expect(await readOn(b, token)).not.toBeNull()
    expect(b.reads() - after).toBe(0)
    // What was logged is the database being down, nothing else.
    for (const line of errors) expect(line).toMatch(/AdapterError/)
  }, 90_000)
})

let outcome: { violations: string[]; reads: number; liveMissed: number }

/** Revocations on `a`, through the faults. */
async function faults(tokens: string[], revoked: Map<string, number>, live: () => string[]) {
  let next = 0
  const revokeSome = async (n: number) => {
    for (let i = 0; i < n; i++) await signOutOn(a, tokens[next++]!, revoked)
  }

  // Revocations under load, all healthy.
  await revokeSome(4)
  await sleep(300)

  // The listening connection of b killed: b stops trusting its cache at once, revocations
  // made while it reconnects are read from the database, and it listens again by itself.
  // (A listening connection's last query is its LISTEN or its heartbeat's `select 1`.)
  const { rows } = await a.pool.query(
    `select pid from pg_stat_activity where datname = current_database()
       and (query ilike 'listen %' or query = 'select 1') and pid <> pg_backend_pid()`,
  )
  expect(rows.length).toBeGreaterThanOrEqual(2)
  for (const { pid } of rows) await a.pool.query("select pg_terminate_backend($1)", [pid])
  await revokeSome(4)
  await until(() => existingSessionCache(b.adapter)?.serving === true, "b to listen again")
  await revokeSome(2)
  await sleep(300)

  // The server restarted: reads fail while it is down (no session, the cookie kept), and come
  // back with it; revocations after it hold.
  await server.stop()
  await sleep(300)
  await server.start()
  await until(async () => (await readOn(b, live()[0]!)) !== null, "reads to come back")
  await until(() => existingSessionCache(b.adapter)?.serving === true, "b's cache to serve again")
  await revokeSome(4)
  await sleep(300)
}
