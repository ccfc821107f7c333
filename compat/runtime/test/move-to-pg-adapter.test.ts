/**
 * The migration guide's move from `@auth/pg-adapter` to `@latch/pg-adapter`, run as printed: a
 * database that Auth.js filled (an email sign-in through `@auth/core`, and an OAuth user as an
 * OAuth sign-in writes it, with a mixed-case address), Latch's tables made beside it with
 * `migrate(db, { schema: "latch" })`, the guide's SQL blocks run one after the other, and then
 * Latch on the `latch` schema: the Auth.js session cookie is still signed in, `hashSessionTokens`
 * leaves no usable token in the table, and both users sign in again as themselves.
 */
import { readFileSync } from "node:fs"
import AuthjsNodemailer from "@auth/core/providers/nodemailer"
import type { AuthConfig } from "@latch/core/types"
import Nodemailer from "@latch/core/providers/nodemailer"
import { hashSessionTokens, migrate, PostgresAdapter } from "@latch/pg-adapter"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { followLink } from "../../../packages/core/test/helpers/continue-page.js"
import { Browser, SECRET } from "../../../packages/core/test/helpers/request.js"
import { authjs as authjsWith } from "./authjs-client.js"
import { pgDatabase, type Database } from "./databases.js"

const GUIDE = new URL("../../../docs/migrating-from-auth-js.md", import.meta.url)

/** The SQL blocks of the guide's section on moving to `@latch/pg-adapter`, in order. */
function guideStatements(): string[] {
  const guide = readFileSync(GUIDE, "utf8")
  const start = guide.indexOf("### Moving to `@latch/pg-adapter`")
  const end = guide.indexOf("\n## ", start)
  expect(start, "the guide has the section").toBeGreaterThan(0)
  const section = guide.slice(start, end)
  return [...section.matchAll(/```sql\n([\s\S]*?)```/g)].flatMap(([, block]) =>
    block!
      .split(/;\s*(?:\n|$)/)
      .map((statement) => statement.trim())
      .filter(Boolean),
  )
}

const origin = "http://localhost:3000"
const quiet = { error: () => {}, warn: () => {}, debug: () => {} }

let database: Database
const authjsMails: string[] = []

function authjsConfig() {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    logger: quiet,
    adapter: database.adapter,
    providers: [
      AuthjsNodemailer({
        server: "smtp://127.0.0.1:1",
        from: "app@example.com",
        sendVerificationRequest: async ({ url }: { url: string }) => {
          authjsMails.push(url)
        },
      }),
    ],
  }
}

/** An email sign-in through Auth.js and @auth/pg-adapter: the session cookie's value. */
/** A request to the Auth.js app of this test. */
const authjs = (jar: Map<string, string>, url: string, form?: Record<string, string>) =>
  authjsWith(authjsConfig(), jar, url, form)

async function authjsEmailSignIn(email: string): Promise<string> {
  const jar = new Map<string, string>()
  const csrf = await authjs(jar, `${origin}/auth/csrf`)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  await authjs(jar, `${origin}/auth/signin/nodemailer`, { csrfToken, email })
  await authjs(jar, authjsMails.at(-1)!)
  return jar.get("authjs.session-token")!
}

const latchMails: string[] = []
let latchAdapter: ReturnType<typeof PostgresAdapter>

function latchConfig(): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: quiet,
    adapter: latchAdapter,
    session: { strategy: "database" },
    callbacks: {
      session: ({ session, user }) => ({ ...session, user: { ...session.user, id: user.id } }),
    },
    providers: [
      Nodemailer({
        server: "smtp://127.0.0.1:1",
        from: "app@example.com",
        sendVerificationRequest: async ({ url }) => {
          latchMails.push(url)
        },
      }),
    ],
  }
}

/** An email sign-in through Latch: the browser, signed in. */
async function latchEmailSignIn(email: string): Promise<Browser> {
  const browser = new Browser(latchConfig(), origin)
  const csrfToken = await browser.csrfToken()
  const sent = latchMails.length
  const started = await browser.fetch("/auth/signin/nodemailer", { form: { csrfToken, email } })
  expect(started.status).toBe(302)
  expect(latchMails.length).toBe(sent + 1)
  const answer = await followLink(browser, latchMails.at(-1)!)
  expect(answer.status).toBe(302)
  return browser
}

describe("moving from @auth/pg-adapter to @latch/pg-adapter, as the migration guide says", () => {
  let adaCookie: string
  let adaId: string
  let graceId: string

  beforeAll(async () => {
    database = await pgDatabase()
    // What Auth.js wrote: Ada by email (a database session), Grace by GitHub (an OAuth sign-in
    // creates the user with the provider's address as it came, and links the account).
    adaCookie = await authjsEmailSignIn("ada@example.com")
    const grace = await database.adapter.createUser!({
      id: "",
      name: "Grace",
      email: "Grace@Example.com",
      emailVerified: null,
    })
    graceId = String(grace.id)
    await database.adapter.linkAccount!({
      userId: grace.id,
      type: "oauth",
      provider: "github",
      providerAccountId: "4242",
      access_token: "gho_grace",
      // As some providers send it; Latch's type is lower case, and the guide lowercases it.
      token_type: "Bearer" as Lowercase<string>,
      scope: "read:user",
    })
    const { rows } = await database.db.query<{ id: number }>(
      `select id from users where email = 'ada@example.com'`,
    )
    adaId = String(rows[0]!.id)

    // The guide: Latch's tables in a schema of their own, then its statements.
    await migrate(database.db, { schema: "latch" })
    for (const statement of guideStatements()) await database.db.exec(statement)
    latchAdapter = PostgresAdapter(database.db, { schema: "latch" })
  })
  afterAll(async () => {
    await database?.close()
  })

  it("the guide's statements copy users, accounts and sessions", async () => {
    // Three blocks: users, accounts, sessions.
    expect(guideStatements()).toHaveLength(3)
    const { rows } = await database.db.query<{ id: string; email: string }>(
      "select id, email from latch.users order by email",
    )
    expect(rows).toEqual([
      { id: adaId, email: "ada@example.com" },
      { id: graceId, email: "grace@example.com" },
    ])
    expect(
      await latchAdapter.getUserByAccount!({ provider: "github", providerAccountId: "4242" }),
    ).toMatchObject({ id: graceId, email: "grace@example.com" })
    const accounts = await database.db.query<{ token_type: string; access_token: string }>(
      "select token_type, access_token from latch.accounts",
    )
    expect(accounts.rows).toEqual([{ token_type: "bearer", access_token: "gho_grace" }])
  })

  it("the session Auth.js made is signed in on Latch, and hashSessionTokens leaves no token", async () => {
    const browser = new Browser(latchConfig(), origin)
    browser.cookies.set("authjs.session-token", adaCookie)
    expect(await browser.session()).toMatchObject({ user: { email: "ada@example.com" } })

    // The read moved Ada's row under its hash; the guide's hashSessionTokens does the rest.
    await hashSessionTokens(database.db, { schema: "latch" })
    const { rows } = await database.db.query<{ session_token: string }>(
      "select session_token from latch.sessions",
    )
    expect(rows.length).toBeGreaterThan(0)
    for (const { session_token } of rows) expect(session_token).toMatch(/^[0-9a-f]{64}$/)
    expect(rows.map((row) => row.session_token)).not.toContain(adaCookie)
    expect(await browser.session()).toMatchObject({ user: { email: "ada@example.com" } })
  })

  it("both users sign in again as themselves, the mixed-case address included", async () => {
    const ada = await latchEmailSignIn("ada@example.com")
    expect(await ada.session()).toMatchObject({ user: { id: adaId, email: "ada@example.com" } })
    const grace = await latchEmailSignIn("Grace@Example.com")
    expect(await grace.session()).toMatchObject({
      user: { id: graceId, email: "grace@example.com" },
    })
    const { rows } = await database.db.query<{ n: number }>(
      "select count(*)::int as n from latch.users",
    )
    expect(rows[0]!.n).toBe(2)
  })
})
