/**
 * @latch/pg-adapter on PGlite (PostgreSQL compiled to WebAssembly), in memory.
 */
import { PGlite } from "@electric-sql/pglite"
import { runAdapterConformance } from "@latch/adapter-test"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { migrate, PostgresAdapter } from "../src/index.js"
import { runPostgresSpecifics } from "./specifics.js"

let db: PGlite

beforeAll(async () => {
  db = new PGlite()
  await migrate(db)
})
afterAll(async () => {
  await db?.close()
})

runAdapterConformance("PostgresAdapter on PGlite", async () => ({ adapter: PostgresAdapter(db) }), {
  describe,
  it,
  expect,
  beforeAll,
  afterAll,
})

runPostgresSpecifics("PGlite", () => ({ client: db, connection: db }))

describe("PostgresAdapter on PGlite with { schema }", () => {
  it("keeps its tables in the schema given, quoted", async () => {
    const schema = 'latch "auth"'
    await migrate(db, { schema })
    await migrate(db, { schema })
    const adapter = PostgresAdapter(db, { schema })
    const user = { id: "schema-user", email: "schema@example.com", emailVerified: null }
    await adapter.createUser(user)
    await adapter.createSession({ sessionToken: "schema-s", userId: user.id, expires: new Date() })
    expect(await adapter.getSessionAndUser("schema-s")).toMatchObject({ user })

    const { rows } = await db.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = $1 order by 1",
      [schema],
    )
    expect(rows.map((row) => row.table_name)).toEqual([
      "accounts",
      "authenticators",
      "counters",
      "passwords",
      "recovery_codes",
      "sessions",
      "two_factors",
      "users",
      "verification_tokens",
    ])
    // Not in the default schema.
    expect(await PostgresAdapter(db).getUser(user.id)).toBeNull()
  })
})
