/**
 * Moving from `@auth/drizzle-adapter`: a database made with its documented schema, a user signed
 * in by email through `@auth/core` with `@auth/drizzle-adapter` (a user, an email account and a
 * database session, written by them), then the migration Drizzle Kit generates from that schema
 * to this package's, then Latch on the same database: the browser's Auth.js session cookie is
 * still a session, the user signs in again by email as the same user, and Latch's own features
 * (a password, sessions listed by id) work on the moved rows.
 */
import { Auth as AuthJs } from "@auth/core"
import { DrizzleAdapter as AuthJsDrizzleAdapter } from "@auth/drizzle-adapter"
import { getUserSessions } from "@latch/core"
import Nodemailer from "@latch/core/providers/nodemailer"
import type { AuthConfig } from "@latch/core/types"
import { afterEach, describe, expect, it } from "vitest"
import { followLink } from "../../core/test/helpers/continue-page.js"
import { Browser, ORIGIN, SECRET } from "../../core/test/helpers/request.js"
import * as mysqlSchema from "../src/mysql/schema.js"
import * as pgSchema from "../src/pg/schema.js"
import * as sqliteSchema from "../src/sqlite/schema.js"
import { DrizzleAdapter } from "../src/index.js"
import { mysqlAuthjs, pgAuthjs, sqliteAuthjs } from "./authjs-schema.js"
import {
  FULL,
  openBetterSqlite,
  mysqlMigration,
  openLibsql,
  openMariadb,
  openPGlite,
  pgMigration,
  sqliteMigration,
  type TestDatabase,
} from "./databases.js"

const cases = [
  {
    name: "PostgreSQL (PGlite)",
    open: openPGlite,
    authjs: pgAuthjs,
    migrate: () => pgMigration(pgSchema, pgAuthjs),
    create: () => pgMigration(pgAuthjs),
  },
  {
    name: "SQLite (libsql, local file)",
    open: openLibsql,
    authjs: sqliteAuthjs,
    migrate: () => sqliteMigration(sqliteSchema, sqliteAuthjs),
    create: () => sqliteMigration(sqliteAuthjs),
  },
  {
    name: "MariaDB (mysql2)",
    open: openMariadb,
    authjs: mysqlAuthjs,
    migrate: () => mysqlMigration(mysqlSchema, mysqlAuthjs),
    create: () => mysqlMigration(mysqlAuthjs),
  },
  ...(FULL
    ? [
        {
          name: "SQLite (better-sqlite3)",
          open: openBetterSqlite,
          authjs: sqliteAuthjs,
          migrate: () => sqliteMigration(sqliteSchema, sqliteAuthjs),
          create: () => sqliteMigration(sqliteAuthjs),
        },
      ]
    : []),
]

let database: TestDatabase | undefined
afterEach(async () => {
  await database?.close()
  database = undefined
})

describe.each(cases)("from @auth/drizzle-adapter on $name", ({ open, authjs, migrate, create }) => {
  it("keeps the user signed in, and signs them in again, after Latch's tables are added", async () => {
    database = await open()
    await database.apply(await create())

    // 1. Auth.js: an email sign-in writes a user, an email account and a database session.
    const links: string[] = []
    const authjsConfig = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      session: { strategy: "database" as const },
      adapter: AuthJsDrizzleAdapter(database.db, {
        usersTable: authjs.users,
        accountsTable: authjs.accounts,
        sessionsTable: authjs.sessions,
        verificationTokensTable: authjs.verificationTokens,
      } as never),
      providers: [
        {
          id: "email",
          type: "email" as const,
          name: "Email",
          from: "app@example.com",
          maxAge: 86_400,
          options: {},
          sendVerificationRequest: async ({ url }: { url: string }) => {
            links.push(url)
          },
        },
      ],
    }
    const browser = new Browser(authjsConfig as never)
    browser.auth = ((request: Request) => AuthJs(request, authjsConfig as never)) as never
    const csrfToken = await browser.csrfToken()
    await browser.fetch("/auth/signin/email", {
      form: { csrfToken, email: "ada@example.com", callbackUrl: `${ORIGIN}/home` },
    })
    expect(links).toHaveLength(1)
    const signedIn = await browser.fetch(links[0]!)
    expect(signedIn.headers.get("location")).toBe(`${ORIGIN}/home`)
    const before = await browser.session()
    expect(before).toMatchObject({ user: { email: "ada@example.com" } })
    const rawToken = browser.cookies.get("authjs.session-token")!
    const [authjsUser] = await database.db.select().from(authjs.users)
    expect(authjsUser).toMatchObject({ email: "ada@example.com" })

    // 2. The migration Drizzle Kit generates from Auth.js's schema to Latch's: no table dropped,
    // no row lost.
    const statements = await migrate()
    expect(statements.some((statement) => /drop table/i.test(statement))).toBe(false)
    await database.apply(statements)

    // 3. Latch on the same database, the same browser cookie.
    const adapter = DrizzleAdapter(database.db)
    const mails: string[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      session: { strategy: "database" },
      providers: [
        Nodemailer({
          server: "smtp://127.0.0.1:1",
          from: "app@example.com",
          sendVerificationRequest: ({ url }) => {
            mails.push(url)
          },
        }),
      ],
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    }
    browser.config = config as never
    browser.auth = (await import("@latch/core")).Auth as never
    expect(await browser.session()).toMatchObject({
      user: { email: "ada@example.com", name: null },
    })
    // The session row moved under the token's hash on that read, and got an id.
    expect(await adapter.getSessionAndUser!(rawToken)).toBeNull()
    const listed = await adapter.listSessionsByUserId!(authjsUser.id)
    expect(listed).toHaveLength(1)
    expect(listed[0]!.id).toMatch(/^[0-9a-f-]{36}$/)
    const request = new Request(`${ORIGIN}/account`, {
      headers: { cookie: browser.cookieHeader() },
    })
    expect(await getUserSessions(request, config)).toMatchObject([{ current: true }])

    // 4. A new sign-in by email finds the same user (by address), with Latch's flow.
    const other = new Browser(config as never)
    await other.fetch("/auth/signin/nodemailer", {
      form: { csrfToken: await other.csrfToken(), email: "ada@example.com" },
    })
    expect(mails).toHaveLength(1)
    await followLink(other, mails[0]!)
    expect(await other.session()).toMatchObject({ user: { email: "ada@example.com" } })
    expect(await adapter.listSessionsByUserId!(authjsUser.id)).toHaveLength(2)
    expect(
      await adapter.getUserByAccount!({ provider: "email", providerAccountId: "ada@example.com" }),
    ).toBeDefined()

    // 5. Latch's own tables are there for the moved user.
    await adapter.setPasswordHash!(authjsUser.id, "$scrypt$ln=17,r=8,p=1$c2FsdA==$a2V5")
    expect(await adapter.getPasswordHash!(authjsUser.id)).toBe(
      "$scrypt$ln=17,r=8,p=1$c2FsdA==$a2V5",
    )
    // A whole migration and two sign-ins: about 4 s alone, several times that on a loaded machine.
  }, 60_000)
})
