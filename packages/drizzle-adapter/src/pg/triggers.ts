/**
 * The SQL that makes PostgreSQL report every change to sessions and users on the `NOTIFY` channel
 * that `@latch/pg-adapter`'s watch listens on (`latch_sessions`), in the same payloads: row
 * triggers on the session and user tables, so that the adapter's writes, those of every other
 * instance of the app and those typed in psql are reported alike. Drizzle Kit does not write
 * triggers: run `installSessionTriggers(db)` at start, or paste `sessionTriggersSql()` into a
 * custom migration (`drizzle-kit generate --custom`).
 *
 * A session row is named by its token only when that is a SHA-256 hash in lowercase hex (what
 * core stores with `session.hashTokens`, on by default): any role that can connect may `LISTEN`
 * on any channel, and any other stored token (`hashTokens: false`, or a row written by Auth.js
 * before hashing) is the value of someone's session cookie. Such a row is reported by its user,
 * which evicts every cached session of that user: wider, still correct.
 */
import { sessionsChannel } from "@latch/pg-adapter"
import { getTableConfig } from "drizzle-orm/pg-core"
import { resolveTables, type DrizzleAdapterTables } from "../tables.js"
import * as schema from "./schema.js"

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`

/** A table's name as SQL, schema-qualified when it is in a `pgSchema`. */
function qualified(table: any): string {
  const { name, schema: schemaName } = getTableConfig(table)
  return schemaName ? `${quote(schemaName)}.${quote(name)}` : quote(name)
}

/** The database name of the column under `property` of `table`. */
function columnName(table: any, property: string): string {
  const column = table[property]
  if (!column?.name) throw new TypeError(`@latch/drizzle-adapter: the table has no "${property}"`)
  return column.name as string
}

/** The names of the triggers, for the check of `watchSessions`. */
export const TRIGGERS = {
  sessions: "latch_session_changed",
  users: "latch_user_changed",
  sessionsTruncated: "latch_session_truncated",
  usersTruncated: "latch_user_truncated",
} as const

/**
 * The SQL that installs the triggers, safe to run again. Takes the same custom tables as
 * `DrizzleAdapter`.
 */
export function sessionTriggersSql(tables: DrizzleAdapterTables = {}): string {
  const t = resolveTables(schema, tables)
  const channel = literal(sessionsChannel())
  const sessions = qualified(t.sessions)
  const users = qualified(t.users)
  const token = literal(columnName(t.sessions, "sessionToken"))
  const sessionUser = literal(columnName(t.sessions, "userId"))
  const id = literal(columnName(t.users, "id"))
  // The columns to read (and the payload's key) are the triggers' arguments, so the functions
  // hold no table or column name.
  return `create or replace function latch_drizzle_row_changed() returns trigger
language plpgsql as $latch$
begin
  perform pg_notify(tg_argv[0], jsonb_build_object(tg_argv[1], to_jsonb(old) ->> tg_argv[2])::text);
  return null;
end
$latch$;

-- A session: by its token when that is a hash, else by its user (a token of another shape is a
-- cookie, never put on the channel); with neither, as a truncation, which empties every cache.
create or replace function latch_drizzle_session_changed() returns trigger
language plpgsql as $latch$
declare
  row jsonb := to_jsonb(old);
  token text := row ->> tg_argv[1];
begin
  if token ~ '^[0-9a-f]{64}$' then
    perform pg_notify(tg_argv[0], jsonb_build_object('sessionToken', token)::text);
  elsif row ->> tg_argv[2] is not null then
    perform pg_notify(tg_argv[0], jsonb_build_object('userId', row ->> tg_argv[2])::text);
  else
    perform pg_notify(tg_argv[0], jsonb_build_object('truncated', tg_table_name)::text);
  end if;
  return null;
end
$latch$;

create or replace function latch_drizzle_table_truncated() returns trigger
language plpgsql as $latch$
begin
  perform pg_notify(tg_argv[0], jsonb_build_object('truncated', tg_table_name)::text);
  return null;
end
$latch$;

drop trigger if exists ${TRIGGERS.sessions} on ${sessions};
create trigger ${TRIGGERS.sessions} after update or delete on ${sessions} for each row
  execute function latch_drizzle_session_changed(${channel}, ${token}, ${sessionUser});
drop trigger if exists ${TRIGGERS.users} on ${users};
create trigger ${TRIGGERS.users} after update or delete on ${users} for each row
  execute function latch_drizzle_row_changed(${channel}, 'userId', ${id});
drop trigger if exists ${TRIGGERS.sessionsTruncated} on ${sessions};
create trigger ${TRIGGERS.sessionsTruncated} after truncate on ${sessions} for each statement
  execute function latch_drizzle_table_truncated(${channel});
drop trigger if exists ${TRIGGERS.usersTruncated} on ${users};
create trigger ${TRIGGERS.usersTruncated} after truncate on ${users} for each statement
  execute function latch_drizzle_table_truncated(${channel});
`
}

/**
 * The SQL that counts the installed triggers of `sessionTriggersSql` (4 when all are there). A
 * sessions trigger of an earlier version (which put every stored token on the channel, a raw
 * one included) does not count: the watch then asks for `installSessionTriggers` again.
 */
export function countTriggersSql(tables: DrizzleAdapterTables = {}): string {
  const t = resolveTables(schema, tables)
  const names = Object.values(TRIGGERS).map(literal).join(", ")
  return `select count(*)::integer as count from pg_trigger
where tgname in (${names})
  and tgrelid in (${literal(qualified(t.sessions))}::regclass, ${literal(qualified(t.users))}::regclass)
  and (tgname <> ${literal(TRIGGERS.sessions)}
    or tgfoid = to_regprocedure('latch_drizzle_session_changed()'))`
}
