/**
 * The SQL that reports every change to sessions and users on a `NOTIFY` channel, for
 * `watchSessions`: row triggers on `sessions` and `users`, so that the adapter's own writes, those
 * of every other app instance and those an administrator types in psql are all reported alike.
 * Also the one SQL function documented for administrators, `latch_revoke_user_sessions`.
 *
 * Payloads (JSON text): `{"sessionToken": "…"}` when a session row is updated or deleted (the
 * stored token it had), `{"userId": "…"}` when a user row is updated or deleted (deleting a user
 * deletes their sessions too, which are reported one by one), and `{"truncated": "sessions"}` or
 * `{"truncated": "users"}` when a table is emptied with `truncate`, which row triggers do not see.
 * `pg_notify` sends them when the transaction commits, and not at all when it rolls back.
 *
 * A session row is named by its token only when that is a SHA-256 hash in lowercase hex (what
 * core stores with `session.hashTokens`, on by default): any role that can connect may `LISTEN`
 * on any channel, and any other stored token (`hashTokens: false`, or a row written by Auth.js
 * before hashing) is the value of someone's session cookie. Such a row is reported by its user,
 * `{"userId": "…"}`, which evicts every cached session of that user: wider, still correct.
 */
import { sessionsChannel } from "./channel.js"
import {
  dollarQuote,
  qualifiedName,
  quoteLiteral,
  tableNames,
  type PostgresAdapterOptions,
} from "./client.js"

/** A trigger `name` on `table`, running `fn(channel)`, created unless it exists as wanted. */
interface Trigger {
  name: string
  table: string
  /** `after update or delete … for each row`, or `after truncate … for each statement`. */
  when: string
  fn: string
}

/**
 * One trigger, created if it is missing or was created for another channel (the tables were
 * migrated with a differently spelt `schema` option before): checking first means that a
 * database already set up takes no lock on its tables, as `drop trigger` would (an exclusive
 * one, which would hold every session read back until the migration commits).
 */
function ensureTrigger({ name, table, when, fn }: Trigger, channel: string): string {
  // A trigger's arguments are stored as bytes, each followed by a NUL.
  return `
  if not exists (
    select 1 from pg_trigger
    where tgrelid = ${quoteLiteral(table)}::regclass and tgname = '${name}'
      and tgargs = convert_to(${quoteLiteral(channel)}, 'UTF8') || decode('00', 'hex')
  ) then
    drop trigger if exists ${name} on ${table};
    create trigger ${name} ${when.replace("…", table)} execute function ${fn}(${quoteLiteral(channel)});
  end if;`
}

/** The notification functions, the triggers and the admin function, for `schemaSql`. */
export function notifySql(options: PostgresAdapterOptions = {}): string {
  const t = tableNames(options)
  const channel = sessionsChannel(options)
  const sessionChanged = qualifiedName("latch_session_changed", options)
  const userChanged = qualifiedName("latch_user_changed", options)
  const truncated = qualifiedName("latch_table_truncated", options)
  const revoke = qualifiedName("latch_revoke_user_sessions", options)
  const rowChange = "after update or delete on … for each row"
  const truncate = "after truncate on … for each statement"
  const triggers: Trigger[] = [
    { name: "latch_sessions_changed", table: t.sessions, when: rowChange, fn: sessionChanged },
    { name: "latch_users_changed", table: t.users, when: rowChange, fn: userChanged },
    { name: "latch_sessions_truncated", table: t.sessions, when: truncate, fn: truncated },
    { name: "latch_users_truncated", table: t.users, when: truncate, fn: truncated },
  ]

  // The channel is the trigger's argument rather than part of the function, so that the
  // functions' text never changes and holds nothing of the options.
  return `
create or replace function ${sessionChanged}() returns trigger language plpgsql as $latch$
begin
  -- A token that is not a hash is a cookie: never on the channel, the session's user instead.
  if old.session_token ~ '^[0-9a-f]{64}$' then
    perform pg_notify(tg_argv[0], jsonb_build_object('sessionToken', old.session_token)::text);
  else
    perform pg_notify(tg_argv[0], jsonb_build_object('userId', old.user_id)::text);
  end if;
  return null;
end
$latch$;

create or replace function ${userChanged}() returns trigger language plpgsql as $latch$
begin
  perform pg_notify(tg_argv[0], jsonb_build_object('userId', old.id)::text);
  return null;
end
$latch$;

create or replace function ${truncated}() returns trigger language plpgsql as $latch$
begin
  perform pg_notify(tg_argv[0], jsonb_build_object('truncated', tg_table_name)::text);
  return null;
end
$latch$;

do ${dollarQuote(`
begin${triggers.map((trigger) => ensureTrigger(trigger, channel)).join("")}
end
`)};

-- For administrators: ends every session of a user (reported by the trigger, like any delete);
-- returns how many.
create or replace function ${revoke}(user_id text) returns integer language sql as ${dollarQuote(`
  with revoked as (delete from ${t.sessions} s where s.user_id = $1 returning 1)
  select count(*)::integer from revoked
`)};
`
}
