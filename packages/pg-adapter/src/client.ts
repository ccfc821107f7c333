/**
 * What the adapter needs from a database client: `query(text, params)` answering `{ rows }`.
 * A `pg.Pool`, a `pg.Client` and a PGlite instance all qualify.
 */
export interface Queryable {
  query(text: string, params?: any[]): Promise<{ rows: unknown[] }>
}

/** A row as the drivers return it: column name → value. */
export type Row = Record<string, unknown>

/** Where the tables live: `{ schema: "auth" }` puts them in schema `auth` (default: none given,
 * so PostgreSQL's `search_path`, usually `public`). */
export interface PostgresAdapterOptions {
  schema?: string
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

/** The six table names, schema-qualified when a schema is given. */
export function tableNames(options: PostgresAdapterOptions = {}) {
  const prefix = options.schema === undefined ? "" : `${quoteIdentifier(options.schema)}.`
  return {
    users: `${prefix}users`,
    accounts: `${prefix}accounts`,
    sessions: `${prefix}sessions`,
    verificationTokens: `${prefix}verification_tokens`,
    authenticators: `${prefix}authenticators`,
    counters: `${prefix}counters`,
  }
}

export type TableNames = ReturnType<typeof tableNames>
