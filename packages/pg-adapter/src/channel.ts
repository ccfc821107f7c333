/**
 * The name of the `NOTIFY` channel on which the triggers report session and user changes, and on
 * which `watchSessions` listens. One per schema, so that two apps sharing a database in two
 * schemas hear only their own changes (a channel is already private to its database).
 */
import type { PostgresAdapterOptions } from "./client.js"

/** The channel of the tables in the default schema (`search_path`). */
const DEFAULT_CHANNEL = "latch_sessions"

/** PostgreSQL truncates identifiers, channel names included, to 63 bytes (NAMEDATALEN - 1). */
const MAX_IDENTIFIER_BYTES = 63

/** A schema name that reads the same quoted or not, and so can be part of a channel name. */
const PLAIN_NAME = /^[a-z_][a-z0-9_]*$/

/**
 * FNV-1a, 64 bits, of the UTF-8 bytes of `text`, in hex: a stable short name for a long or
 * unusual schema name. Not a security measure (a channel name is no secret); written out here so
 * that the adapter needs no crypto module, and `schemaSql` stays synchronous.
 */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte)
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn
  }
  return hash.toString(16).padStart(16, "0")
}

/**
 * The channel of the adapter's tables: `latch_sessions` without `options.schema`;
 * `latch_sessions_<schema>` for a schema named in lowercase letters, digits and `_` whose channel
 * fits in 63 bytes; otherwise `latch_sessions$<16 hex digits>`, a hash of the schema name (the
 * `$` keeps the two forms apart). Every form is a valid identifier as it is, lowercase, so that
 * `LISTEN latch_sessions` works unquoted in psql.
 *
 * @example
 * ```ts
 * sessionsChannel() // "latch_sessions"
 * sessionsChannel({ schema: "auth" }) // "latch_sessions_auth"
 * ```
 */
export function sessionsChannel(options: PostgresAdapterOptions = {}): string {
  const { schema } = options
  if (schema === undefined) return DEFAULT_CHANNEL
  const readable = `${DEFAULT_CHANNEL}_${schema}`
  if (PLAIN_NAME.test(schema) && readable.length <= MAX_IDENTIFIER_BYTES) return readable
  return `${DEFAULT_CHANNEL}$${fnv1a64(schema)}`
}
