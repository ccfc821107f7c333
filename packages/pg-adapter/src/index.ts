/**
 * `@latch/pg-adapter`: Latch's users, accounts, database sessions, email verification tokens and
 * passkeys in PostgreSQL, through a `pg.Pool` or an embedded PGlite.
 *
 * @module pg-adapter
 */
export { PostgresAdapter, type PostgresAdapterMethods } from "./adapter.js"
export { migrate, schemaSql } from "./migrate.js"
export { PostgresAdapterError, type PostgresAdapterOptions, type Queryable } from "./client.js"
