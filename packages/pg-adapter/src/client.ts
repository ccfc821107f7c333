/**
 * What the adapter needs from a database client: `query(text, params)` answering `{ rows }`.
 * A `pg.Pool`, a `pg.Client` and a PGlite instance all qualify.
 */
export interface Queryable {
  query(text: string, params?: any[]): Promise<{ rows: unknown[] }>
}

/** A row as the drivers return it: column name → value. */
export type Row = Record<string, unknown>

/** Options of `PostgresAdapter`, `migrate` and the other functions that take a client. */
export interface PostgresAdapterOptions {
  /** Where the tables live: `{ schema: "auth" }` puts them in schema `auth` (default: none
   * given, so PostgreSQL's `search_path`, usually `public`). */
  schema?: string
  /** How `watchSessions` checks its connection (a `pg.Pool` only). */
  watch?: WatchOptions
}

/** How `watchSessions` checks that its listening connection is alive. */
export interface WatchOptions {
  /**
   * How often (milliseconds) the listening connection runs a trivial query. One that fails, or
   * has no answer within twice this time, counts as a dropped connection: the listener hears
   * `live(false)` and the watch reconnects. A connection that dies outright (the server
   * stopped, the backend was terminated) is noticed at once, without waiting for it.
   *
   * @default 1000
   */
  heartbeatMs?: number
}

/** An error of the database or of the connection to it, with the adapter method that failed. */
export class PostgresAdapterError extends Error {
  /** The SQLSTATE of a database error (`"23505"` for a unique violation…), or Node's error
   * code for a connection error (`"ECONNREFUSED"`…), when there is one. */
  readonly code: string | undefined

  constructor(method: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause)
    super(`@latch/pg-adapter: ${method} failed: ${reason || "unknown error"}`, { cause })
    this.name = "PostgresAdapterError"
    const code = (cause as { code?: unknown } | null)?.code
    this.code = typeof code === "string" ? code : undefined
  }
}

/** Quotes an SQL identifier: `a"b` → `"a""b"`. */
export function quoteIdentifier(name: string): string {
  if (name.length === 0 || name.includes("\u0000")) {
    throw new TypeError(`@latch/pg-adapter: invalid schema name ${JSON.stringify(name)}`)
  }
  return `"${name.replaceAll('"', '""')}"`
}

/** Quotes an SQL string literal: `it's` → `'it''s'` (with `standard_conforming_strings`, on
 * by default since PostgreSQL 9.1, a backslash is an ordinary character). */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`
}

/**
 * Wraps a function or `do` body in dollar quotes whose tag does not occur in it: the body may
 * hold a schema name, which may hold anything, `$latch$` included.
 */
export function dollarQuote(body: string): string {
  let tag = "$latch$"
  for (let n = 1; body.includes(tag); n++) tag = `$latch${n}$`
  return `${tag}${body}${tag}`
}

/** `name` in the adapter's schema: `"auth".name`, or just `name` without a schema. */
export function qualifiedName(name: string, options: PostgresAdapterOptions = {}): string {
  return options.schema === undefined ? name : `${quoteIdentifier(options.schema)}.${name}`
}

/** The nine table names, schema-qualified when a schema is given. */
export function tableNames(options: PostgresAdapterOptions = {}) {
  const prefix = options.schema === undefined ? "" : `${quoteIdentifier(options.schema)}.`
  return {
    users: `${prefix}users`,
    accounts: `${prefix}accounts`,
    sessions: `${prefix}sessions`,
    verificationTokens: `${prefix}verification_tokens`,
    authenticators: `${prefix}authenticators`,
    counters: `${prefix}counters`,
    passwords: `${prefix}passwords`,
    twoFactors: `${prefix}two_factors`,
    recoveryCodes: `${prefix}recovery_codes`,
  }
}

export type TableNames = ReturnType<typeof tableNames>
