/**
 * `watchSessions` reports every write that may change a cached session — the adapter's own, an
 * administrator's hand-written SQL, another app instance's — on PGlite and on a real server
 * (where "another connection" and "another instance" are real: a second pg.Client, a second
 * pg.Pool). Inserts are not reported (nothing cached can be stale after one), nor are writes
 * rolled back.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { PGlite } from "@electric-sql/pglite"
import type { SessionWatch } from "@latch/core/adapters"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  hashSessionTokens,
  migrate,
  PostgresAdapter,
  sessionsChannel,
  type PostgresAdapterMethods,
  type Queryable,
} from "../src/index.js"
import { startPostgres, type PostgresServer } from "./postgres-server.js"
import { Recorder } from "./watch-recorder.js"

interface Setup {
  /** The client the watching adapter uses. */
  client: Queryable
  /** Another connection, for hand-written SQL (PGlite has one connection: itself). */
  psql: Queryable
  /** An adapter on another pool: a second app instance (a server only). */
  secondInstance?: PostgresAdapterMethods
  close(): Promise<void>
}

const databases: { name: string; open: () => Promise<Setup> }[] = [
  {
    name: "PGlite",
    open: async () => {
      const db = new PGlite()
      return { client: db, psql: db, close: () => db.close() }
    },
  },
  {
    name: "PostgreSQL",
    open: async () => {
      const server: PostgresServer = await startPostgres()
      const options = { connectionString: server.connectionString, max: 4 }
      const pool = new pg.Pool(options)
      const otherPool = new pg.Pool(options)
      const psql = new pg.Client({ connectionString: server.connectionString })
      await psql.connect()
      return {
        client: pool,
        psql,
        secondInstance: PostgresAdapter(otherPool),
        close: async () => {
          await psql.end()
          await otherPool.end()
          await pool.end()
          await server.destroy()
        },
      }
    },
  },
]

/** A stored token as core stores it (a SHA-256 in hex): what the triggers name a session by. */
const storedToken = () => randomBytes(32).toString("hex")

const newUser = () => ({
  id: `user-${randomUUID()}`,
  email: `${randomUUID()}@example.com`,
  emailVerified: null,
})

for (const database of databases) {
  describe(`watchSessions on ${database.name}`, () => {
    let setup: Setup
    let adapter: PostgresAdapterMethods
    let watch: SessionWatch
    const recorder = new Recorder()

    beforeAll(async () => {
      setup = await database.open()
      await migrate(setup.client)
      adapter = PostgresAdapter(setup.client)
      watch = await adapter.watchSessions(recorder)
    })
    afterAll(async () => {
      await watch?.close()
      await setup?.close()
    })

    /** A user with `count` sessions, created through the adapter. */
    async function userWithSessions(count: number) {
      const user = newUser()
      await adapter.createUser(user)
      const tokens: string[] = []
      for (let i = 0; i < count; i++) {
        const session = await adapter.createSession({
          sessionToken: storedToken(),
          userId: user.id,
          expires: new Date(Date.now() + 3_600_000),
        })
        tokens.push(session.sessionToken)
      }
      return { user, tokens, ids: [] as string[] }
    }

    it("is live once it resolves", () => {
      expect(recorder.liveCalls).toEqual([true])
    })

    it("reports updateSession and deleteSession by the stored token", async () => {
      const { tokens } = await userWithSessions(2)
      await adapter.updateSession({ sessionToken: tokens[0]!, lastSeenAt: new Date() })
      await recorder.waitForSession(tokens[0]!)
      await adapter.deleteSession(tokens[1]!)
      await recorder.waitForSession(tokens[1]!)
    })

    it("reports each session deleted by deleteSessionsByUserId and deleteSessionById", async () => {
      const { user, tokens } = await userWithSessions(3)
      const [byId] = await adapter.listSessionsByUserId(user.id)
      await adapter.deleteSessionById(user.id, byId!.id!)
      await recorder.waitForSession(byId!.sessionToken)
      expect(await adapter.deleteSessionsByUserId(user.id)).toBe(2)
      for (const token of tokens) await recorder.waitForSession(token)
    })

    it("reports updateUser and deleteUser by the user, and the sessions deleted with them", async () => {
      const { user, tokens } = await userWithSessions(2)
      await adapter.updateUser({ id: user.id, name: "Grace Hopper" })
      await recorder.waitForUser(user.id)
      recorder.events.length = 0
      await adapter.deleteUser(user.id)
      await recorder.waitForUser(user.id)
      for (const token of tokens) await recorder.waitForSession(token)
    })

    it("reports hand-written SQL from another connection", async () => {
      const { user, tokens } = await userWithSessions(2)
      await setup.psql.query("delete from sessions where user_id = $1 and session_token = $2", [
        user.id,
        tokens[0],
      ])
      await recorder.waitForSession(tokens[0]!)
      await setup.psql.query("update users set image = 'https://example.com/x.png' where id = $1", [
        user.id,
      ])
      await recorder.waitForUser(user.id)
      const { rows } = await setup.psql.query("select latch_revoke_user_sessions($1) as revoked", [
        user.id,
      ])
      expect(rows).toEqual([{ revoked: 1 }])
      await recorder.waitForSession(tokens[1]!)
    })

    it("reports hashSessionTokens by each row's user, never by its old token (a cookie)", async () => {
      const user = newUser()
      await adapter.createUser(user)
      const raw = randomUUID()
      await adapter.createSession({ sessionToken: raw, userId: user.id, expires: new Date() })
      expect(await hashSessionTokens(setup.client)).toBeGreaterThanOrEqual(1)
      await recorder.waitForUser(user.id)
      expect(recorder.hasSession(raw)).toBe(false)
    })

    it("reports neither inserts nor rolled-back writes", async () => {
      const { user, tokens } = await userWithSessions(3)
      await setup.psql.query("begin")
      await setup.psql.query("delete from sessions where session_token = $1", [tokens[0]])
      await setup.psql.query("update users set name = 'x' where id = $1", [user.id])
      await setup.psql.query("rollback")
      // Notifications arrive in commit order: once this one is in, the others would be too.
      await adapter.deleteSession(tokens[2]!)
      await recorder.waitForSession(tokens[2]!)
      expect(recorder.hasSession(tokens[0]!)).toBe(false)
      expect(recorder.hasSession(tokens[1]!)).toBe(false) // created, never changed
      expect(recorder.hasUser(user.id)).toBe(false)
    })

    it("ignores other payloads on its channel", async () => {
      const before = recorder.events.length
      const channel = sessionsChannel()
      for (const payload of ["not json", "42", '{"sessionToken": 7}', '{"other": "x"}', "null"]) {
        await setup.psql.query("select pg_notify($1, $2)", [channel, payload])
      }
      const { tokens } = await userWithSessions(1)
      await adapter.deleteSession(tokens[0]!)
      await recorder.waitForSession(tokens[0]!)
      expect(recorder.events.slice(before)).toEqual([
        { at: expect.any(Number), change: { sessionToken: tokens[0] } },
      ])
    })

    // Only where it applies: not registered at all elsewhere (nothing shows as skipped).
    ;(database.name !== "PGlite" ? it : () => {})(
      "reports a change made by another instance (another pool) to this one",
      async () => {
        const { tokens } = await userWithSessions(1)
        await setup.secondInstance!.deleteSession(tokens[0]!)
        await recorder.waitForSession(tokens[0]!)
      },
    )

    it("with { schema }, hears its own tables only", async () => {
      const schema = 'latch "auth"'
      await migrate(setup.client, { schema })
      const inSchema = PostgresAdapter(setup.client, { schema })
      const schemaRecorder = new Recorder()
      const schemaWatch = await inSchema.watchSessions(schemaRecorder)
      try {
        const user = newUser()
        await inSchema.createUser(user)
        const session = { sessionToken: storedToken(), userId: user.id, expires: new Date() }
        await inSchema.createSession(session)
        await inSchema.deleteSession(session.sessionToken)
        await schemaRecorder.waitForSession(session.sessionToken)

        const { tokens } = await userWithSessions(1)
        await adapter.deleteSession(tokens[0]!)
        await recorder.waitForSession(tokens[0]!)
        expect(schemaRecorder.hasSession(tokens[0]!)).toBe(false)
        expect(recorder.hasSession(session.sessionToken)).toBe(false)
      } finally {
        await schemaWatch.close()
      }
    })

    it("tells the listener that changes were missed when a table is truncated", async () => {
      // Row triggers do not see `truncate`: the watch says live(false), then live(true), which
      // makes a cache forget everything it holds.
      const from = recorder.liveCalls.length
      await setup.psql.query("truncate sessions")
      await recorder.waitForLive(true, from)
      expect(recorder.liveCalls.slice(from)).toEqual([false, true])
      await setup.psql.query("truncate users cascade")
      await recorder.waitForLive(true, from + 2)
      // users, then sessions by the cascade
      expect(recorder.liveCalls.slice(from + 2)).toEqual([false, true, false, true])
    })

    it("close() stops the callbacks", async () => {
      const { tokens } = await userWithSessions(2)
      const own = new Recorder()
      const ownWatch = await adapter.watchSessions(own)
      await adapter.deleteSession(tokens[0]!)
      await own.waitForSession(tokens[0]!)
      await ownWatch.close()
      await ownWatch.close() // twice is fine
      await adapter.deleteSession(tokens[1]!)
      await recorder.waitForSession(tokens[1]!) // the other watch still hears it
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(own.hasSession(tokens[1]!)).toBe(false)
      expect(own.liveCalls).toEqual([true])
    })
  })
}
