/**
 * The tables of `@latch/drizzle-adapter` for PostgreSQL, as Drizzle schema objects: spread them
 * into the app's own schema (`export * from "@latch/drizzle-adapter/pg"`) and let `drizzle-kit
 * generate` (or `push`) write the migration.
 *
 * The five Auth.js tables keep the names and columns of `@auth/drizzle-adapter`'s defaults
 * (`user`, `account`, `session`, `verificationToken`, `authenticator`), so a database made for it
 * keeps its rows; Latch adds a few nullable columns to them (the session's id and device, an
 * account's `authorization_details`) and tables of its own, all named `latch_…`, which no Auth.js
 * table uses.
 *
 * @module pg
 */
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core"

/** Auth.js's `user` table. */
export const users = pgTable("user", {
  id: text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID()),
  name: text("name"),
  email: text("email").unique(),
  emailVerified: timestamp("emailVerified", { mode: "date" }),
  image: text("image"),
})

/** Auth.js's `account` table, plus `authorization_details` (RFC 9396, kept as JSON). */
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
    authorization_details: jsonb("authorization_details"),
  },
  (account) => [
    primaryKey({ columns: [account.provider, account.providerAccountId] }),
    index("account_userId_idx").on(account.userId),
  ],
)

/**
 * Auth.js's `session` table, plus Latch's session fields: an `id` to name one session of a user
 * (listing, revoking one), the device (`userAgent`, `clientAddress`) and times. They are nullable
 * so that adding them to a table that has rows needs no default the database must compute; the
 * adapter always writes them, and gives a row made before them an id the first time it reads it.
 */
export const sessions = pgTable(
  "session",
  {
    sessionToken: text("sessionToken").primaryKey(),
    userId: text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expires: timestamp("expires", { mode: "date" }).notNull(),
    id: text("id"),
    userAgent: text("userAgent"),
    clientAddress: text("clientAddress"),
    createdAt: timestamp("createdAt", { mode: "date" }),
    lastSeenAt: timestamp("lastSeenAt", { mode: "date" }),
  },
  (session) => [
    index("session_userId_idx").on(session.userId),
    uniqueIndex("session_id_idx").on(session.id),
  ],
)

/** Auth.js's `verificationToken` table (the token is stored hashed by Latch). */
export const verificationTokens = pgTable(
  "verificationToken",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: timestamp("expires", { mode: "date" }).notNull(),
  },
  (token) => [primaryKey({ columns: [token.identifier, token.token] })],
)

/**
 * Auth.js's `authenticator` table (passkeys). `counter` is a `bigint`: a signature counter is
 * 32 bits unsigned, past PostgreSQL's `integer`. Plus Latch's passkey fields: the name its owner
 * gave it, when it was made and last used, its model's AAGUID, the browser that made it, and
 * `secondFactor` (a security key kept for two-factor authentication, which never signs in
 * alone). Nullable (or defaulted), so that adding them to a table that has
 * rows needs nothing computed; a passkey made before them reads as unnamed.
 */
export const authenticators = pgTable(
  "authenticator",
  {
    credentialID: text("credentialID").notNull().unique(),
    userId: text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    providerAccountId: text("providerAccountId").notNull(),
    credentialPublicKey: text("credentialPublicKey").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull(),
    credentialDeviceType: text("credentialDeviceType").notNull(),
    credentialBackedUp: boolean("credentialBackedUp").notNull(),
    transports: text("transports"),
    name: text("name"),
    createdAt: timestamp("createdAt", { mode: "date", withTimezone: true }),
    lastUsedAt: timestamp("lastUsedAt", { mode: "date", withTimezone: true }),
    aaguid: text("aaguid"),
    createdBy: text("createdBy"),
    secondFactor: boolean("secondFactor").notNull().default(false),
  },
  (authenticator) => [primaryKey({ columns: [authenticator.userId, authenticator.credentialID] })],
)

/** A user's password hash (the `Password` provider): at most one per user. */
export const passwords = pgTable("latch_password", {
  userId: text("userId")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  hash: text("hash").notNull(),
  updatedAt: timestamp("updatedAt", { mode: "date", withTimezone: true }).notNull(),
})

/** A user's second factor (the TOTP secret, sealed by Latch): at most one per user. */
export const twoFactors = pgTable("latch_two_factor", {
  userId: text("userId")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  enabledAt: timestamp("enabledAt", { mode: "date", withTimezone: true }).notNull(),
})

/** A user's unused recovery codes, each as its hash: a code used is a row deleted. */
export const recoveryCodes = pgTable(
  "latch_recovery_code",
  {
    userId: text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("codeHash").notNull(),
  },
  (code) => [primaryKey({ columns: [code.userId, code.codeHash] })],
)

/**
 * The counters behind rate limits, spent passkey challenges, TOTP steps and the refresh lease:
 * one row per live window, swept now and then once expired.
 */
export const counters = pgTable(
  "latch_counter",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    expires: timestamp("expires", { mode: "date", withTimezone: true }).notNull(),
  },
  (counter) => [index("latch_counter_expires_idx").on(counter.expires)],
)
