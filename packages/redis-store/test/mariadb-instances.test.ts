/**
 * Two instances of an app on a real database that cannot report its changes: MariaDB (Debian's
 * `mariadb-server`, started on 127.0.0.1) through `@latch/drizzle-adapter`, which has no
 * `watchSessions` there — and one redis-server, which brings the shared counters and the change
 * channel. A rate limit counted across both; a sign-out, a revocation of one session, a sign-out
 * everywhere and a deleted user on A refused by B at once (bench/adapters.mjs measures how soon),
 * B serving from its cache until then.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getUserSessions, revokeSessions, revokeUserSession } from "../../core/src/index.js"
import { ALICE, Browser } from "../../core/test/helpers/request.js"
import { DrizzleAdapter } from "../../drizzle-adapter/src/index.js"
import {
  createTables,
  openMariadb,
  type TestDatabase,
} from "../../drizzle-adapter/test/databases.js"
import {
  cluster,
  readOn,
  refusedWithin,
  serving,
  signIn,
  signOut,
  until,
  withCookie,
  type Cluster,
  type Instance,
} from "./instances.js"
import { startRedis, type RedisServer } from "./redis-server.js"

/**
 * How long a revocation may take to reach the other instance before the test calls it lost: a
 * bound for correctness (it arrives), not a measure of speed — bench/ measures the delay
 * (p99 of a few tens of milliseconds), and a loaded machine must not fail a correct run.
 */
const ARRIVAL_MS = 1_000

let server: RedisServer
let database: TestDatabase
let apps: Cluster
let a: Instance
let b: Instance

beforeAll(async () => {
  ;[server, database] = await Promise.all([startRedis(), openMariadb()])
  await createTables(database)
  apps = cluster(server.url)
  // Two adapter objects on the database, as two processes would have.
  a = await apps.instance(DrizzleAdapter(database.db))
  b = await apps.instance(DrizzleAdapter(database.db))
  expect(DrizzleAdapter(database.db).watchSessions).toBeUndefined()
  await a.adapter.createUser!({ ...ALICE, emailVerified: null })
}, 120_000)

afterAll(async () => {
  await apps?.close()
  await database?.close()
  await server?.destroy()
})

/** Signs in `n` sessions on A, each read by B until B serves it from its cache. */
async function cachedOnB(n: number): Promise<string[]> {
  const tokens: string[] = []
  for (let i = 0; i < n; i++) tokens.push(await signIn(a))
  for (const token of tokens) expect(await readOn(b, token)).not.toBeNull()
  await until(() => serving(b), "b's cache to serve")
  for (const token of tokens) await readOn(b, token)
  const before = b.reads()
  for (const token of tokens) expect(await readOn(b, token)).not.toBeNull()
  expect(b.reads()).toBe(before)
  return tokens
}

describe("two instances on MariaDB and one Redis", () => {
  it("count one credentials rate limit together, in Redis rather than the database", async () => {
    const browserA = new Browser(a.config)
    const browserB = new Browser(b.config)
    browserA.clientAddress = browserB.clientAddress = "203.0.113.9"
    // The default allows 5 failures per account and address: 3 on A, 2 on B…
    for (const [browser, n] of [
      [browserA, 3],
      [browserB, 2],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const response = await browser.signIn("alice", "wrong")
        expect(response.headers.get("location")).toMatch(/code=credentials/)
      }
    }
    // …and the next one, on either, is refused before `authorize` (even the right password).
    for (const browser of [browserA, browserB]) {
      const refused = await browser.signIn("alice", "wonderland")
      expect(refused.headers.get("location")).toMatch(/code=rate_limited/)
    }
    const [rows] = await (database as TestDatabase & { pool: any }).pool.query(
      "select count(*) as n from latch_counter",
    )
    expect(Number(rows[0].n)).toBe(0)
    expect((await apps.clients[0]!.keys("latch:counter:credentials:*")).length).toBeGreaterThan(0)
  })

  it(`a sign-out on A is refused by B at once`, async () => {
    const tokens = await cachedOnB(5)
    for (const token of tokens) {
      const response = await signOut(a, token)
      expect(response.headers.get("location")).not.toMatch(/error=/)
      expect(await refusedWithin(b, token, ARRIVAL_MS)).toBeLessThanOrEqual(ARRIVAL_MS)
    }
  })

  it(`one session revoked on A (a device signed out from the list) is refused by B at once`, async () => {
    const [mine, other] = await cachedOnB(2)
    const listed = await getUserSessions(withCookie(mine!), a.config)
    const target = listed!.find((session) => !session.current)!
    expect(await revokeUserSession(withCookie(mine!), a.config, target.id)).toBe(true)
    expect(await refusedWithin(b, other!, ARRIVAL_MS)).toBeLessThanOrEqual(ARRIVAL_MS)
    expect(await readOn(b, mine!)).not.toBeNull()
    await revokeSessions(a.config, ALICE.id)
  })

  it(`a sign-out everywhere on A is refused by B at once`, async () => {
    const tokens = await cachedOnB(4)
    expect(await revokeSessions(a.config, ALICE.id)).toBe(4)
    const from = Date.now()
    for (const token of tokens) await refusedWithin(b, token, ARRIVAL_MS)
    expect(Date.now() - from).toBeLessThanOrEqual(ARRIVAL_MS)
  })

  it(`a user deleted on A is refused by B at once`, async () => {
    const tokens = await cachedOnB(2)
    await a.adapter.deleteUser!(ALICE.id)
    const from = Date.now()
    for (const token of tokens) await refusedWithin(b, token, ARRIVAL_MS)
    expect(Date.now() - from).toBeLessThanOrEqual(ARRIVAL_MS)
    expect(apps.errors).toEqual([])
  })
})
