/**
 * The tables of `@latch/drizzle-adapter` for MySQL and MariaDB (drizzle-orm's `mysql2` driver),
 * as Drizzle schema objects: spread them into the app's own schema
 * (`export * from "@latch/drizzle-adapter/mysql"`) and let `drizzle-kit generate` (or `push`)
 * write the migration.
 *
 * The five Auth.js tables keep the names and columns of `@auth/drizzle-adapter`'s MySQL defaults
 * (`user`, `account`, `session`, `verificationToken`, `authenticator`), so a database made for
 * it keeps its rows; Latch adds a few nullable columns and tables of its own, named `latch_…`.
 *
 * Every column that is matched on — tokens, hashes, keys, addresses, session and credential ids
 * — is `varbinary` (user ids excepted, below):
 * MySQL's default collations fold case and ignore trailing spaces, so `ABC` would find the token
 * `abc`. Latch normalises addresses itself and then compares them exactly, so `email` is binary
 * too: `Ada@example.com` and `ada@example.com` are two rows, as on PostgreSQL and SQLite.
 * Times are kept to the millisecond (`fsp` 3); Latch's own columns are `datetime`, which has no
 * time zone conversion and no 2038 limit, and read the same on every connection.
 *
 * @module mysql
 */
import {
  boolean,
  datetime,
  index,
  int,
  json,
  mysqlTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  varbinary,
  varchar,
} from "drizzle-orm/mysql-core"

/**
 * A string compared byte for byte. Not a `varchar … collate utf8mb4_bin`: that collation pads
 * (`'abc' = 'abc '` holds on MySQL and MariaDB alike), and the no-pad binary collations are named
 * differently on each (`utf8mb4_0900_bin`, `utf8mb4_nopad_bin`). `varbinary` compares bytes on
 * both; Drizzle reads it back as a UTF-8 string.
 */
const exact = (name: string, config: { length: number } = { length: 255 }) =>
  varbinary(name, config)

/**
 * A user's id, and the columns that reference it: `varchar(255)` in the database's collation, as
 * in `@auth/drizzle-adapter`. MySQL and MariaDB refuse to change the type of a column that a
 * foreign key joins, so a database moved from Auth.js keeps it; ids are UUIDs the adapter makes,
 * never text a visitor types, so a collation's folding finds nothing it should not.
 */
const userId = (name: string) => varchar(name, { length: 255 })
const id = (name: string) => exact(name, { length: 255 })
const time = (name: string) => timestamp(name, { mode: "date", fsp: 3 })
const latchTime = (name: string) => datetime(name, { mode: "date", fsp: 3 })

/** Auth.js's `user` table. */
export const users = mysqlTable("user", {
  id: userId("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID()),
  name: varchar("name", { length: 255 }),
  email: exact("email", { length: 255 }).unique(),
  emailVerified: time("emailVerified"),
  image: varchar("image", { length: 255 }),
})

/** Auth.js's `account` table, plus `authorization_details` (RFC 9396). Tokens are `text`:
 * an access or ID token is often longer than 255 characters. */
export const accounts = mysqlTable(
  "account",
  {
    userId: userId("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: varchar("type", { length: 255 }).notNull(),
    provider: id("provider").notNull(),
    providerAccountId: id("providerAccountId").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: int("expires_at"),
    token_type: varchar("token_type", { length: 255 }),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: varchar("session_state", { length: 255 }),
    authorization_details: json("authorization_details"),
  },
  (account) => [
    primaryKey({ columns: [account.provider, account.providerAccountId] }),
    index("account_userId_idx").on(account.userId),
  ],
)

/**
 * Auth.js's `session` table, plus Latch's session fields (`id`, device, times), nullable so that
 * they can be added to a table that has rows; the adapter gives a row made before them an id the
 * first time it reads it.
 */
export const sessions = mysqlTable(
  "session",
  {
    sessionToken: id("sessionToken").primaryKey(),
    userId: userId("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expires: time("expires").notNull(),
    id: id("id"),
    userAgent: text("userAgent"),
    clientAddress: varchar("clientAddress", { length: 255 }),
    createdAt: latchTime("createdAt"),
    lastSeenAt: latchTime("lastSeenAt"),
  },
  (session) => [
    index("session_userId_idx").on(session.userId),
    uniqueIndex("session_id_idx").on(session.id),
  ],
)

/** Auth.js's `verificationToken` table (the token is stored hashed by Latch). */
export const verificationTokens = mysqlTable(
  "verificationToken",
  {
    identifier: id("identifier").notNull(),
    token: id("token").notNull(),
    expires: time("expires").notNull(),
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
export const authenticators = mysqlTable(
  "authenticator",
  {
    credentialID: id("credentialID").notNull().unique(),
    userId: userId("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    providerAccountId: varchar("providerAccountId", { length: 255 }).notNull(),
    credentialPublicKey: text("credentialPublicKey").notNull(),
    // WebAuthn's signature counter is a 32-bit unsigned number; `int` alone stops at 2³¹ − 1.
    counter: int("counter", { unsigned: true }).notNull(),
    credentialDeviceType: varchar("credentialDeviceType", { length: 255 }).notNull(),
    credentialBackedUp: boolean("credentialBackedUp").notNull(),
    transports: varchar("transports", { length: 255 }),
    // The user's own text, in any script and with emoji: stored as its UTF-8 bytes, which no
    // database character set (latin1 is MariaDB's default) can refuse. 64 characters at most
    // (core checks), up to 4 bytes each.
    name: exact("name", { length: 256 }),
    createdAt: latchTime("createdAt"),
    lastUsedAt: latchTime("lastUsedAt"),
    aaguid: varchar("aaguid", { length: 36 }),
    createdBy: varchar("createdBy", { length: 255 }),
    secondFactor: boolean("secondFactor").notNull().default(false),
  },
  (authenticator) => [primaryKey({ columns: [authenticator.userId, authenticator.credentialID] })],
)

/** A user's password hash (the `Password` provider): at most one per user. */
export const passwords = mysqlTable("latch_password", {
  userId: userId("userId")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  hash: text("hash").notNull(),
  updatedAt: latchTime("updatedAt").notNull(),
})

/** A user's second factor (the TOTP secret, sealed by Latch): at most one per user. */
export const twoFactors = mysqlTable("latch_two_factor", {
  userId: userId("userId")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  enabledAt: latchTime("enabledAt").notNull(),
})

/** A user's unused recovery codes, each as its hash: a code used is a row deleted. */
export const recoveryCodes = mysqlTable(
  "latch_recovery_code",
  {
    userId: userId("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: id("codeHash").notNull(),
  },
  (code) => [primaryKey({ columns: [code.userId, code.codeHash] })],
)

/**
 * The counters behind rate limits, spent challenges, TOTP steps and the refresh lease. `count`
 * comes before `expires`: MySQL applies an upsert's assignments in order, and the counter's
 * window rule reads the old `expires` when it sets `count` (a custom table must keep this order).
 */
export const counters = mysqlTable(
  "latch_counter",
  {
    // Keys name what they count (a limit, an address, a challenge): room for a long address.
    key: exact("key", { length: 512 }).primaryKey(),
    count: int("count").notNull(),
    expires: latchTime("expires").notNull(),
  },
  (counter) => [index("latch_counter_expires_idx").on(counter.expires)],
)
