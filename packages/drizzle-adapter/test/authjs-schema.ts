/**
 * The schemas that `@auth/drizzle-adapter`'s documentation gives an app, for PostgreSQL and
 * SQLite and MySQL: the tables an app on it has before it adds Latch's.
 */
import * as my from "drizzle-orm/mysql-core"
import * as pg from "drizzle-orm/pg-core"
import * as sqlite from "drizzle-orm/sqlite-core"

export const pgAuthjs = (() => {
  const users = pg.pgTable("user", {
    id: pg
      .text("id")
      .primaryKey()
      .$defaultFn(() => crypto.randomUUID()),
    name: pg.text("name"),
    email: pg.text("email").unique(),
    emailVerified: pg.timestamp("emailVerified", { mode: "date" }),
    image: pg.text("image"),
  })
  const accounts = pg.pgTable(
    "account",
    {
      userId: pg
        .text("userId")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      type: pg.text("type").notNull(),
      provider: pg.text("provider").notNull(),
      providerAccountId: pg.text("providerAccountId").notNull(),
      refresh_token: pg.text("refresh_token"),
      access_token: pg.text("access_token"),
      expires_at: pg.integer("expires_at"),
      token_type: pg.text("token_type"),
      scope: pg.text("scope"),
      id_token: pg.text("id_token"),
      session_state: pg.text("session_state"),
    },
    (a) => [pg.primaryKey({ columns: [a.provider, a.providerAccountId] })],
  )
  const sessions = pg.pgTable("session", {
    sessionToken: pg.text("sessionToken").primaryKey(),
    userId: pg
      .text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expires: pg.timestamp("expires", { mode: "date" }).notNull(),
  })
  const verificationTokens = pg.pgTable(
    "verificationToken",
    {
      identifier: pg.text("identifier").notNull(),
      token: pg.text("token").notNull(),
      expires: pg.timestamp("expires", { mode: "date" }).notNull(),
    },
    (v) => [pg.primaryKey({ columns: [v.identifier, v.token] })],
  )
  const authenticators = pg.pgTable(
    "authenticator",
    {
      credentialID: pg.text("credentialID").notNull().unique(),
      userId: pg
        .text("userId")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      providerAccountId: pg.text("providerAccountId").notNull(),
      credentialPublicKey: pg.text("credentialPublicKey").notNull(),
      counter: pg.integer("counter").notNull(),
      credentialDeviceType: pg.text("credentialDeviceType").notNull(),
      credentialBackedUp: pg.boolean("credentialBackedUp").notNull(),
      transports: pg.text("transports"),
    },
    (a) => [pg.primaryKey({ columns: [a.userId, a.credentialID] })],
  )
  return { users, accounts, sessions, verificationTokens, authenticators }
})()

export const sqliteAuthjs = (() => {
  const users = sqlite.sqliteTable("user", {
    id: sqlite
      .text("id")
      .primaryKey()
      .$defaultFn(() => crypto.randomUUID()),
    name: sqlite.text("name"),
    email: sqlite.text("email").unique(),
    emailVerified: sqlite.integer("emailVerified", { mode: "timestamp_ms" }),
    image: sqlite.text("image"),
  })
  const accounts = sqlite.sqliteTable(
    "account",
    {
      userId: sqlite
        .text("userId")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      type: sqlite.text("type").notNull(),
      provider: sqlite.text("provider").notNull(),
      providerAccountId: sqlite.text("providerAccountId").notNull(),
      refresh_token: sqlite.text("refresh_token"),
      access_token: sqlite.text("access_token"),
      expires_at: sqlite.integer("expires_at"),
      token_type: sqlite.text("token_type"),
      scope: sqlite.text("scope"),
      id_token: sqlite.text("id_token"),
      session_state: sqlite.text("session_state"),
    },
    (a) => [sqlite.primaryKey({ columns: [a.provider, a.providerAccountId] })],
  )
  const sessions = sqlite.sqliteTable("session", {
    sessionToken: sqlite.text("sessionToken").primaryKey(),
    userId: sqlite
      .text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expires: sqlite.integer("expires", { mode: "timestamp_ms" }).notNull(),
  })
  const verificationTokens = sqlite.sqliteTable(
    "verificationToken",
    {
      identifier: sqlite.text("identifier").notNull(),
      token: sqlite.text("token").notNull(),
      expires: sqlite.integer("expires", { mode: "timestamp_ms" }).notNull(),
    },
    (v) => [sqlite.primaryKey({ columns: [v.identifier, v.token] })],
  )
  const authenticators = sqlite.sqliteTable(
    "authenticator",
    {
      credentialID: sqlite.text("credentialID").notNull().unique(),
      userId: sqlite
        .text("userId")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      providerAccountId: sqlite.text("providerAccountId").notNull(),
      credentialPublicKey: sqlite.text("credentialPublicKey").notNull(),
      counter: sqlite.integer("counter").notNull(),
      credentialDeviceType: sqlite.text("credentialDeviceType").notNull(),
      credentialBackedUp: sqlite.integer("credentialBackedUp", { mode: "boolean" }).notNull(),
      transports: sqlite.text("transports"),
    },
    (a) => [sqlite.primaryKey({ columns: [a.userId, a.credentialID] })],
  )
  return { users, accounts, sessions, verificationTokens, authenticators }
})()

export const mysqlAuthjs = (() => {
  const key = (name: string) => my.varchar(name, { length: 255 })
  const users = my.mysqlTable("user", {
    id: key("id")
      .primaryKey()
      .$defaultFn(() => crypto.randomUUID()),
    name: key("name"),
    email: key("email").unique(),
    emailVerified: my.timestamp("emailVerified", { mode: "date", fsp: 3 }),
    image: key("image"),
  })
  const accounts = my.mysqlTable(
    "account",
    {
      userId: key("userId")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      type: key("type").notNull(),
      provider: key("provider").notNull(),
      providerAccountId: key("providerAccountId").notNull(),
      refresh_token: key("refresh_token"),
      access_token: key("access_token"),
      expires_at: my.int("expires_at"),
      token_type: key("token_type"),
      scope: key("scope"),
      id_token: my.varchar("id_token", { length: 2048 }),
      session_state: key("session_state"),
    },
    (a) => [my.primaryKey({ columns: [a.provider, a.providerAccountId] })],
  )
  const sessions = my.mysqlTable("session", {
    sessionToken: key("sessionToken").primaryKey(),
    userId: key("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expires: my.timestamp("expires", { mode: "date" }).notNull(),
  })
  const verificationTokens = my.mysqlTable(
    "verificationToken",
    {
      identifier: key("identifier").notNull(),
      token: key("token").notNull(),
      expires: my.timestamp("expires", { mode: "date" }).notNull(),
    },
    (v) => [my.primaryKey({ columns: [v.identifier, v.token] })],
  )
  const authenticators = my.mysqlTable(
    "authenticator",
    {
      credentialID: key("credentialID").notNull().unique(),
      userId: key("userId")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      providerAccountId: key("providerAccountId").notNull(),
      credentialPublicKey: key("credentialPublicKey").notNull(),
      counter: my.int("counter").notNull(),
      credentialDeviceType: key("credentialDeviceType").notNull(),
      credentialBackedUp: my.boolean("credentialBackedUp").notNull(),
      transports: key("transports"),
    },
    (a) => [my.primaryKey({ columns: [a.userId, a.credentialID] })],
  )
  return { users, accounts, sessions, verificationTokens, authenticators }
})()
