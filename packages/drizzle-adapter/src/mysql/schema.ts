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
 * Every column that is matched on — ids, tokens, hashes, keys, addresses — is `utf8mb4_bin`:
 * MySQL's default collations fold case and trailing spaces, so `ABC` would find the token `abc`.
 * Latch normalises addresses itself and then compares them exactly, so `email` is binary too.
 * Times are kept to the millisecond (`fsp` 3); Latch's own columns are `datetime`, which has no
 * time zone conversion and no 2038 limit, and read the same on every connection.
 *
 * @module mysql
 */
import {
  boolean,
  customType,
  datetime,
  index,
  int,
  json,
  mysqlTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/mysql-core"

/** A `varchar` compared byte for byte (case and trailing spaces count). */
const exact = customType<{ data: string; driverData: string; config: { length: number } }>({
  dataType: (config) =>
    `varchar(${config?.length ?? 255}) character set utf8mb4 collate utf8mb4_bin`,
})

const id = (name: string) => exact(name, { length: 255 })
const time = (name: string) => timestamp(name, { mode: "date", fsp: 3 })
const latchTime = (name: string) => datetime(name, { mode: "date", fsp: 3 })

/** Auth.js's `user` table. */
export const users = mysqlTable("user", {
  id: id("id")
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
    userId: id("userId")
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
    userId: id("userId")
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

/** Auth.js's `authenticator` table (passkeys). */
export const authenticators = mysqlTable(
  "authenticator",
  {
    credentialID: id("credentialID").notNull().unique(),
    userId: id("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    providerAccountId: varchar("providerAccountId", { length: 255 }).notNull(),
    credentialPublicKey: text("credentialPublicKey").notNull(),
    // WebAuthn's signature counter is a 32-bit unsigned number; `int` alone stops at 2³¹ − 1.
    counter: int("counter", { unsigned: true }).notNull(),
    credentialDeviceType: varchar("credentialDeviceType", { length: 255 }).notNull(),
    credentialBackedUp: boolean("credentialBackedUp").notNull(),
    transports: varchar("transports", { length: 255 }),
  },
  (authenticator) => [primaryKey({ columns: [authenticator.userId, authenticator.credentialID] })],
)

/** A user's password hash (the `Password` provider): at most one per user. */
export const passwords = mysqlTable("latch_password", {
  userId: id("userId")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  hash: text("hash").notNull(),
  updatedAt: latchTime("updatedAt").notNull(),
})

/** A user's second factor (the TOTP secret, sealed by Latch): at most one per user. */
export const twoFactors = mysqlTable("latch_two_factor", {
  userId: id("userId")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  enabledAt: latchTime("enabledAt").notNull(),
})

/** A user's unused recovery codes, each as its hash: a code used is a row deleted. */
export const recoveryCodes = mysqlTable(
  "latch_recovery_code",
  {
    userId: id("userId")
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
    key: id("key").primaryKey(),
    count: int("count").notNull(),
    expires: latchTime("expires").notNull(),
  },
  (counter) => [index("latch_counter_expires_idx").on(counter.expires)],
)
