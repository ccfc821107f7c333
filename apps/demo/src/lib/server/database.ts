// The demo's database: an embedded PGlite in a git-ignored folder by default, a PostgreSQL
// server when DATABASE_URL is set, or SQLite through Drizzle (libsql, a local file) when
// LATCH_DEMO_DATABASE=sqlite. Migrated and seeded with the demo users on first use, and closed
// when the server stops.
import { mkdirSync } from "node:fs"
import type { Adapter } from "@latch/sveltekit/adapters"
import { PostgresAdapter, migrate, type Queryable } from "@latch/pg-adapter"
import { demoUsers } from "$lib/users"

interface Database {
  adapter: Adapter
  /** Ends the connections (the pool's), or closes the embedded database. */
  close(): Promise<void>
}

async function connectPostgres(env: Record<string, string | undefined>): Promise<Database> {
  let client: Queryable
  let close: () => Promise<void>
  if (env.DATABASE_URL) {
    const { default: pg } = await import("pg")
    const pool = new pg.Pool({ connectionString: env.DATABASE_URL, connectionTimeoutMillis: 5_000 })
    client = pool
    close = () => pool.end()
  } else {
    const { PGlite } = await import("@electric-sql/pglite")
    // A folder of the demo's (git-ignored); "memory://" keeps nothing between runs.
    const dataDir = env.PGLITE_DATA_DIR ?? ".data/pglite"
    if (!dataDir.includes("://")) mkdirSync(dataDir, { recursive: true })
    const db = new PGlite(dataDir)
    client = db
    close = () => db.close()
  }
  await migrate(client)
  return { adapter: PostgresAdapter(client), close }
}

/** Which database the demo runs on: LATCH_DEMO_DATABASE, "postgres" (the default) or "sqlite". */
function databaseKind(env: Record<string, string | undefined>): "postgres" | "sqlite" {
  const kind = env.LATCH_DEMO_DATABASE || "postgres"
  if (kind !== "postgres" && kind !== "sqlite") {
    throw new Error(`LATCH_DEMO_DATABASE=${kind}: the demo runs on "postgres" or "sqlite"`)
  }
  if (kind === "sqlite" && env.DATABASE_URL) {
    throw new Error("LATCH_DEMO_DATABASE=sqlite and DATABASE_URL: choose one database")
  }
  return kind
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
  const database =
    databaseKind(env) === "sqlite"
      ? await (await import("./sqlite")).openSqlite(env)
      : await connectPostgres(env)
  closeOnShutdown(database)
  const { adapter } = database
  for (const user of demoUsers) {
    if (!(await adapter.getUser!(user.id)))
      await adapter.createUser!({ ...user, emailVerified: null })
  }
  return adapter
}
