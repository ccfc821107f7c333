/**
 * @latch/pg-adapter through a pg.Pool on a real PostgreSQL server (Debian's package), started
 * for this file in a temporary directory.
 */
import { runAdapterConformance } from "@latch/adapter-test"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { migrate, PostgresAdapter } from "../src/index.js"
import { startPostgres, type PostgresServer } from "./postgres-server.js"
import { runPostgresSpecifics } from "./specifics.js"

let server: PostgresServer
let pool: pg.Pool
let connection: pg.Client

beforeAll(async () => {
  server = await startPostgres()
  pool = new pg.Pool({
    connectionString: server.connectionString,
    max: 10,
    connectionTimeoutMillis: 5_000,
  })
  await migrate(pool)
  connection = new pg.Client({ connectionString: server.connectionString })
  await connection.connect()
})

afterAll(async () => {
  await connection?.end()
  await pool?.end()
  await server?.destroy()
})

runAdapterConformance(
  "PostgresAdapter on PostgreSQL (pg.Pool)",
  async () => ({ adapter: PostgresAdapter(pool) }),
  { describe, it, expect, beforeAll, afterAll },
)

runPostgresSpecifics("PostgreSQL", () => ({ client: pool, connection }))

describe("migrate on PostgreSQL", () => {
  it("runs from several processes at once on an empty database", async () => {
    const url = await server.createDatabase("latch_concurrent_migrate")
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url, max: 1 }))
    try {
      await Promise.all(pools.map((p) => migrate(p)))
      const { rows } = await pools[0]!.query(
        "select count(*)::int as tables from information_schema.tables where table_schema = 'public'",
      )
      expect(rows[0].tables).toBe(9)
    } finally {
      await Promise.all(pools.map((p) => p.end()))
    }
  })

  it("is all or nothing", async () => {
    const url = await server.createDatabase("latch_failed_migrate")
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      // A `sessions` that is not a table makes the migration fail half-way…
      await client.query("create view sessions as select 1 as x")
      await expect(migrate(client)).rejects.toThrow(/@latch\/pg-adapter: migrate failed/)
      // …and the tables created before it are rolled back.
      const { rows } = await client.query(
        "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
      )
      expect(rows).toEqual([])
      // The connection is usable afterwards (no transaction left open).
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }])
    } finally {
      await client.end()
    }
  })
})
