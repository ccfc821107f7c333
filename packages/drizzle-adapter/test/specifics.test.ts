/**
 * What the conformance suite does not cover, on every database: atomicity under many concurrent
 * callers, exact matching of tokens and addresses, the session watch of each dialect, custom
 * tables, and the errors a wrong setup gets.
 */
import { randomBytes, randomUUID } from "node:crypto"
import type { Adapter, SessionChange } from "@latch/core/adapters"
import { createClient } from "@libsql/client"
import { eq } from "drizzle-orm"
import { drizzle as libsql } from "drizzle-orm/libsql"
import { drizzle as mysql2 } from "drizzle-orm/mysql2"
import { drizzle as postgresJs } from "drizzle-orm/postgres-js"
import { mysqlTable, timestamp as mysqlTimestamp, varbinary, varchar } from "drizzle-orm/mysql-core"
import { pgTable, text, timestamp } from "drizzle-orm/pg-core"
import { createConnection, createPool } from "mysql2"
import pg from "pg"
import postgres from "postgres"
import type { AuthConfig } from "@latch/core/types"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { Browser, SECRET } from "../../core/test/helpers/request.js"
import { DrizzleAdapter, DrizzleAdapterError, installSessionTriggers } from "../src/index.js"
import * as mysqlSchema from "../src/mysql/schema.js"
import { mysqlAuthjs, pgAuthjs, sqliteAuthjs } from "./authjs-schema.js"
import * as pgSchema from "../src/pg/schema.js"
import {
  createTables,
  databases,
  mysqlMigration,
  openMariadb,
  pgMigration,
  type TestDatabase,
  stopSharedPostgres,
} from "./databases.js"

const newUser = () => {
  const id = `user-${randomUUID()}`
  return { id, name: "Ada", email: `${id}@example.com`, emailVerified: null }
}
const hour = () => new Date(Date.now() + 3_600_000)

/** Waits until `ready()`, polling, for at most 5 s. */
async function until(ready: () => boolean) {
  const deadline = Date.now() + 5_000
  while (!ready()) {
    if (Date.now() > deadline) throw new Error("timed out")
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe.each(databases)("DrizzleAdapter on $name", ({ name, open, watch }) => {
  let database: TestDatabase
  let a: Required<Adapter>
  beforeAll(async () => {
    database = await open()
    await createTables(database)
    if (database.dialect === "pg") await installSessionTriggers(database.db)
    a = DrizzleAdapter(database.db, undefined, database.options) as Required<Adapter>
  })
  afterAll(() => database?.close())

  it("stores Latch's passkey fields only in a table that has them (not Auth.js's own)", async () => {
    expect(typeof a.updateAuthenticator).toBe("function")
    const authjs = { pg: pgAuthjs, sqlite: sqliteAuthjs, mysql: mysqlAuthjs }[database.dialect]
    const onAuthjsTable = DrizzleAdapter(
      database.db,
      { authenticatorsTable: authjs.authenticators },
      database.options,
    )
    // Without the method, core gives the adapter Auth.js's passkey fields alone.
    expect(onAuthjsTable.updateAuthenticator).toBeUndefined()
    expect(typeof onAuthjsTable.createAuthenticator).toBe("function")
  })

  it("gives 50 concurrent incrementCounter calls 50 different values", async () => {
    const key = `counter-${randomUUID()}`
    const values = await Promise.all(
      Array.from({ length: 50 }, () => a.incrementCounter(key, hour())),
    )
    expect([...values].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
  })

  it("lets a recovery code used twice at once succeed once", async () => {
    const user = newUser()
    await a.createUser(user)
    await a.setTwoFactor({ userId: user.id, secret: "sealed", enabledAt: new Date() })
    await a.setRecoveryCodes(user.id, ["a".repeat(64), "b".repeat(64)])
    const results = await Promise.all([
      a.useRecoveryCode(user.id, "a".repeat(64)),
      a.useRecoveryCode(user.id, "a".repeat(64)),
    ])
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await a.useRecoveryCode(user.id, "b".repeat(64))).toBe(true)
  })

  it("leaves one whole set of recovery codes after concurrent replacements", async () => {
    const user = newUser()
    await a.createUser(user)
    const sets = Array.from({ length: 5 }, (_, n) =>
      Array.from({ length: 4 }, (_, i) => `${n}${i}`.padEnd(64, "f")),
    )
    await Promise.all(sets.map((set) => a.setRecoveryCodes(user.id, set)))
    const left = await Promise.all(
      sets.map(async (set) => {
        const used = await Promise.all(set.map((code) => a.useRecoveryCode(user.id, code)))
        return used.filter(Boolean).length
      }),
    )
    expect([...left].sort()).toEqual([0, 0, 0, 0, 4])
  })

  it("matches tokens, codes and addresses exactly, never folding case", async () => {
    const user = newUser()
    await a.createUser(user)
    expect(await a.getUserByEmail(user.email.toUpperCase())).toBeNull()
    const token = { identifier: user.email, token: "ab".repeat(32), expires: hour() }
    await a.createVerificationToken(token)
    expect(
      await a.useVerificationToken({ identifier: user.email, token: token.token.toUpperCase() }),
    ).toBeNull()
    expect(
      await a.useVerificationToken({ identifier: user.email.toUpperCase(), token: token.token }),
    ).toBeNull()
    const sessionToken = "cd".repeat(32)
    await a.createSession({ sessionToken, userId: user.id, expires: hour() })
    expect(await a.getSessionAndUser(sessionToken.toUpperCase())).toBeNull()
    expect(await a.getSessionAndUser(`${sessionToken} `)).toBeNull()
    await a.setTwoFactor({ userId: user.id, secret: "sealed", enabledAt: new Date() })
    await a.setRecoveryCodes(user.id, ["ef".repeat(32)])
    expect(await a.useRecoveryCode(user.id, "EF".repeat(32))).toBe(false)
    expect(await a.useRecoveryCode(user.id, "ef".repeat(32))).toBe(true)
  })

  if (watch) {
    it("reports revocations made through another adapter on the same database", async () => {
      const other = DrizzleAdapter(database.db) as Required<Adapter>
      const user = newUser()
      await a.createUser(user)
      // Stored tokens as core stores them (SHA-256 in hex): what the triggers name a session by.
      const stored = () => randomBytes(32).toString("hex")
      const sessions = [stored(), stored()].map((sessionToken) => ({
        sessionToken,
        userId: user.id,
        expires: hour(),
        id: randomUUID(),
      }))
      for (const session of sessions) await a.createSession(session)
      const changes: SessionChange[] = []
      let live = false
      const watch = await a.watchSessions({
        changed: (change) => changes.push(change),
        live: (value) => (live = value),
      })
      try {
        await until(() => live)
        await other.deleteSessionById(user.id, sessions[0]!.id)
        await until(() =>
          changes.some((c) => "sessionToken" in c && c.sessionToken === sessions[0]!.sessionToken),
        )
        await other.updateUser({ id: user.id, name: "Ada King" })
        await until(() => changes.some((c) => "userId" in c && c.userId === user.id))
      } finally {
        await watch.close()
      }
    })
  } else {
    it("offers no session watch, so that the session cache cannot be turned on unseen", () => {
      expect(a.watchSessions).toBeUndefined()
      expect(typeof a.incrementCounter).toBe("function")
    })

    it("has the session cache alone refused, with a logged error naming watchSessions", async () => {
      const error = vi.fn()
      const config: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        adapter: a,
        session: { strategy: "database", cache: true },
        providers: [],
        logger: { error, warn: () => {}, debug: () => {} },
      }
      const response = await new Browser(config as never).fetch("/auth/session")
      expect(response.status).toBe(500)
      expect(await response.text()).not.toMatch(/at .*\.ts:\d+/)
      expect(error.mock.calls[0]![0].message).toMatch(/watchSessions.*session\.cache/)
    })
  }

  it("keeps addresses that differ only in case as two users", async () => {
    const lower = newUser()
    const upper = { ...newUser(), email: lower.email.toUpperCase() }
    await a.createUser(lower)
    await a.createUser(upper)
    expect(await a.getUserByEmail(lower.email)).toMatchObject({ id: lower.id })
    expect(await a.getUserByEmail(upper.email)).toMatchObject({ id: upper.id })
    expect(await a.getUserByEmail(`${lower.email} `)).toBeNull()
  })

  if (name.startsWith("MariaDB")) {
    it("refuses an address longer than its column with a DrizzleAdapterError, keeping nothing", async () => {
      const user = { ...newUser(), email: `${"a".repeat(250)}@example.com` }
      const error = await Promise.resolve(a.createUser(user)).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(DrizzleAdapterError)
      expect((error as DrizzleAdapterError).code).toBe("ER_DATA_TOO_LONG")
      expect(await a.getUser(user.id)).toBeNull()
    })
  }

  it("wraps a database error in a DrizzleAdapterError naming the method", async () => {
    const user = newUser()
    await a.createUser(user)
    const error = await Promise.resolve(a.createUser(user)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DrizzleAdapterError)
    expect((error as Error).message).toMatch(/^@latch\/drizzle-adapter: createUser failed: /)
  })
})

describe("DrizzleAdapter setup", () => {
  it("refuses an object that is not a Drizzle database, naming what it takes", () => {
    expect(() => DrizzleAdapter({ query: () => {} })).toThrow(
      /needs a Drizzle database for PostgreSQL .*, SQLite .* or MySQL \/ MariaDB/,
    )
  })

  it("offers no session watch on a remote libsql database (other instances write it)", () => {
    const client = createClient({ url: "http://127.0.0.1:1" })
    try {
      const adapter = DrizzleAdapter(libsql(client))
      expect(adapter.watchSessions).toBeUndefined()
      expect(typeof adapter.incrementCounter).toBe("function")
    } finally {
      client.close()
    }
  })

  it("on postgres.js, offers no session watch unless given a pg.Pool to listen on", async () => {
    // postgres.js connects at its first query: none is made here.
    const client = postgres("postgres://127.0.0.1:1/none")
    const pool = new pg.Pool({ connectionString: "postgres://127.0.0.1:1/none" })
    try {
      expect(DrizzleAdapter(postgresJs(client)).watchSessions).toBeUndefined()
      const adapter = DrizzleAdapter(postgresJs(client), undefined, { listen: pool })
      expect(typeof adapter.watchSessions).toBe("function")
    } finally {
      await client.end()
      await pool.end()
    }
  })

  it("refuses a listen option that is not a pg.Pool, or given for SQLite, saying what it takes", async () => {
    const client = postgres("postgres://127.0.0.1:1/none")
    const sqlite = createClient({ url: "http://127.0.0.1:1" })
    try {
      expect(() => DrizzleAdapter(postgresJs(client), undefined, { listen: client })).toThrow(
        /listen option takes a pg\.Pool/,
      )
      const pool = new pg.Pool()
      expect(() => DrizzleAdapter(libsql(sqlite), undefined, { listen: pool })).toThrow(
        /listen option is for PostgreSQL/,
      )
      await pool.end()
    } finally {
      await client.end()
      sqlite.close()
    }
  })

  it("on MySQL, refuses a single connection, whose transactions concurrent requests would mix", () => {
    const connection = createConnection({ host: "127.0.0.1", port: 1 })
    connection.on("error", () => {})
    try {
      expect(() => DrizzleAdapter(mysql2(connection))).toThrow(/needs drizzle\(pool\).*createPool/)
    } finally {
      connection.destroy()
    }
  })

  it("on MySQL, the session cache alone is refused with an error naming watchSessions", async () => {
    const pool = createPool({ host: "127.0.0.1", port: 1 })
    try {
      const error = vi.fn()
      const config: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        adapter: DrizzleAdapter(mysql2(pool)),
        session: { strategy: "database", cache: true },
        providers: [],
        logger: { error, warn: () => {}, debug: () => {} },
      }
      const response = await new Browser(config as never).fetch("/auth/session")
      expect(response.status).toBe(500)
      expect(await response.text()).not.toMatch(/at .*\.ts:\d+/)
      expect(error.mock.calls[0]![0].message).toMatch(/watchSessions.*session\.cache/)
    } finally {
      await new Promise((resolve) => pool.end(resolve))
    }
  })

  it("on MySQL, takes custom tables with their own column names and extra columns", async () => {
    const database = await openMariadb()
    try {
      const members = mysqlTable("member", {
        id: varchar("member_id", { length: 255 }).primaryKey(),
        name: varchar("full_name", { length: 255 }),
        email: varbinary("email_address", { length: 255 }).unique(),
        emailVerified: mysqlTimestamp("verified_at", { mode: "date", fsp: 3 }),
        image: varchar("picture", { length: 255 }),
        role: varchar("role", { length: 32 }).notNull().default("reader"),
      })
      const { users: _users, ...rest } = mysqlSchema
      const statements = (await mysqlMigration({ ...rest, members })).map((statement) =>
        statement.replaceAll("REFERENCES `user`(`id`)", "REFERENCES `member`(`member_id`)"),
      )
      await database.apply(statements)
      const adapter = DrizzleAdapter(database.db, { usersTable: members }) as Required<Adapter>
      const user = { ...newUser(), role: "admin" }
      await adapter.createUser(user)
      expect(await adapter.getUserByEmail(user.email)).toMatchObject({ role: "admin" })
      const [row] = await database.db.select().from(members).where(eq(members.id, user.id))
      expect(row).toMatchObject({ name: "Ada", role: "admin" })
      await adapter.createSession({ sessionToken: "t-custom", userId: user.id, expires: hour() })
      expect(await adapter.getSessionAndUser("t-custom")).toMatchObject({
        user: { id: user.id, role: "admin" },
      })
      await adapter.setPasswordHash(user.id, "hash")
      expect(await adapter.deleteUser(user.id)).toMatchObject({ id: user.id, role: "admin" })
      expect(await adapter.getSessionAndUser("t-custom")).toBeNull()
      expect(await adapter.getPasswordHash(user.id)).toBeNull()
    } finally {
      await database.close()
    }
  })

  it("on MySQL, takes a pool and offers no session watch", async () => {
    const pool = createPool({ host: "127.0.0.1", port: 1 })
    try {
      const adapter = DrizzleAdapter(mysql2(pool))
      expect(adapter.watchSessions).toBeUndefined()
      expect(typeof adapter.incrementCounter).toBe("function")
    } finally {
      await new Promise((resolve) => pool.end(resolve))
    }
  })

  it("on PostgreSQL without the triggers, watchSessions fails with the fix", async () => {
    const database = await databases[0].open()
    try {
      await createTables(database)
      const adapter = DrizzleAdapter(database.db) as Required<Adapter>
      await expect(adapter.watchSessions({ changed: () => {}, live: () => {} })).rejects.toThrow(
        /installSessionTriggers\(db\)/,
      )
    } finally {
      await database.close()
    }
  })

  it("takes custom tables, as @auth/drizzle-adapter does, with their extra columns", async () => {
    const database = await databases[0].open()
    try {
      const members = pgTable("member", {
        id: text("member_id").primaryKey(),
        name: text("full_name"),
        email: text("email_address").unique(),
        emailVerified: timestamp("verified_at", { mode: "date" }),
        image: text("picture"),
        role: text("role").notNull().default("reader"),
      })
      const { users: _users, ...rest } = pgSchema
      // The other tables reference the default `user` table: point them at `member` instead.
      const statements = (await pgMigration({ ...rest, members })).map((statement) =>
        statement.replaceAll(
          'REFERENCES "public"."user"("id")',
          'REFERENCES "public"."member"("member_id")',
        ),
      )
      await database.apply(statements)
      await installSessionTriggers(database.db, { usersTable: members })
      const adapter = DrizzleAdapter(database.db, { usersTable: members }) as Required<Adapter>
      const user = { ...newUser(), role: "admin" }
      await adapter.createUser(user)
      expect(await adapter.getUserByEmail(user.email)).toMatchObject({ role: "admin" })
      const [row] = await database.db.select().from(members).where(eq(members.id, user.id))
      expect(row).toMatchObject({ name: "Ada", role: "admin" })
      await adapter.createSession({ sessionToken: "t-custom", userId: user.id, expires: hour() })
      expect(await adapter.getSessionAndUser("t-custom")).toMatchObject({
        user: { id: user.id, role: "admin" },
      })
      const changes: SessionChange[] = []
      const watch = await adapter.watchSessions({ changed: (c) => changes.push(c), live: () => {} })
      await adapter.deleteUser(user.id)
      await until(() => changes.some((c) => "userId" in c && c.userId === user.id))
      await watch.close()
    } finally {
      await database.close()
    }
  })
})

afterAll(stopSharedPostgres)
