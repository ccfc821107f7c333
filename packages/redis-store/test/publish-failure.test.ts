/**
 * The session-change channel, watched directly: what a watch hears, and what happens when one
 * instance cannot publish while another still hears the channel (its own connection to Redis
 * broken, as in a network partition). The publishing instance's client fails on demand; every
 * other part is a real node-redis client on a real redis-server.
 */
import { createClient, type RedisClientType } from "redis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { SessionChange } from "../../core/src/adapters.js"
import { memoryAdapter } from "../../core/test/helpers/memory-adapter.js"
import { RedisStore, RedisStoreError, withRedisSessionChanges } from "../src/index.js"
import { startRedis, type RedisServer } from "./redis-server.js"

let server: RedisServer
/** The clients made with `createClient({ url })`: no modules, RESP 3 (node-redis 6's default). */
const clients: RedisClientType<{}, {}, {}, 3, {}>[] = []
const closers: (() => unknown)[] = []

async function connect() {
  const client = createClient({ url: server.url })
  client.on("error", () => {})
  await client.connect()
  clients.push(client)
  return client
}

/** A listener that records what it hears. */
function recorder() {
  const heard: (SessionChange | "live" | "not live")[] = []
  let live = false
  return {
    heard,
    isLive: () => live,
    listener: {
      changed: (change: SessionChange) => void heard.push(change),
      live: (value: boolean) => {
        live = value
        heard.push(value ? "live" : "not live")
      },
    },
  }
}

/** A stored token as `session.hashTokens` has it (64 hex): what may travel on the channel. */
const hashed = (n: number) => n.toString(16).padStart(64, "0")

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
async function until(check: () => boolean, what: string, ms = 5_000) {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(5)
  }
}

beforeAll(async () => {
  server = await startRedis()
})

afterAll(async () => {
  for (const close of closers) await close()
  for (const client of clients) client.destroy()
  await server?.destroy()
})

describe("the session-change channel", () => {
  it("delivers each change to every watch, live from the start; ignores foreign messages", async () => {
    const publisher = RedisStore(await connect(), { prefix: "c1:" })
    const [one, two] = [recorder(), recorder()]
    for (const { listener } of [one, two]) {
      const watch = await RedisStore(await connect(), { prefix: "c1:" }).watchSessions(listener)
      closers.push(() => watch.close())
    }
    expect(one.isLive() && two.isLive()).toBe(true)
    await clients[0]!.publish("c1:sessions", "not json")
    await clients[0]!.publish("c1:sessions", JSON.stringify({ other: 1 }))
    await publisher.publish({ sessionToken: hashed(1) })
    await publisher.publish({ userId: "u1" })
    // Another prefix is another channel.
    await RedisStore(clients[0]!, { prefix: "c2:" }).publish({ userId: "elsewhere" })
    await until(() => two.heard.length >= 3 && one.heard.length >= 3, "the changes")
    await sleep(50)
    for (const { heard } of [one, two]) {
      expect(heard).toEqual(["live", { sessionToken: hashed(1) }, { userId: "u1" }])
    }
  })

  it("a watch whose subscriber is killed stops at once and is live again once subscribed", async () => {
    const client = await connect()
    const store = RedisStore(client, { prefix: "c3:", heartbeatMs: 100 })
    const { listener, isLive, heard } = recorder()
    const watch = await store.watchSessions(listener)
    closers.push(() => watch.close())
    // Kill every connection subscribed on the channel (node-redis reconnects by itself).
    const list = String(await client.sendCommand(["CLIENT", "LIST"]))
    const subscribers = list
      .split("\n")
      .filter((line) => / sub=1 /.test(line))
      .map((line) => /id=(\d+)/.exec(line)![1]!)
    expect(subscribers.length).toBeGreaterThan(0)
    for (const id of subscribers) await client.sendCommand(["CLIENT", "KILL", "ID", id])
    // (It may be back within milliseconds: what it said is recorded.)
    await until(() => heard.includes("not live"), "the watch to stop", 1_000)
    await until(() => isLive(), "the watch to be live again")
    // And it hears what is published after.
    await store.publish({ sessionToken: hashed(2) })
    await until(() => heard.some((h) => typeof h === "object" && "sessionToken" in h), "a change")
    expect(heard.slice(0, 3)).toEqual(["live", "not live", "live"])
  })

  it("a change that cannot be published fails the write, stops this instance's cache, and resets every other when it can again", async () => {
    const healthy = await connect()
    let broken = false
    // The writer's connection, failing on demand as if its network were cut.
    const writerClient = {
      sendCommand: (args: readonly string[]) =>
        broken ? Promise.reject(new Error("connection cut")) : healthy.sendCommand(args),
      duplicate: () => healthy.duplicate(),
    }
    const writer = RedisStore(writerClient, { prefix: "c4:", heartbeatMs: 100 })
    const reader = RedisStore(await connect(), { prefix: "c4:", heartbeatMs: 100 })
    const mine = recorder()
    const theirs = recorder()
    const watches = [
      await writer.watchSessions(mine.listener),
      await reader.watchSessions(theirs.listener),
    ]
    closers.push(() => Promise.all(watches.map((watch) => watch.close())))

    const db = memoryAdapter()
    const adapter = withRedisSessionChanges(db, writer)
    await db.createUser!({ id: "u9", email: "u9@example.com", emailVerified: null })
    await db.createSession!({
      sessionToken: "s9",
      userId: "u9",
      expires: new Date(Date.now() + 6e4),
    })

    broken = true
    await expect(adapter.deleteSession!("s9")).rejects.toThrow(RedisStoreError)
    // The write is done all the same; only its news is missing.
    expect(db.sessions.has("s9")).toBe(false)
    expect(mine.isLive()).toBe(false)
    // updateSession does not fail on it (nothing to revoke).
    await db.createSession!({
      sessionToken: "s10",
      userId: "u9",
      expires: new Date(Date.now() + 6e4),
    })
    await expect(
      adapter.updateSession!({ sessionToken: "s10", expires: new Date(Date.now() + 9e4) }),
    ).resolves.toBeTruthy()
    // The reader, cut off from nothing, heard nothing: the limit of any channel (its cache's
    // `maxAge` bounds it). It stays live.
    await sleep(300)
    expect(theirs.isLive()).toBe(true)
    expect(theirs.heard).toEqual(["live"])
    // The writer stays out of service while it cannot publish (its pings cannot go either).
    expect(mine.isLive()).toBe(false)

    broken = false
    // First the reset goes out — the reader drops everything — then the writer is live again.
    await until(() => mine.isLive(), "the writer to be live again")
    await until(() => theirs.heard.length >= 3, "the reset at the reader")
    expect(theirs.heard.slice(0, 3)).toEqual(["live", "not live", "live"])
    expect(theirs.isLive()).toBe(true)
  })
})
