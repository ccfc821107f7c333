/**
 * The SQL function behind `setRecoveryCodes`, which replaces a user's whole set of recovery codes
 * in one statement: the adapter calls it as `select latch_set_recovery_codes($1, $2)`, so the
 * replacement is one transaction on any client (a `pg.Pool`, a `pg.Client`, a PGlite, or a
 * wrapper of one), with no connection to check out and nothing left open when it fails.
 *
 * Its body deletes the user's codes, then inserts the new ones. A volatile SQL function takes a
 * new snapshot for each of its statements, and the first statement locks the user's row: of two
 * replacements at once, the second waits for the first to commit and then deletes the codes the
 * first inserted, so one whole set is left, never a mix of two. The lock is `for no key update`,
 * which does not hold up writes that only reference the user (a session, a password).
 */
import { dollarQuote, qualifiedName, tableNames, type PostgresAdapterOptions } from "./client.js"

/** The function's name, in the adapter's schema. */
export function setRecoveryCodesFunction(options: PostgresAdapterOptions = {}): string {
  return qualifiedName("latch_set_recovery_codes", options)
}

/** The function, for `schemaSql` (after the tables it writes). */
export function recoveryCodesSql(options: PostgresAdapterOptions = {}): string {
  const t = tableNames(options)
  // The arguments are used by position: in a SQL function a column of the same name would win.
  return `
create or replace function ${setRecoveryCodesFunction(options)}(user_id text, code_hashes text[])
returns void language sql as ${dollarQuote(`
  select 1 from ${t.users} u where u.id = $1 for no key update;
  delete from ${t.recoveryCodes} c where c.user_id = $1;
  insert into ${t.recoveryCodes} (user_id, code_hash)
  select $1, code_hash from unnest($2) as code_hash
  on conflict do nothing;
`)};
`
}
