/**
 * The counter store on a real redis-server: the `CounterStore` contract (as the adapters'
 * `incrementCounter`/`getCounter` have it), atomicity under real concurrency from several
 * connections, the key prefix, and what a failing Redis does to each kind of counter.
 */
import { randomUUID } from "node:crypto"
import { createClient } from "redis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { RATE_LIMIT_PREFIXES, RedisStore, RedisStoreError } from "../src/index.js"
import { startRedis, type RedisServer } from "./redis-server.js"

type Client = ReturnType<typeof createClient>

let server: RedisServer
const clients: Client[] = []

async function connect(options: Parameters<typeof createClient>[0] = {}): Promise<Client> {
  const client = createClient({ url: server.url, ...options })
  client.on("error", () => {})
  clients.push(client)
  await client.connect()
  return client
}

const fromNow = (ms: number) => new Date(Date.now() + ms)
const key = (kind = "test:") => `${kind}${randomUUID()}`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let redis: Client
let store: RedisStore

beforeAll(async () => {
  server = await startRedis()
  redis = await connect()
  store = RedisStore(redis, { prefix: "t1:" })
})

afterAll(async () => {
  for (const client of clients) client.destroy()
  await server?.destroy()
})

describe("the counter store", () => {
  it("counts 1, 2, 3 for a key; keys are apart", async () => {
    const [a, b] = [key(), key()]
    const expires = fromNow(60_000)
    expect(await store.counters.increment(a, expires)).toBe(1)
    expect(await store.counters.increment(a, expires)).toBe(2)
    expect(await store.counters.increment(b, expires)).toBe(1)
    expect(await store.counters.increment(a, expires)).toBe(3)
  })

  it("an expired counter starts again at 1", async () => {
    const a = key()
    expect(await store.counters.increment(a, fromNow(-1_000))).toBe(1)
    expect(await store.counters.increment(a, fromNow(60_000))).toBe(1)
    expect(await store.counters.increment(a, fromNow(60_000))).toBe(2)
  })

  it("keeps the first expiry of a live window", async () => {
    const a = key()
    await store.counters.increment(a, fromNow(800))
    await store.counters.increment(a, fromNow(3_600_000))
    const left = Number(await redis.pTTL(`t1:counter:${a}`))
    expect(left).toBeGreaterThan(0)
    expect(left).toBeLessThanOrEqual(800)
    await sleep(900)
    expect(await store.counters.increment(a, fromNow(60_000))).toBe(1)
  })

  it("get reads the count and the first expiry without changing either; null when none", async () => {
    const a = key()
    expect(await store.counters.get(a)).toBeNull()
    const first = fromNow(60_000)
    await store.counters.increment(a, first)
    await store.counters.increment(a, fromNow(3_600_000))
    const read = await store.counters.get(a)
    expect(read!.count).toBe(2)
    expect(Math.abs(read!.expires.getTime() - first.getTime())).toBeLessThan(1_000)
    expect((await store.counters.get(a))!.count).toBe(2)
    expect(await store.counters.increment(a, first)).toBe(3)
    // Gone once its window passed.
    const short = key()
    await store.counters.increment(short, fromNow(300))
    await sleep(400)
    expect(await store.counters.get(short)).toBeNull()
  })

  it("of 400 increments from 8 connections at once, each sees a different value", async () => {
    const connections = await Promise.all(Array.from({ length: 8 }, () => connect()))
    const stores = connections.map((client) => RedisStore(client, { prefix: "t1:" }))
    const a = key()
    const expires = fromNow(60_000)
    const values = await Promise.all(
      Array.from({ length: 400 }, (_, i) => stores[i % 8]!.counters.increment(a, expires)),
    )
    expect([...values].sort((x, y) => x - y)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1))
    expect((await store.counters.get(a))!.count).toBe(400)
    // One expiry, set by the first: not pushed by the 399 others.
    expect(Number(await redis.pTTL(`t1:counter:${a}`))).toBeLessThanOrEqual(60_000)
  })

  it("keeps its keys under the prefix, apart from another prefix's", async () => {
    const other = RedisStore(redis, { prefix: "t2:" })
    const a = key()
    const expires = fromNow(60_000)
    await store.counters.increment(a, expires)
    await store.counters.increment(a, expires)
    expect(await other.counters.increment(a, expires)).toBe(1)
    expect(await redis.get(`t1:counter:${a}`)).toBe("2")
    expect(await redis.get(`t2:counter:${a}`)).toBe("1")
    expect(await redis.exists(a)).toBe(0)
  })

  it("works on a server that has not seen its scripts (restarted or flushed)", async () => {
    await redis.sendCommand(["SCRIPT", "FLUSH"])
    const a = key()
    expect(await store.counters.increment(a, fromNow(60_000))).toBe(1)
    await redis.sendCommand(["SCRIPT", "FLUSH"])
    expect((await store.counters.get(a))!.count).toBe(1)
  })

  it("a key holding something else is an error, not a count", async () => {
    const a = key()
    await redis.set(`t1:counter:${a}`, "not a number")
    await expect(store.counters.increment(a, fromNow(60_000))).rejects.toThrow(RedisStoreError)
  })

  it("refuses what is not a node-redis client, and bad options, with what to pass", () => {
    expect(() => RedisStore({})).toThrow(/node-redis client/)
    expect(() => RedisStore(redis, { commandTimeoutMs: 0 })).toThrow(/commandTimeoutMs/)
    expect(() => RedisStore(redis, { heartbeatMs: -1 })).toThrow(/heartbeatMs/)
  })
})

describe("the counter store when Redis is away", () => {
  it("fails closed by default; with failOpen, only the pure rate limits pass", async () => {
    // A client whose server is gone: commands queue (node-redis's default) until the deadline.
    const away = await connect()
    const errors: unknown[] = []
    const closed = RedisStore(away, { commandTimeoutMs: 200 })
    const open = RedisStore(away, {
      commandTimeoutMs: 200,
      failOpen: true,
      onError: (error) => errors.push(error),
    })
    await server.stop()
    try {
      // Once the client knows (a command in flight as the socket closes fails with that instead).
      for (let i = 0; i < 50 && away.isReady; i++) await sleep(20)
      const started = Date.now()
      await expect(closed.counters.increment(key("credentials:"), fromNow(1e4))).rejects.toThrow(
        /no answer from Redis within 200 ms/,
      )
      expect(Date.now() - started).toBeLessThan(1_500)
      await expect(closed.counters.get(key("credentials:"))).rejects.toThrow(RedisStoreError)

      for (const prefix of RATE_LIMIT_PREFIXES) {
        expect(await open.counters.increment(key(prefix), fromNow(1e4))).toBe(1)
        expect(await open.counters.get(key(prefix))).toBeNull()
      }
      expect(errors.length).toBe(RATE_LIMIT_PREFIXES.length * 2)
      // Single use, code guesses, the refresh lease, and any kind not named: closed anyway.
      for (const prefix of [
        "two-factor:step:",
        "two-factor:pending:",
        "two-factor:account:",
        "webauthn:challenge:",
        "email:code:email:",
        "password:confirm:",
        "oauth:refresh:",
        "something-new:",
      ]) {
        await expect(open.counters.increment(key(prefix), fromNow(1e4))).rejects.toThrow(
          RedisStoreError,
        )
      }
    } finally {
      await server.start()
    }
    // Back: the same client counts again once it has reconnected.
    const a = key()
    let count: number | undefined
    for (let i = 0; i < 50 && count === undefined; i++) {
      count = await Promise.resolve(closed.counters.increment(a, fromNow(60_000))).catch(
        () => undefined,
      )
      if (count === undefined) await sleep(100)
    }
    expect(count).toBeGreaterThanOrEqual(1)
  })

  it("with the offline queue off, a command fails at once rather than at the deadline", async () => {
    const client = await connect({ disableOfflineQueue: true })
    const fast = RedisStore(client, { commandTimeoutMs: 5_000 })
    await server.stop()
    try {
      // Wait until the client knows its server is gone.
      for (let i = 0; i < 50 && client.isReady; i++) await sleep(20)
      const started = Date.now()
      await expect(fast.counters.increment(key(), fromNow(1e4))).rejects.toThrow(RedisStoreError)
      expect(Date.now() - started).toBeLessThan(1_000)
    } finally {
      await server.start()
    }
  })
})
