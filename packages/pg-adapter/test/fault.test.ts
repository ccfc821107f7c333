/**
 * The database goes away and comes back: with a pg.Pool on a real server, stopping the server
 * makes the adapter's calls reject promptly with a clear error (no crash, no hang), and once the
 * server is back the same Pool serves again, without restarting anything.
 */
import { randomUUID } from "node:crypto"
import { createServer, type Server, type Socket } from "node:net"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { migrate, PostgresAdapter, PostgresAdapterError } from "../src/index.js"
import { startPostgres, type PostgresServer } from "./postgres-server.js"

let server: PostgresServer
let pool: pg.Pool
let adapter: ReturnType<typeof PostgresAdapter>

beforeAll(async () => {
  server = await startPostgres()
  // No `pool.on("error")` here on purpose: the adapter adds a listener when there is none, so
  // that connections dying while idle do not crash the process.
  pool = new pg.Pool({
    connectionString: server.connectionString,
    max: 4,
    connectionTimeoutMillis: 2_000,
  })
  adapter = PostgresAdapter(pool)
  await migrate(pool)
})

afterAll(async () => {
  await pool?.end()
  await server?.destroy()
})

/** What a request of the app does: read a session with its user. */
async function readSession(sessionToken: string) {
  return adapter.getSessionAndUser(sessionToken)
}

describe("PostgresAdapter when the server stops and starts again", () => {
  const user = { id: randomUUID(), email: `${randomUUID()}@example.com`, emailVerified: null }
  const session = {
    sessionToken: randomUUID(),
    userId: user.id,
    expires: new Date(Date.now() + 3_600_000),
  }

  it("works while the server is up", async () => {
    await adapter.createUser(user)
    await adapter.createSession(session)
    // Several connections open and idle in the pool when the server goes away.
    await Promise.all(Array.from({ length: 4 }, () => readSession(session.sessionToken)))
    expect(pool.totalCount).toBeGreaterThan(1)
    expect(await readSession(session.sessionToken)).toMatchObject({ user, session })
  })

  it("rejects every call promptly with a clear error while the server is down", async () => {
    await server.stop()
    const started = Date.now()
    const calls = [
      readSession(session.sessionToken),
      adapter.getUser(user.id),
      adapter.useVerificationToken({ identifier: user.email, token: "t" }),
      adapter.createSession({ ...session, sessionToken: randomUUID() }),
      adapter.deleteSessionsByUserId(user.id),
    ]
    const results = await Promise.allSettled(calls)
    expect(Date.now() - started).toBeLessThan(5_000)
    for (const result of results) {
      expect(result.status).toBe("rejected")
      const error = (result as PromiseRejectedResult).reason as PostgresAdapterError
      expect(error).toBeInstanceOf(PostgresAdapterError)
      expect(error.message).toMatch(
        /^@latch\/pg-adapter: \w+ failed: (connect ECONNREFUSED|Connection terminated|terminating connection)/,
      )
    }
    expect((results[1] as PromiseRejectedResult).reason.message).toMatch(
      /^@latch\/pg-adapter: getUser failed/,
    )
    // And again, later: still a prompt rejection, never a hang.
    await expect(adapter.getUser(user.id)).rejects.toThrow(/getUser failed/)
  })

  it("serves again with the same Pool once the server is back", async () => {
    await server.start()
    expect(await readSession(session.sessionToken)).toMatchObject({ user, session })
    const another = {
      sessionToken: randomUUID(),
      userId: user.id,
      expires: new Date(Date.now() + 60_000),
    }
    await adapter.createSession(another)
    expect(await adapter.listSessionsByUserId(user.id)).toHaveLength(2)
  })
})

describe("PostgresAdapter when the server accepts but never answers", () => {
  let blackHole: Server
  const sockets: Socket[] = []

  beforeAll(async () => {
    blackHole = createServer((socket) => sockets.push(socket))
    await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", resolve))
  })
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => blackHole.close(resolve))
  })

  it("rejects after connectionTimeoutMillis instead of hanging", async () => {
    const address = blackHole.address() as { port: number }
    const silent = new pg.Pool({
      host: "127.0.0.1",
      port: address.port,
      user: "latch",
      database: "latch",
      connectionTimeoutMillis: 500,
    })
    try {
      const started = Date.now()
      await expect(PostgresAdapter(silent).getUser("x")).rejects.toThrow(
        /^@latch\/pg-adapter: getUser failed: .*timeout/i,
      )
      expect(Date.now() - started).toBeLessThan(3_000)
    } finally {
      await silent.end()
    }
  })
})
