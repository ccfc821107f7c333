/**
 * Database sessions through `Auth`, end to end, with the PostgreSQL adapter as the store: on an
 * in-memory PGlite and on a `pg.Pool` against a real PostgreSQL server, each migrated fresh.
 *
 * The `Browser` and the OpenID Provider are core's test helpers, which run core's sources; `Auth`,
 * `listSessions` and `revokeSessions` come from the same sources here, so that one copy of core
 * drives the flows (the adapter only imports core's types).
 */
import { createHash } from "node:crypto"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { listSessions, revokeSessions } from "../../core/src/index.js"
import type { AuthConfig } from "../../core/src/types.js"
import {
  ACCOUNTS,
  CLIENTS,
  login,
  startOP,
  type OP,
} from "../../core/test/helpers/oidc-provider.js"
import { ALICE, Browser, ORIGIN, testConfig } from "../../core/test/helpers/request.js"
import { PostgresAdapter } from "../src/index.js"
import { clients, useEmptyDatabase } from "./clients.js"

const SESSION = "authjs.session-token"
const DAY = 24 * 60 * 60

/** What the database holds for a cookie's token: its SHA-256, in lowercase hex. */
const stored = (token: string | undefined) => createHash("sha256").update(token!).digest("hex")

interface SessionRow {
  session_token: string
  user_id: string
  expires: Date
}

let op: OP
beforeAll(async () => {
  op = await startOP()
})
afterAll(async () => {
  await op?.stop()
})

afterEach(() => {
  vi.useRealTimers()
})

describe.each(clients)("database sessions through Auth on $name", ({ open }) => {
  const db = useEmptyDatabase(open)
  let adapter: ReturnType<typeof PostgresAdapter>
  beforeAll(() => {
    adapter = PostgresAdapter(db().client)
  })

  async function sessionRows(): Promise<SessionRow[]> {
    const { rows } = await db().client.query(
      "select session_token, user_id, expires from sessions order by expires, session_token",
    )
    return rows as SessionRow[]
  }

  async function onlySessionRow(): Promise<SessionRow> {
    const rows = await sessionRows()
    expect(rows).toHaveLength(1)
    return rows[0]!
  }

  /** A config with the credentials provider (alice / wonderland → ALICE) on this database,
   * with ALICE stored. */
  async function setup(extra: Partial<AuthConfig> = {}) {
    await adapter.createUser({ ...ALICE, emailVerified: null })
    const signOut = vi.fn()
    const config = testConfig({ adapter, events: { signOut }, ...extra })
    return { config, browser: new Browser(config), signOut }
  }

  it("signs in with credentials into a database session stored under the cookie's hash", async () => {
    const { config, browser } = await setup()
    expect(config.session).toBeUndefined() // the database strategy is the default with an adapter
    const response = await browser.signIn()
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`)

    const row = await onlySessionRow()
    expect(row.user_id).toBe(ALICE.id)
    expect(browser.cookies.get(SESSION)).toMatch(/^[0-9a-f-]{36}$/)
    expect(row.session_token).toBe(stored(browser.cookies.get(SESSION)))
    // 30 days from now, as stored.
    expect(row.expires.getTime() - Date.now()).toBeGreaterThan(30 * DAY * 1000 - 60_000)
    expect(row.expires.getTime() - Date.now()).toBeLessThanOrEqual(30 * DAY * 1000)

    const found = await adapter.getSessionAndUser(row.session_token)
    expect(found).toMatchObject({
      session: { sessionToken: row.session_token, userId: ALICE.id, expires: row.expires },
      user: { ...ALICE, emailVerified: null },
    })
    expect(found!.session.id).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("shows the stored user at GET /auth/session, never the token", async () => {
    const { browser } = await setup()
    await browser.signIn()
    const row = await onlySessionRow()
    const session = await browser.session()
    expect(session).toEqual({
      user: { name: ALICE.name, email: ALICE.email, image: ALICE.image },
      expires: row.expires.toISOString(),
    })
    expect(JSON.stringify(session)).not.toContain(row.session_token)

    // What the session shows is what the database holds, read on every request.
    await adapter.updateUser({ id: ALICE.id, name: "Alice (renamed in the database)" })
    expect((await browser.session())?.user).toMatchObject({
      name: "Alice (renamed in the database)",
    })
  })

  it("refuses a credentials user the database does not have, with no session", async () => {
    const config = testConfig({ adapter })
    const browser = new Browser(config)
    const response = await browser.signIn()
    const url = new URL(response.headers.get("location")!)
    expect(url.pathname).toBe("/auth/error")
    expect(url.searchParams.get("error")).toBe("Configuration")
    expect(await sessionRows()).toEqual([])
    expect(browser.cookies.has(SESSION)).toBe(false)
  })

  it("signs out: deletes the row and the cookie", async () => {
    const { browser, signOut } = await setup()
    await browser.signIn()
    const row = await onlySessionRow()

    const response = await browser.fetch("/auth/signout", {
      form: { csrfToken: await browser.csrfToken() },
    })
    expect(response.status).toBe(302)
    expect(await adapter.getSessionAndUser(row.session_token)).toBeNull()
    expect(await sessionRows()).toEqual([])
    expect(browser.cookies.has(SESSION)).toBe(false)
    expect(signOut).toHaveBeenCalledWith({
      session: expect.objectContaining({
        sessionToken: row.session_token,
        userId: ALICE.id,
        expires: row.expires,
      }),
    })
    expect(await browser.session()).toBeNull()
    // The user stays.
    expect(await adapter.getUser(ALICE.id)).toMatchObject({ email: ALICE.email })
  })

  it("reads a session past maxAge as none and deletes its row", async () => {
    vi.useFakeTimers({ now: new Date("2026-01-01T00:00:00Z"), toFake: ["Date"] })
    const { browser } = await setup({ session: { maxAge: DAY } })
    await browser.signIn()
    const row = await onlySessionRow()
    expect(row.expires.toISOString()).toBe("2026-01-02T00:00:00.000Z")

    // Still valid a second before.
    vi.setSystemTime(new Date("2026-01-01T23:59:59Z"))
    expect(await browser.session()).toMatchObject({ user: { email: ALICE.email } })

    vi.setSystemTime(new Date("2026-01-02T00:00:01Z"))
    expect(await browser.session()).toBeNull()
    expect(browser.cookies.has(SESSION)).toBe(false)
    expect(await adapter.getSessionAndUser(row.session_token)).toBeNull()
    expect(await sessionRows()).toEqual([])
  })

  it("slides the row's expiry once updateAge has passed, not before", async () => {
    vi.useFakeTimers({ now: new Date("2026-01-01T00:00:00Z"), toFake: ["Date"] })
    const { browser } = await setup()
    await browser.signIn()
    const first = await onlySessionRow()
    expect(first.expires.toISOString()).toBe("2026-01-31T00:00:00.000Z")

    vi.setSystemTime(new Date("2026-01-01T12:00:00Z"))
    const early = await browser.fetch("/auth/session")
    expect(early.headers.getSetCookie()).toEqual([])
    expect((await onlySessionRow()).expires.getTime()).toBe(first.expires.getTime())

    vi.setSystemTime(new Date("2026-01-02T00:00:01Z"))
    const due = await browser.fetch("/auth/session")
    const moved = await onlySessionRow()
    expect(moved.session_token).toBe(first.session_token)
    expect(moved.expires.toISOString()).toBe("2026-02-01T00:00:01.000Z")
    expect(moved.expires.getTime() - first.expires.getTime()).toBe((DAY + 1) * 1000)
    expect(first.session_token).toBe(stored(browser.cookies.get(SESSION)))
    expect(due.headers.getSetCookie().join()).toContain(
      `${SESSION}=${browser.cookies.get(SESSION)}`,
    )
    expect((await due.json()).expires).toBe(moved.expires.toISOString())

    // The session lives on past the first expiry, thanks to the moved row.
    vi.setSystemTime(new Date("2026-01-31T00:00:01Z"))
    expect(await browser.session()).toMatchObject({ user: { email: ALICE.email } })
  })

  it("ends the sessions of a deleted user (on delete cascade) and clears the cookie", async () => {
    const { browser } = await setup()
    await browser.signIn()
    expect(await sessionRows()).toHaveLength(1)
    await adapter.deleteUser(ALICE.id)
    expect(await sessionRows()).toEqual([])
    expect(await browser.session()).toBeNull()
    expect(browser.cookies.has(SESSION)).toBe(false)
  })

  it("stores the token of generateSessionToken and sets the cookie to the row's expiry", async () => {
    const { browser } = await setup({ session: { generateSessionToken: () => "custom-token-1" } })
    const response = await browser.signIn()
    const row = await onlySessionRow()
    expect(row.session_token).toBe(stored("custom-token-1"))
    const line = response.headers.getSetCookie().find((l) => l.startsWith(`${SESSION}=`))!
    expect(line).toContain(`${SESSION}=custom-token-1;`)
    expect(line).toContain(`Expires=${row.expires.toUTCString()}`)
  })

  it("updates the session through the session callback with trigger update", async () => {
    const session = vi.fn<NonNullable<NonNullable<AuthConfig["callbacks"]>["session"]>>(
      async (params) => {
        if (params.trigger === "update" && params.user) {
          // What an app does to keep the change: store it, then show the stored user.
          const user = await adapter.updateUser({
            id: params.user.id,
            name: params.newSession.name,
          })
          return { ...params.session, user: { ...params.session.user, name: user.name ?? null } }
        }
        return params.session
      },
    )
    const { browser } = await setup({ callbacks: { session } })
    await browser.signIn()
    const row = await onlySessionRow()

    const response = await browser.fetch("/auth/session", {
      json: { csrfToken: await browser.csrfToken(), data: { name: "Alice L." } },
    })
    expect(response.status).toBe(200)
    const body = await response.json()
    // What the callback returned, as Auth.js answers it: the stored session (the whole user in
    // it) — all but the session's token, which page scripts never get.
    expect(body).toMatchObject({
      user: { id: ALICE.id, name: "Alice L.", email: ALICE.email, image: ALICE.image },
      userId: ALICE.id,
      expires: row.expires.toISOString(),
    })
    expect(body).not.toHaveProperty("sessionToken")
    expect(session).toHaveBeenLastCalledWith(
      expect.objectContaining({
        trigger: "update",
        newSession: { name: "Alice L." },
        user: expect.objectContaining({ id: ALICE.id, email: ALICE.email }),
        session: expect.objectContaining({ sessionToken: row.session_token, userId: ALICE.id }),
      }),
    )
    // Stored, and read back from the database on the next request.
    expect((await adapter.getUser(ALICE.id))?.name).toBe("Alice L.")
    expect((await browser.session())?.user.name).toBe("Alice L.")
  })

  it("refuses a session update without the CSRF token, leaving the database alone", async () => {
    const session = vi.fn(async (params: any) => {
      if (params.trigger === "update") await adapter.updateUser({ id: ALICE.id, name: "Mallory" })
      return params.session
    })
    const { browser } = await setup({ callbacks: { session } })
    await browser.signIn()
    await browser.fetch("/auth/session", { json: { data: { name: "Mallory" } } })
    expect(session).not.toHaveBeenCalledWith(expect.objectContaining({ trigger: "update" }))
    expect((await adapter.getUser(ALICE.id))?.name).toBe(ALICE.name)
  })

  it("lists and revokes a user's sessions across browsers, and only theirs", async () => {
    const { config } = await setup()
    const bob = { id: "bob", email: "bob@example.com", emailVerified: null }
    await adapter.createUser(bob)
    const bobsSession = await adapter.createSession({
      sessionToken: "bobs-session",
      userId: bob.id,
      expires: new Date(Date.now() + DAY * 1000),
    })

    const phone = new Browser(config)
    const laptop = new Browser(config)
    await phone.signIn()
    await laptop.signIn()
    const tokens = [phone.cookies.get(SESSION), laptop.cookies.get(SESSION)]
    expect(tokens[0]).not.toBe(tokens[1])

    const listed = await listSessions(config, ALICE.id)
    expect(listed).toHaveLength(2)
    expect(listed.map((s) => s.sessionToken).sort()).toEqual(tokens.map(stored).sort())
    for (const s of listed) {
      expect(s.userId).toBe(ALICE.id)
      expect(s.expires).toBeInstanceOf(Date)
    }

    expect(await revokeSessions(config, ALICE.id)).toBe(2)
    expect(await listSessions(config, ALICE.id)).toEqual([])
    expect(await phone.session()).toBeNull()
    expect(await laptop.session()).toBeNull()
    expect(phone.cookies.has(SESSION)).toBe(false)
    expect(laptop.cookies.has(SESSION)).toBe(false)
    // Bob's session is untouched.
    expect(await sessionRows()).toEqual([
      { session_token: "bobs-session", user_id: bob.id, expires: bobsSession.expires },
    ])
    expect(await revokeSessions(config, ALICE.id)).toBe(0)
  })

  describe("OAuth sign-in against an OpenID Provider", () => {
    const alice = ACCOUNTS.alice.claims

    function oauthSetup() {
      const events = { createUser: vi.fn(), linkAccount: vi.fn(), signIn: vi.fn() }
      const base = testConfig()
      const config = testConfig({
        adapter,
        providers: [
          ...base.providers,
          { id: "op", name: "Test OP", type: "oidc", issuer: op.issuer, ...CLIENTS.basic },
        ],
        events,
      })
      return { config, events }
    }

    async function signInWithOP(browser: Browser): Promise<Response> {
      const csrfToken = await browser.csrfToken()
      const start = await browser.fetch("/auth/signin/op", {
        form: { csrfToken, callbackUrl: "/home" },
      })
      expect(start.status).toBe(302)
      return browser.fetch(await login(browser, start.headers.get("location")!))
    }

    it("creates the user, links the account and starts a database session; finds them again", async () => {
      const { config, events } = oauthSetup()
      const browser = new Browser(config)

      const first = await signInWithOP(browser)
      expect(first.headers.get("location")).toBe(`${ORIGIN}/home`)

      const { rows: users } = await db().client.query("select * from users")
      expect(users).toEqual([
        {
          id: expect.any(String),
          name: alice.name,
          email: alice.email,
          email_verified: null,
          image: alice.picture,
        },
      ])
      const userId = (users[0] as { id: string }).id

      const { rows: accounts } = await db().client.query("select * from accounts")
      expect(accounts).toHaveLength(1)
      expect(accounts[0]).toMatchObject({
        user_id: userId,
        type: "oidc",
        provider: "op",
        provider_account_id: "alice",
        access_token: expect.any(String),
        id_token: expect.any(String),
        token_type: expect.stringMatching(/^bearer$/i),
      })
      expect(
        await adapter.getUserByAccount({ provider: "op", providerAccountId: "alice" }),
      ).toEqual(expect.objectContaining({ id: userId, email: alice.email }))

      const row = await onlySessionRow()
      expect(row.user_id).toBe(userId)
      expect(row.session_token).toBe(stored(browser.cookies.get(SESSION)))
      expect(await browser.session()).toEqual({
        user: { name: alice.name, email: alice.email, image: alice.picture },
        expires: row.expires.toISOString(),
      })
      expect(events.createUser).toHaveBeenCalledTimes(1)
      expect(events.linkAccount).toHaveBeenCalledTimes(1)
      expect(events.signIn).toHaveBeenLastCalledWith(expect.objectContaining({ isNewUser: true }))

      // A second sign-in, from another browser: the same user, the same account, a second session.
      const other = new Browser(config)
      const second = await signInWithOP(other)
      expect(second.headers.get("location")).toBe(`${ORIGIN}/home`)
      expect((await db().client.query("select id from users")).rows).toEqual([{ id: userId }])
      expect((await db().client.query("select count(*)::int as n from accounts")).rows).toEqual([
        { n: 1 },
      ])
      const sessions = await sessionRows()
      expect(sessions).toHaveLength(2)
      expect(sessions.map((s) => s.user_id)).toEqual([userId, userId])
      expect(sessions.map((s) => s.session_token).sort()).toEqual(
        [browser.cookies.get(SESSION), other.cookies.get(SESSION)].map(stored).sort(),
      )
      expect(events.createUser).toHaveBeenCalledTimes(1)
      expect(events.linkAccount).toHaveBeenCalledTimes(1)
      expect(events.signIn).toHaveBeenLastCalledWith(expect.objectContaining({ isNewUser: false }))
      expect(await other.session()).toMatchObject({ user: { email: alice.email } })
      expect(await listSessions(config, userId)).toHaveLength(2)

      // Signing out of one leaves the other.
      await browser.fetch("/auth/signout", { form: { csrfToken: await browser.csrfToken() } })
      expect(await adapter.getSessionAndUser(row.session_token)).toBeNull()
      expect(await browser.session()).toBeNull()
      expect(await other.session()).toMatchObject({ user: { email: alice.email } })
    })

    it("signs up two users whose provider gives no email address (stored as null)", async () => {
      const base = testConfig()
      const config = testConfig({
        adapter,
        providers: [
          ...base.providers,
          {
            id: "op",
            name: "Test OP",
            type: "oidc",
            issuer: op.issuer,
            ...CLIENTS.basic,
            // As X/Twitter, or a GitHub user with a private address: no email.
            profile: (profile) => ({ id: String(profile.sub), name: String(profile.name) }),
          },
        ],
      })
      for (const name of ["alice", "bob"] as const) {
        const browser = new Browser(config)
        const csrfToken = await browser.csrfToken()
        const start = await browser.fetch("/auth/signin/op", {
          form: { csrfToken, callbackUrl: "/home" },
        })
        const done = await browser.fetch(
          await login(browser, start.headers.get("location")!, { account: name }),
        )
        expect(done.headers.get("location")).toBe(`${ORIGIN}/home`)
        expect(await browser.session()).toMatchObject({ user: { email: null } })
      }
      const { rows } = await db().client.query("select name, email from users order by name")
      expect(rows).toEqual([
        { name: ACCOUNTS.alice.claims.name, email: null },
        { name: ACCOUNTS.bob.claims.name, email: null },
      ])
    })

    it("signs in again after signing out, in the same browser, as the same user", async () => {
      const { config } = oauthSetup()
      const browser = new Browser(config)
      await signInWithOP(browser)
      const { session: before } = (await adapter.getSessionAndUser(
        stored(browser.cookies.get(SESSION)),
      ))!
      await browser.fetch("/auth/signout", { form: { csrfToken: await browser.csrfToken() } })
      expect(await sessionRows()).toEqual([])

      await signInWithOP(browser)
      const row = await onlySessionRow()
      expect(row.user_id).toBe(before.userId)
      expect(row.session_token).not.toBe(before.sessionToken)
      expect((await db().client.query("select count(*)::int as n from users")).rows).toEqual([
        { n: 1 },
      ])
    })

    it("links the provider to the user signed in with credentials", async () => {
      const { config } = oauthSetup()
      await adapter.createUser({ ...ALICE, email: "someone-else@example.com", emailVerified: null })
      const browser = new Browser(config)
      await browser.signIn()
      const credentialsSession = await onlySessionRow()
      expect(credentialsSession.user_id).toBe(ALICE.id)

      await signInWithOP(browser)
      const { rows: accounts } = await db().client.query(
        "select user_id, provider, provider_account_id from accounts",
      )
      expect(accounts).toEqual([
        { user_id: ALICE.id, provider: "op", provider_account_id: "alice" },
      ])
      expect((await db().client.query("select id from users")).rows).toEqual([{ id: ALICE.id }])
      const current = await adapter.getSessionAndUser(stored(browser.cookies.get(SESSION)))
      expect(current?.user.id).toBe(ALICE.id)
    })

    it("refuses an account whose email belongs to another user (OAuthAccountNotLinked)", async () => {
      const { config } = oauthSetup()
      await adapter.createUser({ id: "existing", email: alice.email, emailVerified: null })
      const browser = new Browser(config)
      const response = await signInWithOP(browser)
      const url = new URL(response.headers.get("location")!)
      expect(url.searchParams.get("error")).toBe("OAuthAccountNotLinked")
      expect((await db().client.query("select * from accounts")).rows).toEqual([])
      expect(await sessionRows()).toEqual([])
      expect(browser.cookies.has(SESSION)).toBe(false)
    })
  })
})
