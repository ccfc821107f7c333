/** The two clients the flow tests run on: an in-memory PGlite, and a `pg.Pool` on a real server. */
import { PGlite } from "@electric-sql/pglite"
import pg from "pg"
import { afterAll, beforeAll, beforeEach } from "vitest"
import { migrate, type Queryable } from "../src/index.js"
import { startPostgres, type PostgresServer } from "./postgres-server.js"

export interface Database {
  client: Queryable
  close(): Promise<void>
}

export const clients: { name: string; open: () => Promise<Database> }[] = [
  {
    name: "PGlite",
    open: async () => {
      const db = new PGlite()
      return { client: db, close: () => db.close() }
    },
  },
  {
    name: "PostgreSQL (pg.Pool)",
    open: async () => {
      const server: PostgresServer = await startPostgres()
      const pool = new pg.Pool({
        connectionString: await server.createDatabase("latch_flows"),
        max: 5,
        connectionTimeoutMillis: 5_000,
      })
      return {
        client: pool,
        close: async () => {
          await pool.end()
          await server.destroy()
        },
      }
    },
  },
]

/**
 * A migrated database for the enclosing `describe`: opened once, emptied before each test,
 * closed at the end. Returns a getter, since the hooks run after the callback returns.
 */
export function useEmptyDatabase(open: () => Promise<Database>): () => Database {
  let db: Database | undefined
  beforeAll(async () => {
    db = await open()
    await migrate(db.client)
  })
  afterAll(async () => {
    await db?.close()
  })
  beforeEach(async () => {
    await db!.client.query(
      "truncate users, accounts, sessions, verification_tokens, authenticators, counters cascade",
    )
  })
  return () => db!
}

/** Runs `use` on a single connection: the PGlite itself, or one checked out of the pool. */
export async function onOneConnection<T>(
  client: Queryable,
  use: (connection: Queryable) => Promise<T>,
): Promise<T> {
  if (!(client instanceof pg.Pool)) return use(client)
  const connection = await client.connect()
  try {
    return await use(connection)
  } finally {
    connection.release()
  }
}

/** An SQL identifier, quoted. */
export const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`
