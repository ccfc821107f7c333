/**
 * `@latch/pg-adapter`: Latch's users, accounts, database sessions, email verification tokens,
 * passkeys, password hashes and second factors in PostgreSQL, through a `pg.Pool` or an embedded
 * PGlite.
 *
 * @module pg-adapter
 */
export { PostgresAdapter, type PostgresAdapterMethods } from "./adapter.js"
export type { NewUser } from "./rows.js"
export { migrate, schemaSql } from "./migrate.js"
export { sessionsChannel } from "./channel.js"
export { hashSessionTokens, hashSessionTokensSql } from "./hash-tokens.js"
export {
  PostgresAdapterError,
  type PostgresAdapterOptions,
  type Queryable,
  type WatchOptions,
} from "./client.js"
