/**
 * The schema: nine tables, created if they do not exist, the upgrade of tables made by an earlier
 * version, the function that replaces recovery codes (see recovery-codes.ts) and the triggers that
 * report session changes (see triggers.ts), in one transaction.
 *
 * Needs PostgreSQL 13 or later (`gen_random_uuid()` without an extension).
 */
import {
  dollarQuote,
  PostgresAdapterError,
  quoteIdentifier,
  quoteLiteral,
  tableNames,
  type PostgresAdapterOptions,
  type Queryable,
} from "./client.js"
import { recoveryCodesSql } from "./recovery-codes.js"
import { notifySql } from "./triggers.js"

/** A client that can run several statements at once (PGlite's `exec`). */
interface Executable {
  exec(sql: string): Promise<unknown>
}

/** Serialises concurrent migrations (several app instances starting at once): an arbitrary
 * constant, "latch" in ASCII. */
const MIGRATION_LOCK = 0x6c61746368

/** The SQL that `migrate` runs, for those who manage their schema with their own tool. */
export function schemaSql(options: PostgresAdapterOptions = {}): string {
  const t = tableNames(options)
  const createSchema =
    options.schema === undefined
      ? ""
      : `create schema if not exists ${quoteIdentifier(options.schema)};\n`
  return `${createSchema}
create table if not exists ${t.users} (
  id text primary key default gen_random_uuid()::text,
  name text,
  email text unique,
  email_verified timestamptz,
  image text
);

create table if not exists ${t.accounts} (
  user_id text not null references ${t.users} (id) on delete cascade,
  type text not null,
  provider text not null,
  provider_account_id text not null,
  access_token text,
  refresh_token text,
  id_token text,
  token_type text,
  scope text,
  session_state text,
  expires_at bigint,
  authorization_details jsonb,
  primary key (provider, provider_account_id)
);
create index if not exists accounts_user_id_idx on ${t.accounts} (user_id);

create table if not exists ${t.sessions} (
  session_token text primary key,
  user_id text not null references ${t.users} (id) on delete cascade,
  expires timestamptz not null,
  id text not null default gen_random_uuid()::text,
  user_agent text,
  client_address text,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz
);
create index if not exists sessions_user_id_idx on ${t.sessions} (user_id);
${userIdDefaultUpgrade(t.users)}
${sessionFieldsUpgrade(t.sessions)}
create unique index if not exists sessions_id_idx on ${t.sessions} (id);

create table if not exists ${t.verificationTokens} (
  identifier text not null,
  token text not null,
  expires timestamptz not null,
  primary key (identifier, token)
);

create table if not exists ${t.authenticators} (
  credential_id text primary key,
  user_id text not null references ${t.users} (id) on delete cascade,
  provider_account_id text not null,
  credential_public_key text not null,
  counter bigint not null,
  credential_device_type text not null,
  credential_backed_up boolean not null,
  transports text,
  name text,
  created_at timestamptz,
  last_used_at timestamptz,
  aaguid text,
  created_by text,
  second_factor boolean not null default false
);
create index if not exists authenticators_user_id_idx on ${t.authenticators} (user_id);
${passkeyFieldsUpgrade(t.authenticators)}

create table if not exists ${t.counters} (
  key text primary key,
  count integer not null,
  expires timestamptz not null
);
create index if not exists counters_expires_idx on ${t.counters} (expires);

create table if not exists ${t.passwords} (
  user_id text primary key references ${t.users} (id) on delete cascade,
  hash text not null,
  updated_at timestamptz not null default now()
);

create table if not exists ${t.twoFactors} (
  user_id text primary key references ${t.users} (id) on delete cascade,
  secret text not null,
  enabled_at timestamptz not null
);

create table if not exists ${t.recoveryCodes} (
  user_id text not null references ${t.users} (id) on delete cascade,
  code_hash text not null,
  primary key (user_id, code_hash)
);
${recoveryCodesSql(options)}${notifySql(options)}`
}

/**
 * Gives `users.id` of a table made before it had one the default new tables have, so that a
 * user inserted without an id (a seeding script, SQL by hand) gets a UUID. Only when it has none:
 * `alter table` locks the table, and an up-to-date database is not locked at every start.
 */
function userIdDefaultUpgrade(users: string): string {
  return `do ${dollarQuote(`
begin
  if not exists (select 1 from pg_attribute a join pg_attrdef d
      on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid = ${quoteLiteral(users)}::regclass and a.attname = 'id') then
    alter table ${users} alter column id set default gen_random_uuid()::text;
  end if;
end
`)};`
}

/** The columns that sessions tables made by @latch/pg-adapter 0.1 lack. */
const SESSION_FIELDS = ["id", "user_agent", "client_address", "created_at", "last_seen_at"]

/**
 * Adds Latch's session fields to a sessions table made before them. Each existing session gets
 * an id of its own (a volatile default is evaluated row by row) and the migration's time as
 * `created_at`. `alter table` locks the table exclusively even when there is nothing to add, so
 * it runs only when a column is missing: an up-to-date database is not locked at every start.
 */
function sessionFieldsUpgrade(sessions: string): string {
  const columns = SESSION_FIELDS.map((name) => `'${name}'`).join(", ")
  return `do ${dollarQuote(`
begin
  if (select count(*) from pg_attribute
      where attrelid = ${quoteLiteral(sessions)}::regclass and not attisdropped
        and attname in (${columns})) < ${SESSION_FIELDS.length} then
    alter table ${sessions}
      add column if not exists id text not null default gen_random_uuid()::text,
      add column if not exists user_agent text,
      add column if not exists client_address text,
      add column if not exists created_at timestamptz not null default now(),
      add column if not exists last_seen_at timestamptz;
  end if;
end
`)};`
}

/** The columns of Latch's passkey fields, which authenticators tables made before them lack. */
const PASSKEY_FIELDS = [
  "name",
  "created_at",
  "last_used_at",
  "aaguid",
  "created_by",
  "second_factor",
]

/**
 * Adds Latch's passkey fields to an authenticators table made before them. Passkeys registered
 * before have no name, dates, model or browser (`null`: a page shows its defaults) and are no
 * second factor. Only when a column is missing, as for the sessions table.
 */
function passkeyFieldsUpgrade(authenticators: string): string {
  const columns = PASSKEY_FIELDS.map((name) => `'${name}'`).join(", ")
  return `do ${dollarQuote(`
begin
  if (select count(*) from pg_attribute
      where attrelid = ${quoteLiteral(authenticators)}::regclass and not attisdropped
        and attname in (${columns})) < ${PASSKEY_FIELDS.length} then
    alter table ${authenticators}
      add column if not exists name text,
      add column if not exists created_at timestamptz,
      add column if not exists last_used_at timestamptz,
      add column if not exists aaguid text,
      add column if not exists created_by text,
      add column if not exists second_factor boolean not null default false;
  end if;
end
`)};`
}

/**
 * Creates the adapter's tables, indexes, triggers and functions if they do not exist, and
 * upgrades tables made by an earlier version; safe to run at every start, from several processes
 * at once.
 *
 * The statements go to the server as one multi-statement query, which PostgreSQL runs as one
 * transaction: all of it or nothing. With PGlite that is `exec`; with `pg` it is `query`
 * without parameters (a `pg.Pool` runs it on one connection).
 */
export async function migrate(client: Queryable, options: PostgresAdapterOptions = {}) {
  const sql = `select pg_advisory_xact_lock(${MIGRATION_LOCK});\n${schemaSql(options)}`
  try {
    const executable = client as Queryable & Partial<Executable>
    if (typeof executable.exec === "function") await executable.exec(sql)
    else await client.query(sql)
  } catch (error) {
    throw new PostgresAdapterError("migrate", error)
  }
}
