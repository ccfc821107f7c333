// The demo's database: an embedded PGlite in a git-ignored folder by default, or a PostgreSQL
// server when DATABASE_URL is set. Migrated and seeded with the demo users on first use.
import { mkdirSync } from "node:fs"
import { PostgresAdapter, migrate, type Queryable } from "@latch/pg-adapter"
import { demoUsers } from "$lib/users"

async function connect(env: Record<string, string | undefined>): Promise<Queryable> {
  if (env.DATABASE_URL) {
    const { default: pg } = await import("pg")
    return new pg.Pool({ connectionString: env.DATABASE_URL, connectionTimeoutMillis: 5_000 })
  }
  const { PGlite } = await import("@electric-sql/pglite")
  // A folder of the demo's (git-ignored); "memory://" keeps nothing between runs.
  const dataDir = env.PGLITE_DATA_DIR ?? ".data/pglite"
  if (!dataDir.includes("://")) mkdirSync(dataDir, { recursive: true })
  return new PGlite(dataDir)
}

/** The adapter, once the schema exists and the demo users are in it. */
export async function openDatabase(env: Record<string, string | undefined>) {
  const client = await connect(env)
  await migrate(client)
  const adapter = PostgresAdapter(client)
  for (const user of demoUsers) {
    if (!(await adapter.getUser(user.id)))
      await adapter.createUser({ ...user, emailVerified: null })
  }
  return adapter
}
