import type { Plan } from "../plan.js"

/** `src/lib/server/auth-database.ts`: opens the database and returns Latch's adapter. */
export function databaseModule(plan: Plan): string | undefined {
  switch (plan.database) {
    case "pglite":
      return `// Latch's users, accounts and sessions in an embedded PostgreSQL (PGlite), in the folder
// AUTH_PGLITE_DIR (default ./data/auth). One process owns it: for several instances of the app,
// use a PostgreSQL server.
import { mkdirSync } from "node:fs"
import { env } from "$env/dynamic/private"
import { PGlite } from "@electric-sql/pglite"
import { PostgresAdapter, migrate } from "@latch/pg-adapter"

export async function openDatabase() {
  const dir = env.AUTH_PGLITE_DIR || "./data/auth"
  // PGlite makes its own folder, not the folders above it.
  mkdirSync(dir, { recursive: true })
  const db = new PGlite(dir)
  // Creates Latch's tables when they are missing; safe at every start.
  await migrate(db)
  return PostgresAdapter(db)
}
`
    case "postgres":
      return `// Latch's users, accounts and sessions on a PostgreSQL server (13 or later): DATABASE_URL.
import { env } from "$env/dynamic/private"
import { PostgresAdapter, migrate } from "@latch/pg-adapter"
import pg from "pg"

export async function openDatabase() {
  if (!env.DATABASE_URL) {
    throw new Error("DATABASE_URL is not set: postgresql://user:password@host:5432/database")
  }
  const pool = new pg.Pool({
    connectionString: env.DATABASE_URL,
    // Fail a request quickly when the database is unreachable instead of waiting forever.
    connectionTimeoutMillis: 5_000,
  })
  // Creates Latch's tables when they are missing; safe at every start.
  await migrate(pool)
  return PostgresAdapter(pool)
}
`
    case "drizzle":
      return `// Latch's users, accounts and sessions in the app's Drizzle database. The tables are in
// src/lib/server/db/schema.ts (\`export * from "@latch/drizzle-adapter/${plan.drizzleSchema}"\`):
// \`npm run db:push\` (or db:generate and db:migrate) creates them.
import { DrizzleAdapter } from "@latch/drizzle-adapter"
import { db } from "${plan.lib}/server/db"

export async function openDatabase() {
  return DrizzleAdapter(db)
}
`
    default:
      return undefined
  }
}
