/**
 * Auth.js's own adapters on PGlite, each with the schema its documentation gives: the stores an
 * Auth.js app moves to Latch with.
 */
import { PGlite } from "@electric-sql/pglite"
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import PostgresAdapter from "@auth/pg-adapter"
import type { Adapter } from "@latch/core/adapters"
import { boolean, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core"
import { drizzle } from "drizzle-orm/pglite"
import type { Pool } from "pg"

export interface Database {
  name: string
  db: PGlite
  /** The adapter, typed as Latch's (it is passed to Latch unchanged). */
  adapter: Adapter
  /** Deletes every row. */
  empty(): Promise<void>
  close(): Promise<void>
}

// The Drizzle schema of the @auth/drizzle-adapter documentation (PostgreSQL), with passkeys.
export const users = pgTable("user", {
  id: text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID()),
  name: text("name"),
  email: text("email").unique(),
  emailVerified: timestamp("emailVerified", { mode: "date" }),
  image: text("image"),
})
export const accounts = pgTable(
  "account",
  {
    userId: text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("providerAccountId").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: integer("expires_at"),
    token_type: text("token_type"),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: text("session_state"),
  },
  (account) => [primaryKey({ columns: [account.provider, account.providerAccountId] })],
)
export const sessions = pgTable("session", {
  sessionToken: text("sessionToken").primaryKey(),
  userId: text("userId")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expires: timestamp("expires", { mode: "date" }).notNull(),
})
export const verificationTokens = pgTable(
  "verificationToken",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: timestamp("expires", { mode: "date" }).notNull(),
  },
  (token) => [primaryKey({ columns: [token.identifier, token.token] })],
)
export const authenticators = pgTable(
  "authenticator",
  {
    credentialID: text("credentialID").notNull().unique(),
    userId: text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    providerAccountId: text("providerAccountId").notNull(),
    credentialPublicKey: text("credentialPublicKey").notNull(),
    counter: integer("counter").notNull(),
    credentialDeviceType: text("credentialDeviceType").notNull(),
    credentialBackedUp: boolean("credentialBackedUp").notNull(),
    transports: text("transports"),
  },
  (authenticator) => [primaryKey({ columns: [authenticator.userId, authenticator.credentialID] })],
)

const drizzleSchema = `
create table "user" (id text primary key, name text, email text unique,
  "emailVerified" timestamp, image text);
create table account ("userId" text not null references "user" (id) on delete cascade,
  type text not null, provider text not null, "providerAccountId" text not null,
  refresh_token text, access_token text, expires_at integer, token_type text, scope text,
  id_token text, session_state text, primary key (provider, "providerAccountId"));
create table session ("sessionToken" text primary key,
  "userId" text not null references "user" (id) on delete cascade, expires timestamp not null);
create table "verificationToken" (identifier text not null, token text not null,
  expires timestamp not null, primary key (identifier, token));
create table authenticator ("credentialID" text not null unique,
  "userId" text not null references "user" (id) on delete cascade,
  "providerAccountId" text not null, "credentialPublicKey" text not null,
  counter integer not null, "credentialDeviceType" text not null,
  "credentialBackedUp" boolean not null, transports text,
  primary key ("userId", "credentialID"));
`

// The SQL schema of the @auth/pg-adapter documentation: SERIAL ids, camelCase columns.
const pgSchema = `
create table verification_token (identifier text not null, expires timestamptz not null,
  token text not null, primary key (identifier, token));
create table accounts (id serial, "userId" integer not null, type varchar(255) not null,
  provider varchar(255) not null, "providerAccountId" varchar(255) not null,
  refresh_token text, access_token text, expires_at bigint, id_token text, scope text,
  session_state text, token_type text, primary key (id));
create table sessions (id serial, "userId" integer not null, expires timestamptz not null,
  "sessionToken" varchar(255) not null, primary key (id));
create table users (id serial, name varchar(255), email varchar(255),
  "emailVerified" timestamptz, image text, primary key (id));
`

/** @auth/drizzle-adapter on PGlite. */
export async function drizzleDatabase(): Promise<Database> {
  const db = new PGlite()
  await db.exec(drizzleSchema)
  const adapter = DrizzleAdapter(drizzle(db), {
    usersTable: users,
    accountsTable: accounts,
    sessionsTable: sessions,
    verificationTokensTable: verificationTokens,
    authenticatorsTable: authenticators,
  }) as unknown as Adapter
  return {
    name: "@auth/drizzle-adapter",
    db,
    adapter,
    empty: async () => {
      await db.exec(`truncate "user", account, session, "verificationToken", authenticator cascade`)
    },
    close: () => db.close(),
  }
}

/**
 * @auth/pg-adapter on PGlite. The adapter reads `rowCount` from `pg`'s results; PGlite names it
 * `affectedRows` (and leaves it out for a select), so the client passed fills it in as pg does.
 */
export async function pgDatabase(): Promise<Database> {
  const db = new PGlite()
  await db.exec(pgSchema)
  const client = {
    async query(text: string, params?: unknown[]) {
      const result = await db.query(text, params)
      return { ...result, rowCount: result.rows.length || result.affectedRows || 0 }
    },
  }
  const adapter = PostgresAdapter(client as unknown as Pool) as unknown as Adapter
  return {
    name: "@auth/pg-adapter",
    db,
    adapter,
    empty: async () => {
      await db.exec("truncate users, accounts, sessions, verification_token restart identity")
    },
    close: () => db.close(),
  }
}
