/**
 * The upgrade promise (docs/stability.md): an app that moves from the last release to this
 * checkout's packages keeps its users signed in and its data working, with `migrate()` as the
 * whole upgrade.
 *
 * The last release (releases.json or a `<package>@<version>` tag; lib/release.mjs) is built from
 * git and run in this process beside this checkout's packages. Its `Auth` makes the data through
 * real flows — a local GitHub (OAuth 2.0 with PKCE), email links, passkeys of a software
 * authenticator (real P-256 keys and signatures), credentials — on PGlite and on a throwaway
 * PostgreSQL server: every kind of row its adapter stores (users, accounts, database sessions,
 * verification tokens, authenticators, counters) and the cookies its users' browsers keep (database
 * session cookies, JWT session cookies with and without a database, a JWT cookie in chunks).
 * Then this checkout's `migrate` runs twice: the second run changes neither the schema (read from
 * the catalogs, and `pg_dump --schema-only` on the server) nor a row, and nothing of the release's
 * schema or rows is gone or changed (forward only). Then, with this checkout's `Auth`: every
 * cookie reads as the same session (the same user and expiry — a JWT session's never earlier —
 * and the same database row, moved under the token's hash at its first read or by
 * `hashSessionTokens`), every passkey signs in (its counter moving on), every unopened link signs
 * in (through the "Continue signing in" page later versions show), and every GitHub account
 * signs in to the user it was stored under. Sessions are listed and ended by id after the upgrade,
 * by the id shown before the device's first request since.
 *
 * The release's cookies are named `latch.*` (0.1.0's names); this checkout reads them and writes
 * Auth.js's names.
 *
 * What 0.1.0 could not make: password accounts, second factors and recovery codes came later
 * (its adapter has no `passwords`, `two_factors` or `recovery_codes` table), so there are none to
 * carry over. The last test checks the other side of it: a user of 0.1.0 takes them up after the
 * upgrade — a password through the reset link, a second factor, a recovery code — and signs in
 * with each, as the same user.
 */
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { getUserSessions, revokeUserSession } from "@latch/core"
import type { AuthConfig } from "@latch/core/types"
import { hashSessionTokens } from "@latch/pg-adapter"
import { startPostgres } from "latch-test-servers"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import {
  startOAuthServer,
  type OAuthServer,
} from "../../../packages/core/test/helpers/oauth-server.js"
import { apps, registerGitHub, type Apps, type GitHubLogin, type Outbox } from "./apps.js"
import { Browser } from "./browser.js"
import { follow, gitHubSignIn, HOME, passkeySignIn } from "./flows.js"
import { currentLatch, releaseLatch, type Latch } from "./latch.js"
import { makeData, type Made } from "./make-data.js"
import { counts, dataDump, schemaDump } from "./schema.js"
import {
  choosePassword,
  signInWithSecondFactor,
  turnOnTwoFactor,
  withNewFeatures,
  type Mails,
} from "./take-up.js"
import { totp } from "./totp.js"

interface Client {
  query(text: string, params?: unknown[]): Promise<{ rows: any[] }>
}

interface Database {
  client: Client
  /** `pg_dump --schema-only`, where there is a server to run it against. */
  pgDump?: () => string
  close(): Promise<void>
}

const databases: { name: string; open: () => Promise<Database> }[] = [
  {
    name: "PGlite",
    open: async () => {
      const db = new PGlite()
      return { client: db, close: () => db.close() }
    },
  },
  {
    name: "PostgreSQL",
    open: async () => {
      const server = await startPostgres()
      const pool = new pg.Pool({ connectionString: server.connectionString, max: 4 })
      return {
        client: pool,
        pgDump: () => {
          const dump = spawnSync(
            join(server.binDir, "pg_dump"),
            ["--schema-only", "--no-owner", "--dbname", server.connectionString],
            { encoding: "utf8" },
          )
          if (dump.status !== 0) throw new Error(`pg_dump failed: ${dump.stderr}`)
          // pg_dump fences its script with a random key of each run (`\restrict <key>`).
          return dump.stdout.replace(/^\\(un)?restrict .*$/gm, "")
        },
        close: async () => {
          await pool.end()
          await server.destroy()
        },
      }
    },
  },
]

/** The tables of the release's adapter (its migrate.ts). */
const RELEASE_TABLES = [
  "accounts",
  "authenticators",
  "counters",
  "sessions",
  "users",
  "verification_tokens",
]

/** The session cookie's names: Auth.js's, and `latch.*`, which 0.1.0 set. */
const SESSION_COOKIES = ["authjs.session-token", "latch.session-token"]
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

const release = inject("release")

describe.each(databases)(`upgrading from ${release.label} on $name`, ({ open: openDatabase }) => {
  let db: Database
  let oauth: OAuthServer
  let github: { next: GitHubLogin }
  const outbox: Outbox = []
  let current: Latch
  let now: Apps
  let made: Made
  let releaseSchema: string[]

  beforeAll(async () => {
    const old = await releaseLatch(release.root, release.label)
    current = await currentLatch()
    db = await openDatabase()
    oauth = await startOAuthServer()
    github = registerGitHub(oauth)
    await old.migrate(db.client)
    made = await makeData(apps(old, { client: db.client, oauth, outbox }), {
      oauth,
      github,
      outbox,
    })
    releaseSchema = await schemaDump(db.client)
    now = apps(current, { client: db.client, oauth, outbox })
  })

  afterAll(async () => {
    await oauth?.stop()
    await db?.close()
  })

  /** The session row stored under `token` (as it is, or as its hash). */
  async function sessionRow(token: string) {
    const { rows } = await db.client.query(
      "select * from sessions where session_token in ($1, $2)",
      [token, sha256(token)],
    )
    expect(rows, "one row for the cookie's token").toHaveLength(1)
    return rows[0] as {
      session_token: string
      user_id: string
      expires: Date
      id?: string
      created_at?: Date
    }
  }

  const databaseSessions = () => made.signedIn.filter((entry) => entry.app === "database")
  const tokenOf = (browser: Browser) => {
    const tokens = SESSION_COOKIES.map((name) => browser.cookies.get(name)).filter(Boolean)
    expect(tokens, "one session cookie").toHaveLength(1)
    return tokens[0]!
  }

  it("the release made every kind of row its adapter stores", async () => {
    const tables = releaseSchema.filter((line) => line.startsWith("table ")).map((l) => l.slice(6))
    expect(tables).toEqual(RELEASE_TABLES)
    const rows = await counts(db.client, RELEASE_TABLES)
    for (const table of RELEASE_TABLES) expect(rows[table], table).toBeGreaterThan(0)
    // The release stored session tokens as they are in the cookie.
    for (const { browser } of databaseSessions()) {
      expect((await sessionRow(tokenOf(browser))).session_token).toBe(tokenOf(browser))
    }
  })

  it("migrate upgrades the database forward only, and a second run changes nothing", async () => {
    const rowsBefore = await dataDump(db.client)
    await current.migrate(db.client)
    const first = {
      schema: await schemaDump(db.client),
      data: await dataDump(db.client),
      pgDump: db.pgDump?.(),
    }
    await current.migrate(db.client)
    const second = {
      schema: await schemaDump(db.client),
      data: await dataDump(db.client),
      pgDump: db.pgDump?.(),
    }

    expect(second.schema, "the second migrate changes the schema").toEqual(first.schema)
    expect(second.data, "the second migrate changes rows").toEqual(first.data)
    expect(second.pgDump, "pg_dump --schema-only after each run").toBe(first.pgDump)
    if (db.pgDump) expect(first.pgDump).toMatch(/CREATE TABLE public\.sessions/)
    expect(
      releaseSchema.filter((line) => !first.schema.includes(line)),
      "what of the release's schema is gone or changed",
    ).toEqual([])
    expect(first.schema.length).toBeGreaterThan(releaseSchema.length)

    // Every row keeps every value it had; only new columns are added to it.
    const parse = (lines: string[]) =>
      lines.map((line) => {
        const space = line.indexOf(" ")
        return { table: line.slice(0, space), row: JSON.parse(line.slice(space + 1)) }
      })
    const after = parse(first.data)
    for (const { table, row } of parse(rowsBefore)) {
      const kept = after.filter(
        (candidate) =>
          candidate.table === table &&
          Object.entries(row).every(([key, value]) => candidate.row[key] === value),
      )
      expect(kept, `${table} row ${JSON.stringify(row)} after migrate`).toHaveLength(1)
    }
    expect(after).toHaveLength(rowsBefore.length)
  })

  it("each migrated session gets an id of its own", async () => {
    const ids = []
    for (const { browser } of databaseSessions()) ids.push((await sessionRow(tokenOf(browser))).id)
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
  })

  describe("ivan, on his laptop, lists his sessions, then ends his phone's", () => {
    let config: AuthConfig
    let laptop: Browser
    let phone: Browser
    let phoneId: string

    it("the list shows both, and the phone, used once since the upgrade, is still signed in", async () => {
      config = now.database.config as unknown as AuthConfig
      laptop = made.devices.laptop.copyTo(now.database)
      phone = made.devices.phone.copyTo(now.database)
      const listed = await getUserSessions(laptop.request("/account"), config)
      expect(listed, "ivan's sessions").toHaveLength(2)
      expect(listed!.filter((session) => session.current)).toHaveLength(1)
      phoneId = listed!.find((session) => !session.current)!.id
      expect(phoneId).not.toBe("")
      expect((await phone.session())?.user?.email).toBe("ivan@example.com")
    })

    // The row of the phone was still under its raw token when the laptop listed it: the listing
    // moved it under the token's hash, so the id shown is the one it keeps.
    it("the phone's session is ended by the id the laptop was shown", async () => {
      expect(await revokeUserSession(laptop.request("/account"), config, phoneId)).toBe(true)
      expect(await phone.session(), "the phone is signed out").toBeNull()
    })
  })

  it("a database session cookie of the release reads as the same session, its row moved under the token's hash", async () => {
    // Alice's two sessions are read before `hashSessionTokens` runs: the first read moves them.
    for (const entry of databaseSessions().filter((e) => e.label.startsWith("alice"))) {
      const token = tokenOf(entry.browser)
      const row = await sessionRow(token)
      const session = await entry.browser.copyTo(now.database).session()
      expect(session?.user, entry.label).toMatchObject(entry.before.user)
      expect(session?.expires, entry.label).toBe(entry.before.expires)
      const moved = await sessionRow(token)
      expect(moved.session_token, "stored under the token's hash").toBe(sha256(token))
      expect(moved.user_id).toBe(row.user_id)
      expect(moved.expires).toEqual(row.expires)
      expect(moved.created_at).toEqual(row.created_at)
    }
  })

  it("hashSessionTokens moves the rest, and a second run moves nothing", async () => {
    const raw = databaseSessions().filter((e) => !e.label.startsWith("alice"))
    expect(raw.length).toBeGreaterThan(0)
    const { rows } = await db.client.query(
      "select count(*)::integer as n from sessions where session_token !~ '^[0-9a-f]{64}$'",
    )
    expect(rows[0].n).toBeGreaterThanOrEqual(raw.length)
    const ids = await Promise.all(
      raw.map(async ({ browser }) => (await sessionRow(tokenOf(browser))).id),
    )
    expect(await hashSessionTokens(db.client)).toBe(rows[0].n)
    expect(await hashSessionTokens(db.client)).toBe(0)
    for (const [index, { browser }] of raw.entries()) {
      const row = await sessionRow(tokenOf(browser))
      expect(row.session_token).toBe(sha256(tokenOf(browser)))
      expect(row.id, "the row keeps its id").toBe(ids[index])
    }
  })

  it("every user of the release stays signed in: each cookie reads as the same session", async () => {
    const sessionsBefore = await counts(db.client, ["sessions"])
    for (const entry of made.signedIn) {
      const browser = entry.browser.copyTo(now[entry.app])
      const session = await browser.session()
      expect(session?.user, entry.label).toMatchObject(entry.before.user)
      // A database session keeps its stored expiry; a JWT session's is counted from this read
      // (a sliding window): never earlier than the release said.
      if (entry.app === "database") expect(session?.expires, entry.label).toBe(entry.before.expires)
      else
        expect(Date.parse(session?.expires), entry.label).toBeGreaterThanOrEqual(
          Date.parse(entry.before.expires),
        )
      // The cookie now has Auth.js's name (and reads again under it).
      const names = [...browser.cookies.keys()].filter((name) => name.includes("session-token"))
      expect(names.length, entry.label).toBeGreaterThan(0)
      expect(
        names.every((name) => name.startsWith("authjs.")),
        names.join(),
      ).toBe(true)
      expect((await browser.session())?.user, entry.label).toMatchObject(entry.before.user)
    }
    expect(await counts(db.client, ["sessions"]), "no session was made or lost").toEqual(
      sessionsBefore,
    )
  })

  it("every passkey of the release still signs in, as its user, its counter moving on", async () => {
    for (const passkey of made.passkeys) {
      const { browser, location } = await passkeySignIn(
        now.database,
        passkey.authenticator,
        passkey.credential,
      )
      expect(location?.href, passkey.label).toBe(HOME)
      expect((await browser.session())?.user?.email, passkey.label).toBe(passkey.email)
      const { rows } = await db.client.query(
        "select counter from authenticators where credential_id = $1",
        [passkey.credential.id],
      )
      expect(Number(rows[0].counter), passkey.label).toBe(passkey.credential.counter ?? 0)
    }
  })

  it("the links the release mailed, never opened, still sign in", async () => {
    for (const { email, link } of made.pendingLinks) {
      const browser = new Browser(now.database)
      expect((await follow(browser, link)).headers.get("location"), email).toBe(HOME)
      expect((await browser.session())?.user?.email, email).toBe(email)
    }
  })

  it("every GitHub account of the release signs in to the user it was stored under", async () => {
    const before = await counts(db.client, ["users", "accounts"])
    for (const { login, app, email } of made.oauth) {
      const browser = new Browser(now[app])
      const answer = await gitHubSignIn(browser, oauth, github, login)
      expect(answer.headers.get("location"), login).toBe(HOME)
      const session = await browser.session()
      expect(session?.user?.email, login).toBe(email)
      if (app === "database") {
        const { rows } = await db.client.query("select id from users where email = $1", [email])
        expect((await sessionRow(tokenOf(browser))).user_id, login).toBe(rows[0].id)
      }
    }
    expect(await counts(db.client, ["users", "accounts"]), "no user or account made").toEqual(
      before,
    )
  })

  it("a user of the release takes up what it lacked: a password, a second factor, a recovery code", async () => {
    const mails: Mails = []
    const app = withNewFeatures(now.database, mails)
    const email = "erin@example.com"
    const { rows } = await db.client.query("select id from users where email = $1", [email])
    const userId = rows[0].id as string

    const signedIn = await choosePassword(app, mails, email)
    expect((await signedIn.session())?.user?.email).toBe(email)
    const { key, recoveryCodes } = await turnOnTwoFactor(signedIn)

    const withCode = await signInWithSecondFactor(app, email, { code: totp(key) })
    expect((await sessionRow(tokenOf(withCode))).user_id, "the same user").toBe(userId)
    const withRecovery = await signInWithSecondFactor(app, email, {
      recoveryCode: recoveryCodes[0]!,
    })
    expect((await sessionRow(tokenOf(withRecovery))).user_id, "the same user").toBe(userId)

    const stored = await counts(db.client, ["passwords", "two_factors", "recovery_codes"])
    expect(stored).toEqual({
      passwords: 1,
      two_factors: 1,
      recovery_codes: recoveryCodes.length - 1,
    })
    // Her passkey of the release still signs her in with the second factor on: a passkey that
    // verifies its user is two factors by itself.
    const passkey = made.passkeys.find((p) => p.email === email)!
    const { location } = await passkeySignIn(app, passkey.authenticator, passkey.credential)
    expect(location?.href).toBe(HOME)
  })
})
