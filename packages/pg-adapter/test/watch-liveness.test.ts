/**
 * The watch on a pg.Pool when its connection fails, on a real server: the listener hears
 * `live(false)` as soon as a change may be missed — the backend terminated, the server stopped,
 * the connection gone silent — and `live(true)` once listening again, without anything being
 * recreated; `close()` lets `pool.end()` finish. Also measures how fast a change made through
 * one pool reaches another pool's watch.
 */
import { randomBytes, randomUUID } from "node:crypto"
import type { SessionWatch } from "@latch/core/adapters"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { migrate, PostgresAdapter, PostgresAdapterError } from "../src/index.js"
import { startProxy } from "./freezable-proxy.js"
import { startPostgres, type PostgresServer } from "./postgres-server.js"
import { Recorder, waitFor } from "./watch-recorder.js"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

let server: PostgresServer
/** The other app instance, which makes the changes. */
let writerPool: pg.Pool
let writer: ReturnType<typeof PostgresAdapter>
const pools: pg.Pool[] = []

beforeAll(async () => {
  server = await startPostgres()
  writerPool = new pg.Pool({ connectionString: server.connectionString, max: 10 })
  await migrate(writerPool)
  writer = PostgresAdapter(writerPool)
})
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()))
  await writerPool?.end()
  await server?.destroy()
})

/** A pool for a watching instance, ended after the file unless the test ends it. */
function newPool(config: pg.PoolConfig = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: server.connectionString,
    max: 3,
    connectionTimeoutMillis: 2_000,
    ...config,
  })
  pools.push(pool)
  return pool
}

/** A session of a new user, made by the writer; returns its stored token. */
async function newSession(): Promise<string> {
  const user = { id: randomUUID(), email: `${randomUUID()}@example.com`, emailVerified: null }
  await writer.createUser(user)
  const session = await writer.createSession({
    // As core stores it (a SHA-256 in hex): what the triggers name a session by.
    sessionToken: randomBytes(32).toString("hex"),
    userId: user.id,
    expires: new Date(Date.now() + 3_600_000),
  })
  return session.sessionToken
}

/** Deletes a session through the writer and waits for `recorder` to hear of it. */
async function expectDeliveredTo(recorder: Recorder): Promise<void> {
  const token = await newSession()
  await writer.deleteSession(token)
  await recorder.waitForSession(token)
}

/** The pid of the backend that ran `LISTEN` last (with a long heartbeat, it ran nothing since). */
async function listeningBackend(): Promise<number> {
  const { rows } = await writerPool.query(
    `select pid from pg_stat_activity
     where datname = current_database() and query ilike 'listen %'`,
  )
  expect(rows).toHaveLength(1)
  return rows[0].pid as number
}

describe("watchSessions on a pg.Pool", () => {
  it("refuses a plain pg.Client, saying what to use", async () => {
    const client = new pg.Client({ connectionString: server.connectionString })
    await client.connect()
    try {
      const error = await PostgresAdapter(client)
        .watchSessions(new Recorder())
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(PostgresAdapterError)
      expect((error as Error).message).toMatch(
        /^@latch\/pg-adapter: watchSessions failed: a pg\.Client is a single connection.*pg\.Pool/,
      )
    } finally {
      await client.end()
    }
  })

  it("rejects when the first connection fails, and leaves nothing running", async () => {
    const pool = new pg.Pool({ host: "127.0.0.1", port: 1, user: "latch", max: 1 })
    const recorder = new Recorder()
    const error = await PostgresAdapter(pool)
      .watchSessions(recorder)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ name: "PostgresAdapterError", code: "ECONNREFUSED" })
    expect(recorder.events).toEqual([])
    await pool.end()
  })

  it("says live(false) at once when its backend is terminated, then live(true) again", async () => {
    const pool = newPool()
    // A long heartbeat: the termination is noticed from the connection itself.
    const adapter = PostgresAdapter(pool, { watch: { heartbeatMs: 60_000 } })
    const recorder = new Recorder()
    const watch = await adapter.watchSessions(recorder)
    try {
      await expectDeliveredTo(recorder)
      const pid = await listeningBackend()

      const terminated = performance.now()
      await writerPool.query("select pg_terminate_backend($1)", [pid])
      await recorder.waitForLive(false, 1, 1_000)
      const noticedAfter = performance.now() - terminated
      await recorder.waitForLive(true, 2, 5_000)
      const backAfter = performance.now() - terminated
      console.log(
        `backend terminated: live(false) after ${noticedAfter.toFixed(1)} ms, ` +
          `live(true) after ${backAfter.toFixed(1)} ms`,
      )
      expect(noticedAfter).toBeLessThan(500)
      expect(recorder.liveCalls).toEqual([true, false, true])
      expect(await listeningBackend()).not.toBe(pid)
      await expectDeliveredTo(recorder)
    } finally {
      await watch.close()
    }
  })

  it("says live(false) when the server stops, and live(true) when it is back", async () => {
    const pool = newPool()
    const recorder = new Recorder()
    const watch = await PostgresAdapter(pool).watchSessions(recorder)
    try {
      await expectDeliveredTo(recorder)
      await server.stop()
      await recorder.waitForLive(false, 1, 1_000)
      // Down for a while: the reconnection attempts fail, and nothing else is said.
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      expect(recorder.liveCalls).toEqual([true, false])

      await server.start()
      const started = performance.now()
      await recorder.waitForLive(true, 2, 5_000)
      console.log(
        `server restarted: live(true) ${(performance.now() - started).toFixed(0)} ms after`,
      )
      await expectDeliveredTo(recorder)
    } finally {
      await watch.close()
    }
  })

  it("says live(false) when the connection goes silent (heartbeat), and reconnects", async () => {
    const proxy = await startProxy({ host: server.host, port: server.port })
    const pool = newPool({
      connectionString: undefined,
      host: "127.0.0.1",
      port: proxy.port,
      user: server.user,
      database: server.database,
    })
    const heartbeatMs = 200
    const recorder = new Recorder()
    const watch = await PostgresAdapter(pool, { watch: { heartbeatMs } }).watchSessions(recorder)
    try {
      await expectDeliveredTo(recorder)
      proxy.freeze()
      const frozen = performance.now()
      // Detected by the first heartbeat left unanswered (within heartbeat + 2 × heartbeat on an
      // idle machine), not by TCP, which takes minutes to give up on a silent peer. The bound is
      // a hang bound with room for a busy machine's late timers.
      await recorder.waitForLive(false, 1, 10_000)
      const noticedAfter = performance.now() - frozen
      console.log(`connection frozen: live(false) after ${noticedAfter.toFixed(0)} ms`)
      expect(noticedAfter).toBeLessThan(25 * heartbeatMs)
      await recorder.waitForLive(true, 2, 5_000)
      await expectDeliveredTo(recorder)
    } finally {
      await watch.close()
      await proxy.close()
    }
  })

  it("keeps no process alive: an app with nothing left to do exits though it watches", async () => {
    const app = spawn(
      process.execPath,
      [fileURLToPath(new URL("./fixtures/watching-app.mjs", import.meta.url))],
      { env: { ...process.env, DATABASE_URL: server.connectionString }, stdio: "pipe" },
    )
    let output = ""
    app.stdout.on("data", (chunk) => (output += chunk))
    app.stderr.on("data", (chunk) => (output += chunk))
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        app.kill("SIGKILL")
        resolve(null)
      }, 10_000)
      app.once("exit", (exitCode) => {
        clearTimeout(timer)
        resolve(exitCode)
      })
    })
    expect(output).toContain("watching")
    expect(code).toBe(0)
  })

  it("close() releases the connection: no more callbacks, and pool.end() resolves", async () => {
    const pool = new pg.Pool({ connectionString: server.connectionString, max: 2 })
    const recorder = new Recorder()
    const watch: SessionWatch = await PostgresAdapter(pool).watchSessions(recorder)
    await expectDeliveredTo(recorder)
    await watch.close()
    expect(pool.totalCount - pool.idleCount).toBe(0) // nothing checked out
    const before = recorder.events.length
    const token = await newSession()
    await writer.deleteSession(token)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(recorder.events.length).toBe(before)
    await pool.end() // would never resolve with a client still checked out
  })

  it("lets pool.end() resolve without close(): the next heartbeat gives the connection back", async () => {
    const pool = new pg.Pool({ connectionString: server.connectionString, max: 2 })
    const recorder = new Recorder()
    await PostgresAdapter(pool, { watch: { heartbeatMs: 200 } }).watchSessions(recorder)
    await expectDeliveredTo(recorder)
    const started = performance.now()
    await pool.end() // the app's shutdown, which knows nothing of the watch
    // At the next heartbeat (200 ms) rather than never; room for a busy machine.
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(recorder.liveCalls).toEqual([true, false])
  })

  it("close() while reconnecting stops the attempts, and pool.end() resolves", async () => {
    const pool = new pg.Pool({
      connectionString: server.connectionString,
      max: 2,
      connectionTimeoutMillis: 1_000,
    })
    const recorder = new Recorder()
    const watch = await PostgresAdapter(pool).watchSessions(recorder)
    await server.stop()
    try {
      await recorder.waitForLive(false, 1, 1_000)
      await watch.close()
    } finally {
      await server.start()
    }
    await new Promise((resolve) => setTimeout(resolve, 2_500)) // longer than the longest backoff
    expect(recorder.liveCalls).toEqual([true, false])
    await pool.end()
  })
})

describe("delivery latency from one instance to another", () => {
  const percentile = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
  const summary = (latencies: number[]) => {
    const sorted = [...latencies].sort((a, b) => a - b)
    return {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1]!,
    }
  }
  const format = ({ p50, p99, max }: ReturnType<typeof summary>) =>
    `p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, max ${max.toFixed(2)} ms`

  it("200 changes, one after another and all at once, each delivered", async () => {
    const recorder = new Recorder()
    const watch = await PostgresAdapter(newPool()).watchSessions(recorder)
    try {
      const tokens = await Promise.all(Array.from({ length: 400 }, () => newSession()))
      const sequential = tokens.slice(0, 200)
      const concurrent = tokens.slice(200)

      // From the start of the writer's call to the watch's callback, one change at a time.
      const oneByOne: number[] = []
      for (const token of sequential) {
        const start = performance.now()
        await writer.updateSession({ sessionToken: token, lastSeenAt: new Date() })
        await waitFor(() => recorder.hasSession(token), `session ${token}`)
        oneByOne.push(recorder.sessionAt(token)! - start)
      }

      // 200 calls started together on a pool of 10 connections: they queue for a connection,
      // so each is measured from when its own call returned (its commit acknowledged), which a
      // notification may even precede (a negative figure).
      const returned = new Map<string, number>()
      await Promise.all(
        concurrent.map(async (token) => {
          await writer.updateSession({ sessionToken: token, lastSeenAt: new Date() })
          returned.set(token, performance.now())
        }),
      )
      await waitFor(() => concurrent.every((t) => recorder.hasSession(t)), "200 changes")
      const burst = concurrent.map((token) => recorder.sessionAt(token)! - returned.get(token)!)

      const a = summary(oneByOne)
      const b = summary(burst)
      // Every change arrived (the waits above); how soon is bench/'s to measure, not a test's:
      // the figures are printed for the reader of the run.
      console.log(`delivery latency, 200 changes one by one (from the call): ${format(a)}`)
      console.log(`delivery latency, 200 changes at once (from each call's return): ${format(b)}`)
      expect(oneByOne).toHaveLength(200)
      expect(burst).toHaveLength(200)
    } finally {
      await watch.close()
    }
  })
})
