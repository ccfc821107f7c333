/**
 * Latch's session fields in PostgreSQL, on PGlite and on a real server: the new columns and
 * their defaults, `lastSeenAt` updates, `deleteSessionById` scoped to its user, the upgrade of a
 * database made by the previous schema, `hashSessionTokens`, the admin function, the triggers,
 * and the channel names.
 */
import { createHash, randomUUID } from "node:crypto"
import { PGlite } from "@electric-sql/pglite"
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

interface Database {
  client: Queryable
  /** An empty database of its own, for the upgrade test. */
  fresh(): Promise<{ client: Queryable; close(): Promise<void> }>
  close(): Promise<void>
}

const databases: { name: string; open: () => Promise<Database> }[] = [
  {
    name: "PGlite",
    open: async () => {
      const db = new PGlite()
      return {
        client: db,
        fresh: async () => {
          const other = new PGlite()
          return { client: other, close: () => other.close() }
        },
        close: () => db.close(),
      }
    },
  },
  {
    name: "PostgreSQL",
    open: async () => {
      const server: PostgresServer = await startPostgres()
      const pool = new pg.Pool({ connectionString: server.connectionString, max: 4 })
      let databases = 0
      return {
        client: pool,
        fresh: async () => {
          const url = await server.createDatabase(`latch_upgrade_${++databases}`)
          const other = new pg.Pool({ connectionString: url, max: 2 })
          return { client: other, close: () => other.end() }
        },
        close: async () => {
          await pool.end()
          await server.destroy()
        },
      }
    },
  },
]

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex")
const hour = 3_600_000
const quoted = (schema: string) => `"${schema.replaceAll('"', '""')}"`

/** The sessions and users tables as @latch/pg-adapter 0.1 created them. */
const OLD_SCHEMA = `
create table users (
  id text primary key,
  name text,
  email text unique,
  email_verified timestamptz,
  image text
);
create table sessions (
  session_token text primary key,
  user_id text not null references users (id) on delete cascade,
  expires timestamptz not null
);
create index sessions_user_id_idx on sessions (user_id);
`

/** Runs several statements: PGlite's `exec`, or one simple query with pg. */
async function run(client: Queryable, sql: string): Promise<void> {
  const exec = (client as { exec?: (sql: string) => Promise<unknown> }).exec
  if (typeof exec === "function") await exec.call(client, sql)
  else await client.query(sql)
}

for (const database of databases) {
  describe(`session fields on ${database.name}`, () => {
    let db: Database
    let adapter: PostgresAdapterMethods

    beforeAll(async () => {
      db = await database.open()
      await migrate(db.client)
      adapter = PostgresAdapter(db.client)
    })
    afterAll(async () => {
      await db?.close()
    })

    async function newUser() {
      const user = {
        id: `user-${randomUUID()}`,
        email: `${randomUUID()}@x.test`,
        emailVerified: null,
      }
      return adapter.createUser(user)
    }

    it("stores every field given, and returns them from each read", async () => {
      const user = await newUser()
      const session = {
        sessionToken: sha256Hex(randomUUID()),
        userId: user.id,
        expires: new Date(Date.now() + hour),
        id: randomUUID(),
        userAgent: "Safari on iOS",
        clientAddress: "2001:db8::1",
        createdAt: new Date(Date.now() - hour),
        lastSeenAt: new Date(Date.now() - 60_000),
      }
      expect(await adapter.createSession(session)).toEqual(session)
      expect(await adapter.getSessionAndUser(session.sessionToken)).toEqual({ session, user })
      expect(await adapter.listSessionsByUserId(user.id)).toEqual([session])
      const { rows } = await db.client.query(
        "select id, user_agent, client_address from sessions where session_token = $1",
        [session.sessionToken],
      )
      expect(rows).toEqual([
        { id: session.id, user_agent: "Safari on iOS", client_address: "2001:db8::1" },
      ])
    })

    it("gives a session created without id or createdAt the columns' defaults", async () => {
      const user = await newUser()
      const before = Date.now()
      const created = await adapter.createSession({
        sessionToken: randomUUID(),
        userId: user.id,
        expires: new Date(Date.now() + hour),
      })
      expect(created.id).toMatch(UUID)
      expect(created.createdAt!.getTime()).toBeGreaterThanOrEqual(before - 1_000)
      expect(created.createdAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1_000)
      expect(created).toMatchObject({ userAgent: null, clientAddress: null, lastSeenAt: null })
      const other = await adapter.createSession({
        sessionToken: randomUUID(),
        userId: user.id,
        expires: new Date(Date.now() + hour),
      })
      expect(other.id).not.toBe(created.id)
    })

    it("updateSession sets, keeps (undefined) and clears (null) lastSeenAt", async () => {
      const user = await newUser()
      const session = await adapter.createSession({
        sessionToken: randomUUID(),
        userId: user.id,
        expires: new Date(Date.now() + hour),
      })
      const seen = new Date(Math.floor(Date.now() / 1000) * 1000)
      expect(
        await adapter.updateSession({ sessionToken: session.sessionToken, lastSeenAt: seen }),
      ).toEqual({ ...session, lastSeenAt: seen })

      const expires = new Date(Date.now() + 2 * hour)
      expect(
        await adapter.updateSession({
          sessionToken: session.sessionToken,
          expires,
          lastSeenAt: undefined,
        }),
      ).toEqual({ ...session, expires, lastSeenAt: seen })

      expect(
        await adapter.updateSession({ sessionToken: session.sessionToken, lastSeenAt: null }),
      ).toEqual({ ...session, expires, lastSeenAt: null })
    })

    it("deleteSessionById deletes nothing for another user's id", async () => {
      const owner = await newUser()
      const intruder = await newUser()
      const session = await adapter.createSession({
        sessionToken: randomUUID(),
        userId: owner.id,
        expires: new Date(Date.now() + hour),
      })
      const count = async () =>
        (await db.client.query("select count(*)::int as n from sessions")).rows[0] as {
          n: number
        }
      const before = await count()
      expect(await adapter.deleteSessionById(intruder.id, session.id!)).toBeNull()
      expect(await adapter.deleteSessionById(owner.id, "not-an-id")).toBeNull()
      expect(await count()).toEqual(before)
      expect(await adapter.deleteSessionById(owner.id, session.id!)).toEqual(session)
      expect(await count()).toEqual({ n: before.n - 1 })
    })

    it("the id is unique", async () => {
      const user = await newUser()
      const id = randomUUID()
      const expires = new Date(Date.now() + hour)
      await adapter.createSession({ sessionToken: randomUUID(), userId: user.id, expires, id })
      await expect(
        adapter.createSession({ sessionToken: randomUUID(), userId: user.id, expires, id }),
      ).rejects.toMatchObject({ code: "23505" })
    })

    it("latch_revoke_user_sessions(user_id) deletes that user's sessions, returns how many", async () => {
      const user = await newUser()
      const other = await newUser()
      const expires = new Date(Date.now() + hour)
      for (const userId of [user.id, user.id, other.id]) {
        await adapter.createSession({ sessionToken: randomUUID(), userId, expires })
      }
      const revoke = "select latch_revoke_user_sessions($1) as revoked"
      expect((await db.client.query(revoke, [user.id])).rows).toEqual([{ revoked: 2 }])
      expect(await adapter.listSessionsByUserId(user.id)).toEqual([])
      expect(await adapter.listSessionsByUserId(other.id)).toHaveLength(1)
      expect((await db.client.query(revoke, [user.id])).rows).toEqual([{ revoked: 0 }])
    })

    it("hashSessionTokens moves raw tokens under their SHA-256 hex, once", async () => {
      const user = await newUser()
      const expires = new Date(Date.now() + hour)
      const raw = [randomUUID(), `ünïcødé ${randomUUID()} 🔑`]
      const alreadyHashed = sha256Hex(randomUUID())
      for (const sessionToken of [...raw, alreadyHashed]) {
        await adapter.createSession({ sessionToken, userId: user.id, expires })
      }
      // Everything raw in the table, from the other tests too, is hashed.
      const { rows } = await db.client.query(
        "select count(*)::int as n from sessions where session_token !~ '^[0-9a-f]{64}$'",
      )
      expect(await hashSessionTokens(db.client)).toBe((rows[0] as { n: number }).n)

      for (const token of raw) {
        expect(await adapter.getSessionAndUser(token)).toBeNull()
        expect((await adapter.getSessionAndUser(sha256Hex(token)))!.user).toEqual(user)
      }
      expect(await adapter.getSessionAndUser(alreadyHashed)).not.toBeNull()
      expect(await hashSessionTokens(db.client)).toBe(0)
    })

    it("installs the triggers on sessions and users", async () => {
      const { rows } = await db.client.query(
        `select c.relname as table, t.tgname as trigger from pg_trigger t
         join pg_class c on c.oid = t.tgrelid
         where not t.tgisinternal and c.relname in ('sessions', 'users')
           and c.relnamespace = current_schema()::regnamespace
         order by 1, 2`,
      )
      expect(rows).toEqual([
        { table: "sessions", trigger: "latch_sessions_changed" },
        { table: "sessions", trigger: "latch_sessions_truncated" },
        { table: "users", trigger: "latch_users_changed" },
        { table: "users", trigger: "latch_users_truncated" },
      ])
    })

    // Only where it applies: not registered at all elsewhere (nothing shows as skipped).
    ;(database.name === "PostgreSQL" ? it : () => {})(
      "migrate of an up-to-date database takes no lock that waits for a reader",
      async () => {
        const fresh = await db.fresh()
        const pool = fresh.client as pg.Pool
        const reader = await pool.connect()
        const migrator = await pool.connect()
        try {
          await migrate(migrator)
          // A long transaction that has read both tables holds their ACCESS SHARE locks. An
          // `alter table` or a `drop trigger` would wait behind it (and every later read of the
          // table would wait behind them): with lock_timeout, migrate would fail instead.
          await reader.query("begin")
          await reader.query("select count(*) from sessions")
          await reader.query("select count(*) from users")
          await migrator.query("set lock_timeout = '1s'")
          await migrate(migrator)
          await reader.query("commit")
        } finally {
          reader.release()
          migrator.release()
          await fresh.close()
        }
      },
    )

    it("migrate and watchSessions work in a schema whose name holds quotes and dollars", async () => {
      const schema = `it's "$latch$"`
      await migrate(db.client, { schema })
      await migrate(db.client, { schema })
      const inSchema = PostgresAdapter(db.client, { schema })
      const recorder = new Recorder()
      const watch = await inSchema.watchSessions(recorder)
      try {
        const user = { id: randomUUID(), email: `${randomUUID()}@x.test`, emailVerified: null }
        await inSchema.createUser(user)
        const session = await inSchema.createSession({
          sessionToken: sha256Hex(randomUUID()),
          userId: user.id,
          expires: new Date(Date.now() + hour),
        })
        const { rows } = await db.client.query(
          `select ${quoted(schema)}.latch_revoke_user_sessions($1) as revoked`,
          [user.id],
        )
        expect(rows).toEqual([{ revoked: 1 }])
        await recorder.waitForSession(session.sessionToken)
      } finally {
        await watch.close()
      }
    })

    it("migrate moves the triggers to the channel of the options it was given last", async () => {
      // `{ schema: "public" }` names the same tables as no schema, on another channel.
      const fresh = await db.fresh()
      try {
        await migrate(fresh.client)
        await migrate(fresh.client, { schema: "public" })
        const spelt = PostgresAdapter(fresh.client, { schema: "public" })
        const recorder = new Recorder()
        const watch = await spelt.watchSessions(recorder)
        try {
          const user = { id: randomUUID(), email: `${randomUUID()}@x.test`, emailVerified: null }
          await spelt.createUser(user)
          await spelt.updateUser({ id: user.id, name: "Ada" })
          await recorder.waitForUser(user.id)
        } finally {
          await watch.close()
        }
      } finally {
        await fresh.close()
      }
    })

    it("migrate upgrades a database made by the previous schema", async () => {
      const fresh = await db.fresh()
      try {
        await run(fresh.client, OLD_SCHEMA)
        await fresh.client.query("insert into users (id, email) values ('old-user', 'o@x.test')")
        await fresh.client.query(
          `insert into sessions (session_token, user_id, expires)
           values ('old-1', 'old-user', now() + interval '1 day'),
                  ('old-2', 'old-user', now() + interval '1 day')`,
        )
        await migrate(fresh.client)

        const upgraded = PostgresAdapter(fresh.client)
        const found = await upgraded.getSessionAndUser("old-1")
        expect(found!.session.id).toMatch(UUID)
        expect(found!.session.createdAt).toBeInstanceOf(Date)
        expect(found!.session).toMatchObject({ userAgent: null, lastSeenAt: null })
        const ids = (await upgraded.listSessionsByUserId("old-user")).map((s) => s.id)
        expect(new Set(ids).size).toBe(2)

        // Idempotent: a second run changes nothing, ids included.
        await migrate(fresh.client)
        expect((await upgraded.listSessionsByUserId("old-user")).map((s) => s.id)).toEqual(ids)

        // The upgraded tables report their changes.
        const recorder = new Recorder()
        const watch = await upgraded.watchSessions(recorder)
        try {
          expect(await upgraded.deleteSessionById("old-user", found!.session.id!)).not.toBeNull()
          // Its token is no hash (a cookie's value): reported by its user.
          await recorder.waitForUser("old-user")
        } finally {
          await watch.close()
        }
      } finally {
        await fresh.close()
      }
    })
  })
}

describe("sessionsChannel", () => {
  it("names one channel per schema, each a lowercase identifier within 63 bytes", () => {
    const long = "a".repeat(60)
    const channels = {
      none: sessionsChannel(),
      auth: sessionsChannel({ schema: "auth" }),
      long: sessionsChannel({ schema: long }),
      quoted: sessionsChannel({ schema: 'latch "auth"' }),
      upper: sessionsChannel({ schema: "Auth" }),
    }
    expect(channels.none).toBe("latch_sessions")
    expect(channels.auth).toBe("latch_sessions_auth")
    expect(channels.long).toMatch(/^latch_sessions\$[0-9a-f]{16}$/)
    expect(channels.quoted).toMatch(/^latch_sessions\$[0-9a-f]{16}$/)
    expect(new Set(Object.values(channels)).size).toBe(5)
    for (const channel of Object.values(channels)) {
      expect(channel).toMatch(/^[a-z_][a-z0-9_$]*$/)
      expect(Buffer.byteLength(channel)).toBeLessThanOrEqual(63)
    }
    // Stable: the same schema, the same channel, in every process.
    expect(sessionsChannel({ schema: "Auth" })).toBe(channels.upper)
  })
})
