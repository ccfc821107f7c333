/**
 * `hashSessionTokens`: the one-off migration of a sessions table that holds session tokens as
 * they are (rows written before Latch hashed them, or copied from Auth.js) to what Latch stores
 * now, the SHA-256 of each token in lowercase hex. Signed-in users stay signed in: Latch hashes
 * the cookie's token and finds the row under the hash.
 *
 * Latch also moves such a row under its hash on its first read, one at a time; this does them
 * all at once, so that no raw token stays in the table.
 */
import {
  PostgresAdapterError,
  tableNames,
  type PostgresAdapterOptions,
  type Queryable,
} from "./client.js"

/** The SQL of `hashSessionTokens`, for those who run their migrations with their own tool. */
export function hashSessionTokensSql(options: PostgresAdapterOptions = {}): string {
  const { sessions } = tableNames(options)
  // A token already shaped like a hash is left as it is: hashing it again would lose its session.
  return `with hashed as (
  update ${sessions}
  set session_token = encode(sha256(convert_to(session_token, 'UTF8')), 'hex')
  where session_token !~ '^[0-9a-f]{64}$'
  returning 1
)
select count(*)::integer as hashed from hashed`
}

/**
 * Replaces every stored session token that is not 64 lowercase hex characters by its SHA-256 in
 * lowercase hex, in one statement; returns how many rows changed. Safe to run again (it then
 * changes nothing). Each row changed is reported on the sessions channel by its user (its old
 * token, a cookie's value, never goes on the channel).
 *
 * @example
 * ```ts
 * const hashed = await hashSessionTokens(pool) // once, after upgrading
 * ```
 */
export async function hashSessionTokens(
  client: Queryable,
  options: PostgresAdapterOptions = {},
): Promise<number> {
  try {
    const { rows } = await client.query(hashSessionTokensSql(options), [])
    return Number((rows[0] as { hashed: number }).hashed)
  } catch (error) {
    throw new PostgresAdapterError("hashSessionTokens", error)
  }
}
