/**
 * Two instances of an app (two `Auth()` configurations, each with its own Redis connection,
 * store, adapter object and so session cache) sharing one database (core's memory adapter, one
 * object behind both) and one redis-server: a rate limit counted across both, a revocation on
 * one refused by the other at once, and Redis killed and restarted under a steady load of
 * session reads — no revoked session served, no 500, the cache serving again afterwards.
 */
import { createClient, type RedisClientType } from "redis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getSession } from "../../core/src/index.js"
import { closeSessionCache, existingSessionCache } from "../../core/src/session/cache.js"
import type { AuthConfig } from "../../core/src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../../core/test/helpers/memory-adapter.js"
import { ALICE, Browser, ORIGIN, testConfig } from "../../core/test/helpers/request.js"
import { RedisStore, withRedisSessionChanges } from "../src/index.js"
import { startRedis, type RedisServer } from "./redis-server.js"

/**
 * How long a revocation may take to reach the other instance before the test calls it lost: a
 * bound for correctness (it arrives), not a measure of speed — bench/ measures the delay
 * (p99 of a few tens of milliseconds), and a loaded machine must not fail a correct run.
 */
const ARRIVAL_MS = 1_000

let server: RedisServer
let db: MemoryAdapter
/** The clients made with `createClient({ url })`: no modules, RESP 3 (node-redis 6's default). */
const clients: RedisClientType<{}, {}, {}, 3, {}>[] = []
const instances: Instance[] = []
const errors: string[] = []

async function instance(): Promise<Instance> {
  const redis = createClient({ url: server.url })
  redis.on("error", () => {})
  await redis.connect()
  clients.push(redis)
  const store = RedisStore(redis, { commandTimeoutMs: 300, heartbeatMs: 200 })
  const adapter = withRedisSessionChanges(db, store)
  // Database reads, counted: a cached read makes none.
  const read = adapter.getSessionAndUser!
  let reads = 0
  adapter.getSessionAndUser = (token) => {
    reads++
    return read(token)
  }
  const config: AuthConfig = testConfig({
    adapter,
    counterStore: store.counters,
    session: { strategy: "database", cache: true },
    logger: {
      error: (error) => errors.push(`${error.name}: ${error.message}`),
      warn: () => {},
      debug: () => {},
    },
  })
  const made = { adapter, config, reads: () => reads }
  instances.push(made)
  return made
}

interface Instance {
  adapter: ReturnType<typeof withRedisSessionChanges<MemoryAdapter>>
  config: AuthConfig
  reads(): number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(5)
  }
}

const readOn = async (on: Instance, token: string) =>
  (
    await getSession(
      new Request(`${ORIGIN}/`, { headers: { cookie: `authjs.session-token=${token}` } }),
      on.config,
    )
  ).session

const serving = (on: Instance) => existingSessionCache(on.adapter)?.serving === true

async function signIn(on: Instance): Promise<string> {
  const browser = new Browser(on.config)
  await browser.signIn()
  return browser.cookies.get("authjs.session-token")!
}

/** Signs out on `on`; the response (its cookie jar had the session). */
async function signOut(on: Instance, token: string) {
  const browser = new Browser(on.config)
  browser.cookies.set("authjs.session-token", token)
  const csrfToken = await browser.csrfToken()
  return browser.fetch("/auth/signout", { form: { csrfToken } })
}

let a: Instance
let b: Instance

beforeAll(async () => {
  server = await startRedis()
  db = memoryAdapter()
  await db.createUser!({ ...ALICE, emailVerified: null })
  a = await instance()
  b = await instance()
})

afterAll(async () => {
  for (const { adapter } of instances) await closeSessionCache(adapter)
  for (const client of clients) client.destroy()
  await server?.destroy()
})

describe("two instances on one Redis", () => {
  it("count one credentials rate limit together", async () => {
    const browserA = new Browser(a.config)
    const browserB = new Browser(b.config)
    browserA.clientAddress = browserB.clientAddress = "203.0.113.7"
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
    const refused = await browserA.signIn("alice", "wonderland")
    expect(refused.headers.get("location")).toMatch(/code=rate_limited/)
    expect((await browserB.signIn("alice", "wonderland")).headers.get("location")).toMatch(
      /code=rate_limited/,
    )
    // Counted in Redis, under the prefix, not in the database's counters.
    expect(db.counters.size).toBe(0)
    expect((await clients[0]!.keys("latch:counter:credentials:*")).length).toBeGreaterThan(0)
  })

  it(`a session signed out on A is refused by B at once, B serving from its cache until then`, async () => {
    const tokens = await Promise.all(Array.from({ length: 10 }, () => signIn(a)))
    for (const token of tokens) expect(await readOn(b, token)).not.toBeNull()
    await until(() => serving(b), "b's cache to serve")
    for (const token of tokens) await readOn(b, token)
    const before = b.reads()
    for (const token of tokens) expect(await readOn(b, token)).not.toBeNull()
    expect(b.reads() - before).toBe(0)

    for (const token of tokens) {
      const response = await signOut(a, token)
      expect(response.status).toBe(302)
      const revokedAt = Date.now()
      await until(async () => (await readOn(b, token)) === null, "b to refuse", ARRIVAL_MS)
      expect(Date.now() - revokedAt).toBeLessThanOrEqual(ARRIVAL_MS)
    }
  })

  it("a user changed on A is read again by B (updateUser publishes the user)", async () => {
    const token = await signIn(a)
    await readOn(b, token)
    expect((await readOn(b, token))?.user?.name).toBe("Alice")
    await a.adapter.updateUser!({ id: ALICE.id, name: "Alice B." })
    await until(
      async () => (await readOn(b, token))?.user?.name === "Alice B.",
      "the new name",
      200,
    )
    await a.adapter.updateUser!({ id: ALICE.id, name: "Alice" })
  })
})

describe("Redis killed and restarted under load", () => {
  it("serves no revoked session, answers no 500, keeps live sessions, and caches again after", async () => {
    const tokens = await Promise.all(Array.from({ length: 12 }, () => signIn(a)))
    const revoked = new Map<string, number>()
    // Being signed out: either answer is right until the sign-out has answered.
    const pending = new Set<string>()
    const live = () => tokens.filter((token) => !revoked.has(token))
    for (const token of tokens) await readOn(b, token)
    await readOn(a, tokens[0]!)
    await until(() => serving(a) && serving(b), "both caches to serve")

    let running = true
    const violations: string[] = []
    let reads = 0
    let failed = 0
    const worker = async () => {
      while (running) {
        for (const token of [...live(), ...revoked.keys()]) {
          const started = Date.now()
          let session
          try {
            session = await readOn(b, token)
          } catch {
            failed++
            continue
          }
          reads++
          if (pending.has(token)) continue
          const at = revoked.get(token)
          if (at !== undefined && session && started - at > ARRIVAL_MS) {
            violations.push(`a session revoked ${started - at} ms before was served`)
          }
          if (at === undefined && !session) violations.push("a live session was refused")
        }
        await sleep(1)
      }
    }
    const workers = [worker(), worker()]
    let next = 0
    const revoke = async (expectStatus: "ok" | "unavailable") => {
      const token = tokens[next++]!
      pending.add(token)
      const response = await signOut(a, token)
      revoked.set(token, Date.now())
      pending.delete(token)
      expect(response.status).toBe(302)
      if (expectStatus === "ok") expect(response.headers.get("location")).not.toMatch(/error=/)
      else expect(response.headers.get("location")).toMatch(/error=Configuration&code=unavailable/)
    }
    try {
      await revoke("ok")
      await sleep(100)

      await server.stop()
      // The subscriber's connection closed: neither cache serves any more, at once.
      await until(() => !serving(a) && !serving(b), "the caches to stop serving", 500)
      // A sign-out deletes the session, but cannot tell the others: it says so (no 500), and B,
      // reading the database now, refuses the session all the same.
      await revoke("unavailable")
      await revoke("unavailable")
      // A sign-in needs its counters: refused the same way, never let through uncounted.
      const signInDown = await new Browser(b.config).signIn()
      expect(signInDown.status).toBe(302)
      expect(signInDown.headers.get("location")).toMatch(/error=Configuration&code=unavailable/)
      // A session read needs no Redis: answered from the database.
      const reader = new Browser(b.config)
      reader.cookies.set("authjs.session-token", live()[0]!)
      const read = await reader.fetch("/auth/session")
      expect(read.status).toBe(200)
      expect(((await read.json()) as { user?: { name?: string } }).user?.name).toBe("Alice")
      await sleep(300)

      await server.start()
      await until(() => serving(a) && serving(b), "both caches to serve again")
      await revoke("ok")
      await sleep(200)
    } finally {
      running = false
      await Promise.all(workers)
    }
    expect(violations).toEqual([])
    expect(failed).toBe(0)
    expect(reads).toBeGreaterThan(200)

    // Afterwards: revoked refused, live read — from B's cache again.
    for (const token of revoked.keys()) expect(await readOn(b, token)).toBeNull()
    for (const token of live()) expect(await readOn(b, token)).not.toBeNull()
    const after = b.reads()
    for (const token of live()) expect(await readOn(b, token)).not.toBeNull()
    expect(b.reads() - after).toBe(0)
    // What was logged is Redis being away, nothing else.
    expect(errors.length).toBeGreaterThan(0)
    for (const line of errors) expect(line).toMatch(/AdapterError/)
  }, 60_000)
})
