/**
 * Password accounts through `Auth` — the built @latch/core, as an app runs it — with the
 * PostgreSQL adapter as the store, on PGlite and on a PostgreSQL server, on both session
 * strategies; mails sent by the Nodemailer provider to a real SMTP sink. Sign-up by mailed link,
 * the reset and the change of a password, the rate limits' counters, and the account's sign-in
 * methods listed and removed, each checked in the rows the database holds.
 *
 * Everything here runs one copy of core (its `dist`: build core first); the adapter only
 * imports core's types.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { Auth, type AuthConfig } from "@latch/core"
import GitHub from "@latch/core/providers/github"
import Nodemailer from "@latch/core/providers/nodemailer"
import Passkey from "@latch/core/providers/passkey"
import Password, { hashPassword, verifyPassword } from "@latch/core/providers/password"
import { startMailbox, type Mailbox, type ReceivedMail } from "latch-mailbox"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { formOf } from "../../core/test/helpers/continue-page.js"
import { PostgresAdapter, type PostgresAdapterMethods } from "../src/index.js"
import { clients, useEmptyDatabase } from "./clients.js"

const ORIGIN = "http://localhost:3000"
const SECRET = "a-test-secret-that-is-long-enough-0123456789"
const SESSION_COOKIE = "authjs.session-token"
/** Cheap scrypt parameters for tests (the defaults cost ~0.4 s a hash). */
const FAST = { ln: 10, r: 8, p: 1 }
const GOOD = "correct horse battery"
const OLD = "old password here"

let mailbox: Mailbox
beforeAll(async () => {
  mailbox = await startMailbox()
})
afterAll(() => mailbox.close())

let sequence = 0
const newAddress = () => `pw-${++sequence}-${Date.now()}@example.com`
/** A client IP address of its own for each browser, unless one is given. */
const newClientAddress = () => `10.8.${(++sequence >> 8) & 255}.${sequence & 255}`

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex")

/** A browser on `Auth`: a cookie jar, and form posts carrying the CSRF token. */
class Client {
  readonly cookies = new Map<string, string>()
  constructor(
    /** The app instance it talks to; another configuration on the same database is another. */
    public config: AuthConfig,
    readonly clientAddress = newClientAddress(),
  ) {}

  async fetch(
    path: string,
    { form, method }: { form?: Record<string, string>; method?: string } = {},
  ) {
    const headers = new Headers()
    if (this.cookies.size)
      headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "))
    let body: string | undefined
    if (form) {
      headers.set("content-type", "application/x-www-form-urlencoded")
      body = new URLSearchParams(form).toString()
    }
    const request = new Request(new URL(path, ORIGIN), {
      method: method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
    })
    const response = await Auth(request, this.config, { clientAddress: this.clientAddress })
    for (const line of response.headers.getSetCookie()) this.keep(line)
    return response
  }

  /** Applies one `Set-Cookie` line, as a browser does. */
  private keep(line: string) {
    const [pair = "", ...attributes] = line.split(";").map((part) => part.trim())
    const name = pair.slice(0, pair.indexOf("="))
    const value = pair.slice(pair.indexOf("=") + 1)
    const expired = attributes.some((attribute) => {
      const [key = "", setting = ""] = attribute.split("=")
      if (/^max-age$/i.test(key)) return Number(setting) <= 0
      return /^expires$/i.test(key) && new Date(setting).getTime() <= Date.now()
    })
    if (value === "" || expired) this.cookies.delete(name)
    else this.cookies.set(name, value)
  }

  /** Posts a form as the built-in pages do, with the CSRF token; the redirect's target. */
  async post(path: string, form: Record<string, string>) {
    const { csrfToken } = (await (await this.fetch("/auth/csrf")).json()) as { csrfToken: string }
    const response = await this.fetch(path, { form: { csrfToken, ...form } })
    const location = response.headers.get("location")
    return { response, location: location === null ? null : new URL(location) }
  }

  /**
   * Follows a mailed link as a user does: opens its page, types `typed` (the password a
   * confirming page asks of a browser that did not sign up) and presses the button; the
   * button's answer (or the link's own, when it opened no page).
   */
  async followLink(link: URL, typed: Record<string, string> = {}) {
    const opened = await this.fetch(pathOf(link))
    if (opened.status !== 200) return opened
    const { action, fields } = formOf(await opened.text())
    return this.fetch(action, { form: { ...fields, ...typed } })
  }

  async session(): Promise<Record<string, any> | null> {
    return (await (await this.fetch("/auth/session")).json()) as Record<string, any> | null
  }

  /** What the sessions table holds for this browser's cookie (database strategy). */
  storedToken(): string {
    return sha256(this.cookies.get(SESSION_COOKIE)!)
  }
}

/** The first link in a mail's text part. */
function linkIn(mail: ReceivedMail): URL {
  const match = /https?:\/\/\S+/.exec(mail.text ?? "")
  expect(match).not.toBeNull()
  return new URL(match![0])
}

const pathOf = (url: URL) => `${url.pathname}${url.search}`
/** A redirect's target without the `host` of the address (the one thing the answers may differ in). */
const withoutHost = (url: URL | null) => url!.href.replace(/host=[^&]*/, "")

/** The adapter, with the name of each method called pushed to `calls`. */
function recorded(adapter: PostgresAdapterMethods) {
  const calls: string[] = []
  const wrapped = Object.fromEntries(
    Object.entries(adapter).map(([name, method]) => [
      name,
      typeof method === "function"
        ? (...args: unknown[]) => {
            calls.push(name)
            return (method as (...args: unknown[]) => unknown).apply(adapter, args)
          }
        : method,
    ]),
  ) as PostgresAdapterMethods
  return { adapter: wrapped, calls }
}

describe.each(clients)("password accounts on $name", ({ open }) => {
  const db = useEmptyDatabase(open)

  async function query<T = Record<string, unknown>>(text: string, params: unknown[] = []) {
    return (await db().client.query(text, params)).rows as T[]
  }

  /** The stored session tokens of a user, sorted. */
  async function sessionTokens(userId: string): Promise<string[]> {
    const rows = await query<{ session_token: string }>(
      "select session_token from sessions where user_id = $1 order by session_token",
      [userId],
    )
    return rows.map((row) => row.session_token)
  }

  const passwordRows = (userId: string) =>
    query<{ hash: string; updated_at: Date }>(
      "select hash, updated_at from passwords where user_id = $1",
      [userId],
    )

  const tokenCount = async () =>
    (await query<{ n: number }>("select count(*)::int as n from verification_tokens"))[0]!.n

  /** An account with a verified address and a password, as a finished sign-up leaves it. */
  async function account(email: string, password = GOOD) {
    const adapter = PostgresAdapter(db().client)
    const user = await adapter.createUser({
      id: randomUUID(),
      email,
      emailVerified: new Date("2026-01-01"),
    })
    await adapter.setPasswordHash(user.id, await hashPassword(password, FAST))
    return user
  }

  describe.each(["database", "jwt"] as const)("%s sessions", (strategy) => {
    const database = strategy === "database"

    /** One app instance: its configuration, with its own adapter object on the shared database. */
    function instance(extra: Partial<AuthConfig> = {}): AuthConfig {
      return {
        secret: SECRET,
        trustHost: true,
        adapter: PostgresAdapter(db().client),
        session: { strategy },
        providers: [
          Password({ scrypt: FAST }),
          Nodemailer({
            server: { host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true },
            from: "Example <no-reply@example.com>",
          }),
        ],
        logger: { error: () => {}, warn: () => {}, debug: () => {} },
        ...extra,
      }
    }

    const signUp = (browser: Client, form: Record<string, string>) =>
      browser.post("/auth/signup/password", { callbackUrl: "/welcome", ...form })

    const requestReset = (browser: Client, email: string) =>
      browser.post("/auth/reset-password/password", { email, callbackUrl: "/after-reset" })

    const change = (browser: Client, form: Record<string, string>) =>
      browser.post("/auth/change-password/password", { callbackUrl: "/account", ...form })

    async function signIn(config: AuthConfig, email: string, password: string) {
      const browser = new Client(config)
      const { location } = await browser.post("/auth/callback/password", { email, password })
      return { browser, location: location! }
    }

    /** The error code of a password sign-in; `null` when it signed in. */
    async function signInCode(config: AuthConfig, email: string, password: string) {
      const { location } = await signIn(config, email, password)
      return location.searchParams.get("error") ? location.searchParams.get("code") : null
    }

    describe("sign-up", () => {
      it("writes no row until the mailed link is followed; then the user, verified, and the password", async () => {
        const config = instance()
        const browser = new Client(config)
        const email = newAddress()
        const { location } = await signUp(browser, {
          email: email.toUpperCase(),
          password: GOOD,
          name: "Ada",
        })
        expect(location!.pathname).toBe("/auth/verify-request")
        expect(location!.searchParams.get("type")).toBe("signup")
        // Nothing but the link's nonce, stored as an HMAC under the normalized address.
        expect(await query("select id from users")).toEqual([])
        expect(await query("select user_id from passwords")).toEqual([])
        expect(await query("select identifier, token from verification_tokens")).toEqual([
          { identifier: email, token: expect.stringMatching(/^[0-9a-f]{64}$/) },
        ])

        const link = linkIn(await mailbox.nextFor(email))
        expect(link.origin).toBe(ORIGIN)
        expect(link.pathname).toBe("/auth/verify-email/password")
        // A mail scanner's GET opens the "Confirm your address" page and writes nothing.
        expect((await new Client(config).fetch(pathOf(link))).status).toBe(200)
        expect(await query("select id from users")).toEqual([])
        expect(await tokenCount()).toBe(1)
        const confirmed = await browser.followLink(link)
        expect(confirmed.status).toBe(302)
        expect(confirmed.headers.get("location")).toBe(`${ORIGIN}/welcome`)

        const users = await query<{ id: string }>(
          "select id, email, name, email_verified from users",
        )
        expect(users).toEqual([
          { id: expect.any(String), email, name: "Ada", email_verified: expect.any(Date) },
        ])
        const userId = users[0]!.id
        const [password] = await passwordRows(userId)
        expect(password!.hash).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/)
        expect((await verifyPassword(GOOD, password!.hash, FAST)).ok).toBe(true)
        expect(await tokenCount()).toBe(0)
        // A password account links no account row: the password is its own table's.
        expect(await query("select provider from accounts")).toEqual([])
        expect(await sessionTokens(userId)).toEqual(database ? [browser.storedToken()] : [])
        expect((await browser.session())?.user).toMatchObject({ email, name: "Ada" })

        // The password works from then on, from another browser; the link works no more.
        const other = await signIn(config, email, GOOD)
        expect(other.location.href).toBe(`${ORIGIN}/`)
        expect((await other.browser.session())?.user?.email).toBe(email)
        expect(await sessionTokens(userId)).toEqual(
          database ? [browser.storedToken(), other.browser.storedToken()].sort() : [],
        )
        const replay = await new Client(config).followLink(link, { password: GOOD })
        expect(new URL(replay.headers.get("location")!).searchParams.get("error")).toBe(
          "Verification",
        )
        expect(await query("select count(*)::int as n from users")).toEqual([{ n: 1 }])
      })

      it("answers an address that has an account as a new one, and mails its owner", async () => {
        const config = instance()
        const taken = newAddress()
        const owner = await account(taken, OLD)
        const before = await passwordRows(owner.id)
        const elsewhere = (await signIn(config, taken, OLD)).browser
        const fresh = newAddress()
        const a = await signUp(new Client(config), { email: taken, password: GOOD })
        const b = await signUp(new Client(config), { email: fresh, password: GOOD })
        expect(a.response.status).toBe(b.response.status)
        expect(withoutHost(a.location)).toBe(withoutHost(b.location))
        expect([...a.response.headers.keys()]).toEqual([...b.response.headers.keys()])
        // No row for the new address, nothing changed for the taken one.
        expect(await query("select id, email from users")).toEqual([{ id: owner.id, email: taken }])
        expect(await passwordRows(owner.id)).toEqual(before)

        const exists = await mailbox.nextFor(taken)
        const created = await mailbox.nextFor(fresh)
        expect(exists.subject).not.toBe(created.subject)
        expect(exists.text).toMatch(/tried to create an account/i)
        // Nothing in it changes the account: links to sign in and to reset, no token.
        expect(exists.text).not.toContain("token=")
        expect(linkIn(exists).pathname).toBe("/auth/signin")
        // The same work either way: one link token stored for each (the taken address's, a
        // decoy that no mail carries).
        expect(
          await query("select identifier from verification_tokens order by identifier"),
        ).toEqual([taken, fresh].sort().map((identifier) => ({ identifier })))
        // The owner's password and sessions are as they were; the stranger's opens nothing.
        expect(await passwordRows(owner.id)).toEqual(before)
        expect((await elsewhere.session())?.user?.email).toBe(taken)
        expect(await signInCode(config, taken, OLD)).toBeNull()
        expect(await signInCode(config, taken, GOOD)).toBe("credentials")
      })
    })

    it("an address squatter's account is adopted clean by the owner's reset link, rows and all", async () => {
      // The squatter signs up with the owner's address and is signed in at once.
      const config = instance({
        providers: [
          Password({ scrypt: FAST, requireEmailVerification: false }),
          Nodemailer({
            server: { host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true },
            from: "Example <no-reply@example.com>",
          }),
        ],
      })
      const email = newAddress()
      const squatter = new Client(config)
      await signUp(squatter, { email, password: OLD })
      await mailbox.nextFor(email)
      expect((await squatter.session())?.user?.email).toBe(email)
      const [row] = await query<{ id: string }>("select id from users where email = $1", [email])
      const id = row!.id
      // What a squatter could leave before unproven accounts were refused new ways in: a second
      // factor with recovery codes, and a passkey.
      const adapter = PostgresAdapter(db().client)
      await adapter.setTwoFactor({ userId: id, secret: "sealed", enabledAt: new Date() })
      await adapter.setRecoveryCodes(id, ["a".repeat(64), "b".repeat(64)])
      await adapter.linkAccount({
        userId: id,
        type: "webauthn",
        provider: "passkey",
        providerAccountId: "credential",
      })
      await adapter.createAuthenticator({
        userId: id,
        credentialID: "credential",
        providerAccountId: "credential",
        credentialPublicKey: "key",
        counter: 0,
        credentialDeviceType: "singleDevice",
        credentialBackedUp: false,
        transports: null,
      })

      // The owner proves the address with a reset link.
      const owner = new Client(config)
      await requestReset(owner, email)
      const link = linkIn(await mailbox.nextFor(email))
      const done = await owner.post("/auth/new-password/password", {
        token: link.searchParams.get("token")!,
        password: GOOD,
      })
      expect(done.location!.href).toBe(`${ORIGIN}/after-reset`)
      // The notices: what the adoption removed, then the new password.
      expect((await mailbox.nextFor(email)).subject).toMatch(/^Your address was confirmed on /)
      expect((await mailbox.nextFor(email)).subject).toMatch(/^Your password on .* was changed$/)

      const count = async (table: string) =>
        (
          await query<{ n: number }>(`select count(*)::int as n from ${table} where user_id = $1`, [
            id,
          ])
        )[0]!.n
      expect(await count("two_factors")).toBe(0)
      expect(await count("recovery_codes")).toBe(0)
      expect(await count("authenticators")).toBe(0)
      expect(await count("accounts")).toBe(0)
      expect(await sessionTokens(id)).toEqual(database ? [owner.storedToken()] : [])
      expect((await query("select email_verified from users where id = $1", [id]))[0]).toEqual({
        email_verified: expect.any(Date),
      })
      // The squatter's session — a JWT one too — and password open nothing now.
      expect(await squatter.session()).toBeNull()
      expect(await signInCode(config, email, OLD)).toBe("credentials")
      expect((await owner.session())?.user?.email).toBe(email)
    })

    describe("reset", () => {
      it("answers a known and an unknown address alike, with the same adapter calls; mails a link or a notice", async () => {
        const known = newAddress()
        await account(known)
        const unknown = newAddress()
        const { adapter, calls } = recorded(PostgresAdapter(db().client))
        const config = instance({ adapter })

        const a = await requestReset(new Client(config), known)
        const knownCalls = calls.splice(0)
        const b = await requestReset(new Client(config), unknown)
        expect(calls).toEqual(knownCalls)
        expect(knownCalls.filter((call) => call !== "incrementCounter")).toEqual([
          "getUserByEmail",
          "getPasswordHash",
          "createVerificationToken",
        ])
        expect(a.response.status).toBe(302)
        expect(a.location!.pathname).toBe("/auth/verify-request")
        expect(a.location!.searchParams.get("type")).toBe("reset")
        expect(withoutHost(a.location)).toBe(withoutHost(b.location))
        expect([...a.response.headers.keys()]).toEqual([...b.response.headers.keys()])
        // A token is stored for both (the unknown one can never be used).
        expect(
          await query("select identifier from verification_tokens order by identifier"),
        ).toEqual([known, unknown].sort().map((identifier) => ({ identifier })))

        expect(linkIn(await mailbox.nextFor(known)).pathname).toBe("/auth/new-password/password")
        const notice = await mailbox.nextFor(unknown)
        expect(notice.text).not.toMatch(/new-password/)
        expect(notice.text).toMatch(/\/auth\/signup/)
      })

      it("sets a new password by link: the old refused, the other sessions' rows deleted, every reset link spent", async () => {
        const config = instance()
        const email = newAddress()
        const user = await account(email, OLD)
        const elsewhere = [
          (await signIn(config, email, OLD)).browser,
          (await signIn(config, email, OLD)).browser,
        ]
        expect(await sessionTokens(user.id)).toHaveLength(database ? 2 : 0)
        await requestReset(new Client(config), email)
        await requestReset(new Client(config), email)
        const first = linkIn(await mailbox.nextFor(email))
        const second = linkIn(await mailbox.nextFor(email))
        expect(await tokenCount()).toBe(2)

        const browser = new Client(config)
        const page = await browser.fetch(pathOf(first))
        expect(page.status).toBe(200)
        expect(await page.text()).toContain('name="token"')
        // Showing the form spends nothing.
        expect(await tokenCount()).toBe(2)

        const token = first.searchParams.get("token")!
        const done = await browser.post("/auth/new-password/password", { token, password: GOOD })
        expect(done.location!.href).toBe(`${ORIGIN}/after-reset`)
        expect((await browser.session())?.user?.email).toBe(email)
        // Only the session the link opened is left.
        expect(await sessionTokens(user.id)).toEqual(database ? [browser.storedToken()] : [])
        if (database) for (const other of elsewhere) expect(await other.session()).toBeNull()
        expect((await mailbox.nextFor(email)).text).toMatch(/changed/i)
        const after = await passwordRows(user.id)
        expect((await verifyPassword(GOOD, after[0]!.hash, FAST)).ok).toBe(true)
        expect(await signInCode(config, email, OLD)).toBe("credentials")
        expect(await signInCode(config, email, GOOD)).toBeNull()

        // The link again, and the other link mailed before the change: refused, nothing changed.
        const replay = await new Client(config).post("/auth/new-password/password", {
          token,
          password: "another good one",
        })
        expect(replay.location!.searchParams.get("error")).toBe("Verification")
        const stale = await new Client(config).post("/auth/new-password/password", {
          token: second.searchParams.get("token")!,
          password: "yet another password",
        })
        expect(stale.location!.searchParams.get("error")).toBe("Verification")
        expect(await passwordRows(user.id)).toEqual(after)
        // The stale link is refused before it is spent (its password is gone): its row stays
        // until it expires, useless.
        expect(await tokenCount()).toBe(1)
        expect(await signInCode(config, email, GOOD)).toBeNull()
      })

      it("spends a link posted twice at once for one of the two only", async () => {
        const config = instance()
        const email = newAddress()
        const user = await account(email, OLD)
        await requestReset(new Client(config), email)
        const token = linkIn(await mailbox.nextFor(email)).searchParams.get("token")!
        const browsers = [new Client(config), new Client(config)]
        const results = await Promise.all(
          browsers.map((browser, i) =>
            browser.post("/auth/new-password/password", { token, password: `${GOOD} ${i}` }),
          ),
        )
        const won = results.findIndex(({ location }) => location!.href === `${ORIGIN}/after-reset`)
        expect(won).not.toBe(-1)
        expect(results[1 - won]!.location!.searchParams.get("error")).toBe("Verification")
        expect(await signInCode(config, email, `${GOOD} ${won}`)).toBeNull()
        expect(await signInCode(config, email, `${GOOD} ${1 - won}`)).toBe("credentials")
        expect(await sessionTokens(user.id)).toHaveLength(database ? 2 : 0)
        expect(await browsers[1 - won]!.session()).toBeNull()
      })
    })

    describe("change", () => {
      it("needs the current password; deletes the other sessions' rows and keeps this one", async () => {
        const config = instance()
        const email = newAddress()
        const user = await account(email, OLD)
        const { browser } = await signIn(config, email, OLD)
        const elsewhere = (await signIn(config, email, OLD)).browser
        const before = await passwordRows(user.id)

        const wrong = await change(browser, { currentPassword: "not it", password: GOOD })
        expect(wrong.location!.pathname).toBe("/auth/change-password")
        expect(wrong.location!.searchParams.get("error")).toBe("PasswordError")
        expect(wrong.location!.searchParams.get("code")).toBe("wrong_password")
        expect(await passwordRows(user.id)).toEqual(before)
        expect(await sessionTokens(user.id)).toHaveLength(database ? 2 : 0)

        const done = await change(browser, { currentPassword: OLD, password: GOOD })
        expect(done.location!.href).toBe(`${ORIGIN}/account`)
        expect(await sessionTokens(user.id)).toEqual(database ? [browser.storedToken()] : [])
        expect((await browser.session())?.user?.email).toBe(email)
        // A JWT cannot be ended early: it lasts until it expires.
        if (database) expect(await elsewhere.session()).toBeNull()
        else expect((await elsewhere.session())?.user?.email).toBe(email)
        const after = await passwordRows(user.id)
        expect(after).toHaveLength(1)
        expect(after[0]!.hash).not.toBe(before[0]!.hash)
        expect(after[0]!.updated_at.getTime()).toBeGreaterThanOrEqual(
          before[0]!.updated_at.getTime(),
        )
        expect((await mailbox.nextFor(email)).text).toMatch(/changed/i)
        expect(await signInCode(config, email, OLD)).toBe("credentials")
        expect(await signInCode(config, email, GOOD)).toBeNull()
      })
    })

    it("keeps the rate limits in the counters table, counted across two app instances", async () => {
      const instances = [instance(), instance()]
      const address = newClientAddress()
      const email = newAddress()
      // Sign-ups for one address from one client, alternating instances: five mails, then none.
      const answers: string[] = []
      for (let i = 0; i < 6; i++) {
        const { location } = await signUp(new Client(instances[i % 2]!, address), {
          email,
          password: GOOD,
        })
        answers.push(location!.href)
      }
      // Over the limit, the same answer: the limit says nothing about the address.
      expect(new Set(answers).size).toBe(1)
      for (let i = 0; i < 5; i++) await mailbox.nextFor(email)
      await expect(mailbox.nextFor(email, 300)).rejects.toThrow(/no mail/)
      await requestReset(new Client(instances[1]!, address), email)
      await mailbox.nextFor(email)
      // The mail limits (the hashing budgets of sign-ups, `password:hash:…`, are counted too,
      // for the whole app as well: the other tests' sign-ups add to those).
      const mails = await query<{ key: string; count: number }>(
        "select key, count from counters where key like 'password:%' and key not like 'password:hash:%' order by key",
      )
      const budgets = await query<{ key: string }>(
        "select key from counters where key like 'password:hash:%' order by key",
      )
      expect(budgets.map(({ key }) => key.replace(/[0-9a-f]{64}/, "<hmac>"))).toEqual(
        expect.arrayContaining(["password:hash:client:<hmac>", "password:hash:global:<hmac>"]),
      )
      expect(JSON.stringify(budgets)).not.toContain(address)
      const hmac = "[0-9a-f]{64}"
      expect(mails).toEqual([
        { key: expect.stringMatching(`^password:reset:address:password:${hmac}$`), count: 1 },
        { key: expect.stringMatching(`^password:reset:ip:password:${hmac}$`), count: 1 },
        { key: expect.stringMatching(`^password:signup:address:password:${hmac}$`), count: 6 },
        { key: expect.stringMatching(`^password:signup:ip:password:${hmac}$`), count: 6 },
      ])
      expect(JSON.stringify(mails)).not.toContain(email)
      expect(JSON.stringify(mails)).not.toContain(address)

      // Attempts at the current password, per account, whichever instance takes them.
      const owner = newAddress()
      const user = await account(owner)
      const { browser } = await signIn(instances[0]!, owner, GOOD)
      const before = await passwordRows(user.id)
      for (let i = 0; i < 5; i++) {
        browser.config = instances[i % 2]!
        const wrong = await change(browser, { currentPassword: `guess ${i}`, password: OLD })
        expect(wrong.location!.searchParams.get("code")).toBe("wrong_password")
      }
      browser.config = instances[1]!
      const limited = await change(browser, { currentPassword: GOOD, password: OLD })
      expect(limited.location!.searchParams.get("code")).toBe("rate_limited")
      expect(limited.response.headers.get("retry-after")).toBe("900")
      expect(
        await query("select key, count from counters where key like 'password:change:%'"),
      ).toEqual([{ key: expect.stringMatching(`^password:change:user:${hmac}$`), count: 6 }])
      expect(await passwordRows(user.id)).toEqual(before)
    })

    describe("sign-in methods", () => {
      /** No email provider: a verified address is then no way in, and the password may be the last. */
      const accountInstance = () =>
        instance({
          experimental: { enableWebAuthn: true },
          providers: [
            Password({ scrypt: FAST }),
            GitHub({ clientId: "dummy-client-id", clientSecret: "dummy-client-secret" }),
            Passkey(),
          ],
        })

      const methods = async (browser: Client) => {
        const response = await browser.fetch("/auth/account")
        expect(response.status).toBe(200)
        return ((await response.json()) as { methods: unknown[] }).methods
      }

      async function linkGitHub(userId: string, providerAccountId: string) {
        await query(
          `insert into accounts (user_id, type, provider, provider_account_id, access_token,
             token_type, scope)
           values ($1, 'oauth', 'github', $2, 'gho_dummy', 'bearer', 'read:user')`,
          [userId, providerAccountId],
        )
      }

      const accountRows = (userId: string) =>
        query("select type, provider, provider_account_id from accounts where user_id = $1", [
          userId,
        ])

      it("lists the password and a GitHub account; unlinks GitHub; refuses to remove the last", async () => {
        const config = accountInstance()
        const email = newAddress()
        const user = await account(email)
        await linkGitHub(user.id, "4242")

        const signedOut = await new Client(config).fetch("/auth/account")
        expect(signedOut.status).toBe(401)
        expect(await signedOut.json()).toMatchObject({ error: "SessionRequired" })

        const { browser } = await signIn(config, email, GOOD)
        expect(await methods(browser)).toEqual([
          {
            type: "oauth",
            provider: "github",
            providerName: "GitHub",
            id: "4242",
            removable: true,
          },
          {
            type: "password",
            provider: "password",
            providerName: "Password",
            id: "",
            removable: true,
          },
        ])

        // An id that is not this user's is no method of theirs.
        const other = await account(newAddress())
        await linkGitHub(other.id, "5151")
        const theirs = await browser.post("/auth/unlink/github", { id: "5151", callbackUrl: "/me" })
        expect(theirs.location!.searchParams.get("error")).toBe("AccountError")
        expect(theirs.location!.searchParams.get("code")).toBe("not_found")
        expect(await accountRows(other.id)).toHaveLength(1)

        const unlinked = await browser.post("/auth/unlink/github", {
          id: "4242",
          callbackUrl: "/me",
        })
        expect(unlinked.location!.href).toBe(`${ORIGIN}/me`)
        expect(await accountRows(user.id)).toEqual([])
        expect(await methods(browser)).toEqual([
          {
            type: "password",
            provider: "password",
            providerName: "Password",
            id: "",
            removable: false,
          },
        ])

        const last = await browser.post("/auth/unlink/password", { id: "", callbackUrl: "/me" })
        expect(last.location!.origin + last.location!.pathname).toBe(`${ORIGIN}/me`)
        expect(last.location!.searchParams.get("error")).toBe("AccountError")
        expect(last.location!.searchParams.get("code")).toBe("last_method")
        expect(await passwordRows(user.id)).toHaveLength(1)
        expect(await signInCode(config, email, GOOD)).toBeNull()
      })

      it("removes the password while another way in is left", async () => {
        const config = accountInstance()
        const email = newAddress()
        const user = await account(email)
        await linkGitHub(user.id, "4343")
        const { browser } = await signIn(config, email, GOOD)
        const removed = await browser.post("/auth/unlink/password", { id: "", callbackUrl: "/me" })
        expect(removed.location!.href).toBe(`${ORIGIN}/me`)
        expect(await passwordRows(user.id)).toEqual([])
        expect(await accountRows(user.id)).toHaveLength(1)
        expect(await methods(browser)).toEqual([
          {
            type: "oauth",
            provider: "github",
            providerName: "GitHub",
            id: "4343",
            removable: false,
          },
        ])
        expect(await signInCode(config, email, GOOD)).toBe("credentials")
      })

      it("unlinks a passkey: the authenticator and its account row, through deleteAuthenticator", async () => {
        const adapter = PostgresAdapter(db().client)
        const deleteAuthenticator = vi.spyOn(adapter, "deleteAuthenticator")
        const config = { ...accountInstance(), adapter }
        const email = newAddress()
        const user = await account(email)
        // Padded standard base64, as Latch stores a credential id: "+", "/" and "=" in the form.
        const credentialID = Buffer.concat([
          Buffer.from([0xfb, 0xff, 0xbf]),
          randomBytes(29),
        ]).toString("base64")
        await query(
          `insert into authenticators (credential_id, user_id, provider_account_id,
             credential_public_key, counter, credential_device_type, credential_backed_up,
             transports)
           values ($1, $2, $1, $3, 0, 'multiDevice', true, 'internal')`,
          [credentialID, user.id, randomBytes(77).toString("base64")],
        )
        await query(
          `insert into accounts (user_id, type, provider, provider_account_id)
           values ($1, 'webauthn', 'passkey', $2)`,
          [user.id, credentialID],
        )

        const { browser } = await signIn(config, email, GOOD)
        expect(await methods(browser)).toEqual([
          expect.objectContaining({
            type: "webauthn",
            provider: "passkey",
            providerName: "Passkey",
            id: credentialID,
            removable: true,
          }),
          {
            type: "password",
            provider: "password",
            providerName: "Password",
            id: "",
            removable: true,
          },
        ])
        const unlinked = await browser.post("/auth/unlink/passkey", {
          id: credentialID,
          callbackUrl: "/me",
        })
        expect(unlinked.location!.href).toBe(`${ORIGIN}/me`)
        expect(deleteAuthenticator).toHaveBeenCalledTimes(1)
        expect(deleteAuthenticator).toHaveBeenCalledWith(credentialID)
        expect(await query("select credential_id from authenticators")).toEqual([])
        expect(await accountRows(user.id)).toEqual([])
        expect(await passwordRows(user.id)).toHaveLength(1)
        expect(await methods(browser)).toEqual([
          {
            type: "password",
            provider: "password",
            providerName: "Password",
            id: "",
            removable: false,
          },
        ])
      })
    })
  })
})
