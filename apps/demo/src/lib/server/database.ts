// The demo's database: an embedded PGlite in a git-ignored folder by default, or a PostgreSQL
// server when DATABASE_URL is set. Migrated and seeded with the demo users on first use, and
// closed when the server stops.
import { mkdirSync } from "node:fs"
import { PostgresAdapter, migrate, type Queryable } from "@latch/pg-adapter"
import { demoUsers } from "$lib/users"

interface Database {
  client: Queryable
  /** Ends the connections (the pool's), or closes the embedded database. */
  close(): Promise<void>
}

async function connect(env: Record<string, string | undefined>): Promise<Database> {
  if (env.DATABASE_URL) {
    const { default: pg } = await import("pg")
    const pool = new pg.Pool({ connectionString: env.DATABASE_URL, connectionTimeoutMillis: 5_000 })
    return { client: pool, close: () => pool.end() }
  }
  const { PGlite } = await import("@electric-sql/pglite")
  // A folder of the demo's (git-ignored); "memory://" keeps nothing between runs.
  const dataDir = env.PGLITE_DATA_DIR ?? ".data/pglite"
  if (!dataDir.includes("://")) mkdirSync(dataDir, { recursive: true })
  const db = new PGlite(dataDir)
  return { client: db, close: () => db.close() }
}

/**
 * Closes the database once adapter-node has stopped serving (its `sveltekit:shutdown` event,
 * after SIGINT or SIGTERM), so that the process ends. The session cache's listening connection
 * lets go of itself when the pool ends (at its next heartbeat, within a second).
 */
function closeOnShutdown(database: Database): void {
  process.once("sveltekit:shutdown", () => void database.close())
}

/** The adapter, once the schema exists and the demo users are in it. */
export async function openDatabase(env: Record<string, string | undefined>) {
  const database = await connect(env)
  await migrate(database.client)
  closeOnShutdown(database)
  const adapter = PostgresAdapter(database.client)
  for (const user of demoUsers) {
    if (!(await adapter.getUser(user.id)))
      await adapter.createUser({ ...user, emailVerified: null })
  }
  return adapter
}
