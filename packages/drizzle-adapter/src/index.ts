/**
 * `@latch/drizzle-adapter`: Latch's users, accounts, database sessions, email tokens, passkeys,
 * passwords, second factors, recovery codes and counters on a Drizzle database — PostgreSQL
 * (node-postgres, PGlite, postgres.js…), SQLite (better-sqlite3, libsql, D1, bun:sqlite…) or
 * MySQL / MariaDB (mysql2). The tables are Drizzle schema objects (`@latch/drizzle-adapter/pg`,
 * `/sqlite`, `/mysql`) that the app spreads into its own schema.
 *
 * @module drizzle-adapter
 */
export { DrizzleAdapter, type DrizzleAdapterOptions } from "./drizzle-adapter.js"
export type { DrizzleAdapterTables } from "./tables.js"
export { DrizzleAdapterError } from "./errors.js"
export { installSessionTriggers } from "./pg/install.js"
export { sessionTriggersSql } from "./pg/triggers.js"
