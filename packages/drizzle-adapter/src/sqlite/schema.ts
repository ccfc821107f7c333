/**
 * The tables of `@latch/drizzle-adapter` for SQLite (better-sqlite3, libsql / Turso, and the
 * other SQLite drivers of Drizzle), as Drizzle schema objects: spread them into the app's own
 * schema (`export * from "@latch/drizzle-adapter/sqlite"`) and let `drizzle-kit generate` (or
 * `push`) write the migration.
 *
 * The five Auth.js tables keep the names and columns of `@auth/drizzle-adapter`'s defaults
 * (`user`, `account`, `session`, `verificationToken`, `authenticator`; times as integer
 * milliseconds), so a database made for it keeps its rows; Latch adds a few nullable columns to
 * them and tables of its own, all named `latch_…`. No column has a default the database computes:
 * SQLite cannot add such a column to a table that exists, so the adapter writes every value.
 *
 * @module sqlite
 */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core"

/** Auth.js's `user` table. */
export const users = sqliteTable("user", {
  id: text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID()),
  name: text("name"),
  email: text("email").unique(),
  emailVerified: integer("emailVerified", { mode: "timestamp_ms" }),
  image: text("image"),
})

/** Auth.js's `account` table, plus `authorization_details` (RFC 9396, kept as JSON text). */
export const accounts = sqliteTable(
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
    authorization_details: text("authorization_details", { mode: "json" }),
  },
  (account) => [
    primaryKey({ columns: [account.provider, account.providerAccountId] }),
    index("account_userId_idx").on(account.userId),
  ],
)

/**
 * Auth.js's `session` table, plus Latch's session fields (`id`, device, times), nullable so that
 * they can be added to a table that has rows; the adapter always writes them, and gives a row
 * made before them an id the first time it reads it.
 */
export const sessions = sqliteTable(
  "session",
  {
    sessionToken: text("sessionToken").primaryKey(),
    userId: text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expires: integer("expires", { mode: "timestamp_ms" }).notNull(),
    id: text("id"),
    userAgent: text("userAgent"),
    clientAddress: text("clientAddress"),
    createdAt: integer("createdAt", { mode: "timestamp_ms" }),
    lastSeenAt: integer("lastSeenAt", { mode: "timestamp_ms" }),
  },
  (session) => [
    index("session_userId_idx").on(session.userId),
    uniqueIndex("session_id_idx").on(session.id),
  ],
)

/** Auth.js's `verificationToken` table (the token is stored hashed by Latch). */
export const verificationTokens = sqliteTable(
  "verificationToken",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: integer("expires", { mode: "timestamp_ms" }).notNull(),
  },
  (token) => [primaryKey({ columns: [token.identifier, token.token] })],
)

/**
 * Auth.js's `authenticator` table (passkeys), plus Latch's passkey fields: the name its owner
 * gave it, when it was made and last used, its model's AAGUID, the browser that made it, and
 * `secondFactor` (a security key kept for two-factor authentication, which never signs in
 * alone). Nullable (or defaulted), so that adding them to a table that has
 * rows needs nothing computed; a passkey made before them reads as unnamed.
 */
export const authenticators = sqliteTable(
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
    credentialBackedUp: integer("credentialBackedUp", { mode: "boolean" }).notNull(),
    transports: text("transports"),
    name: text("name"),
    createdAt: integer("createdAt", { mode: "timestamp_ms" }),
    lastUsedAt: integer("lastUsedAt", { mode: "timestamp_ms" }),
    aaguid: text("aaguid"),
    createdBy: text("createdBy"),
    secondFactor: integer("secondFactor", { mode: "boolean" }).notNull().default(false),
  },
  (authenticator) => [primaryKey({ columns: [authenticator.userId, authenticator.credentialID] })],
)

/** A user's password hash (the `Password` provider): at most one per user. */
export const passwords = sqliteTable("latch_password", {
  userId: text("userId")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  hash: text("hash").notNull(),
  updatedAt: integer("updatedAt", { mode: "timestamp_ms" }).notNull(),
})

/** A user's second factor (the TOTP secret, sealed by Latch): at most one per user. */
export const twoFactors = sqliteTable("latch_two_factor", {
  userId: text("userId")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  enabledAt: integer("enabledAt", { mode: "timestamp_ms" }).notNull(),
})

/** A user's unused recovery codes, each as its hash: a code used is a row deleted. */
export const recoveryCodes = sqliteTable(
  "latch_recovery_code",
  {
    userId: text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("codeHash").notNull(),
  },
  (code) => [primaryKey({ columns: [code.userId, code.codeHash] })],
)

/** The counters behind rate limits, spent challenges, TOTP steps and the refresh lease. */
export const counters = sqliteTable(
  "latch_counter",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    expires: integer("expires", { mode: "timestamp_ms" }).notNull(),
  },
  (counter) => [index("latch_counter_expires_idx").on(counter.expires)],
)
