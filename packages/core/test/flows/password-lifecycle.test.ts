/**
 * The life of a password account through `Auth()`, with mails over a real SMTP server
 * (smtp-server on 127.0.0.1, sent by the Nodemailer provider): sign-up and the link that
 * creates the account, reset request and new password, change of password, and what each
 * refuses — on both session strategies.
 */
import { startMailbox, type Mailbox, type ReceivedMail } from "latch-mailbox"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { hashPassword, verifyPassword } from "../../src/password/hash.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import Password, { type PasswordOptions } from "../../src/providers/password.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { followLink } from "../helpers/continue-page.js"
import { Browser, ORIGIN, SECRET } from "../helpers/request.js"

/** Cheap scrypt parameters for tests (the defaults cost ~0.4 s a hash). */
const FAST = { ln: 10, r: 8, p: 1 }
const GOOD = "correct horse battery"

let mailbox: Mailbox
beforeAll(async () => {
  mailbox = await startMailbox()
})
afterAll(() => mailbox.close())
afterEach(() => vi.useRealTimers())

let counter = 0
const newAddress = () => `pw${++counter}-${Date.now()}@example.com`

interface Setup {
  adapter: MemoryAdapter
  config: AuthConfig
  events: Record<"createUser" | "updateUser" | "signIn", ReturnType<typeof vi.fn>>
  errors: ReturnType<typeof vi.fn>
}

function setup(
  strategy: "jwt" | "database",
  options: PasswordOptions = {},
  extra: Partial<AuthConfig> = {},
): Setup {
  const adapter = memoryAdapter()
  const events = { createUser: vi.fn(), updateUser: vi.fn(), signIn: vi.fn() }
  const errors = vi.fn()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy },
    providers: [
      Password({ scrypt: FAST, ...options }),
      Nodemailer({
        server: { host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true },
        from: "Example <no-reply@example.com>",
      }),
    ],
    events,
    logger: { error: errors, warn: () => {}, debug: () => {} },
    ...extra,
  }
  return { adapter, config, events, errors }
}

/** The first link in a mail's text part. */
function linkIn(mail: ReceivedMail): URL {
  const match = /https?:\/\/\S+/.exec(mail.text ?? "")
  expect(match).not.toBeNull()
  return new URL(match![0])
}

async function post(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch(path, { form: { csrfToken, ...form } })
  const location = response.headers.get("location")
  return { response, location: location ? new URL(location) : null }
}

const signUp = (browser: Browser, form: Record<string, string>) =>
  post(browser, "/auth/signup/password", { callbackUrl: "/welcome", ...form })

async function signIn(config: AuthConfig, email: string, password: string) {
  const browser = new Browser(config)
  const { location } = await post(browser, "/auth/callback/password", { email, password })
  return { browser, location: location! }
}

/** An account with a verified address and a password, as a finished sign-up leaves it. */
async function account(adapter: MemoryAdapter, email: string, password = GOOD) {
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email,
    emailVerified: new Date("2026-01-01"),
  })
  adapter.passwords.set(user.id, await hashPassword(password, FAST))
  return user
}

describe.each(["database", "jwt"] as const)("password accounts (%s sessions)", (strategy) => {
  describe("sign-up", () => {
    it("creates no account until the mailed link is followed, then signs in", async () => {
      const { adapter, config, events } = setup(strategy)
      const browser = new Browser(config)
      const email = newAddress()
      const { location } = await signUp(browser, {
        email: email.toUpperCase(),
        password: GOOD,
        name: "Ada",
      })
      expect(location!.pathname).toBe("/auth/verify-request")
      expect(location!.searchParams.get("type")).toBe("signup")
      expect(await adapter.getUserByEmail!(email)).toBeNull()
      expect(await browser.session()).toBeNull()

      const mail = await mailbox.nextFor(email)
      expect(mail.subject).toMatch(/localhost:3000/)
      const link = linkIn(mail)
      expect(link.origin).toBe(ORIGIN)
      expect(link.pathname).toBe("/auth/verify-email/password")

      const opened = await followLink(browser, `${link.pathname}${link.search}`)
      expect(opened.status).toBe(302)
      expect(opened.headers.get("location")).toBe(`${ORIGIN}/welcome`)
      const user = await adapter.getUserByEmail!(email)
      expect(user).toMatchObject({ email, name: "Ada" })
      expect(user!.emailVerified).toBeInstanceOf(Date)
      expect((await verifyPassword(GOOD, adapter.passwords.get(user!.id)!, FAST)).ok).toBe(true)
      expect(events.createUser).toHaveBeenCalledTimes(1)
      expect(events.signIn.mock.calls[0]![0]).toMatchObject({ isNewUser: true })
      expect((await browser.session())?.user).toMatchObject({ email, name: "Ada" })

      // The password works from then on, anywhere.
      const again = await signIn(config, email, GOOD)
      expect(again.location.searchParams.get("error")).toBeNull()
    })

    it("answers an address that has an account exactly as a new one, and mails its owner", async () => {
      const { adapter, config } = setup(strategy)
      const taken = newAddress()
      const owner = await account(adapter, taken, "the owner's password")
      const fresh = newAddress()
      const a = await signUp(new Browser(config), { email: taken, password: GOOD })
      const b = await signUp(new Browser(config), { email: fresh, password: GOOD })
      const strip = (url: URL) => url.href.replace(/host=[^&]*/, "")
      expect(a.response.status).toBe(b.response.status)
      expect(strip(a.location!)).toBe(strip(b.location!))
      expect([...a.response.headers.keys()]).toEqual([...b.response.headers.keys()])
      expect(a.response.headers.getSetCookie().map((line) => line.split("=")[0])).toEqual(
        b.response.headers.getSetCookie().map((line) => line.split("=")[0]),
      )

      const exists = await mailbox.nextFor(taken)
      const created = await mailbox.nextFor(fresh)
      expect(exists.subject).not.toBe(created.subject)
      expect(exists.text).toMatch(/tried to create an account/i)
      // It offers to sign in and to reset; nothing in it changes the account.
      expect(exists.text).not.toContain("token=")
      expect(exists.text).toContain(`${ORIGIN}/auth/signin`)
      expect(exists.text).toContain(`${ORIGIN}/auth/reset-password`)
      expect(
        (await signIn(config, taken, "the owner's password")).location.searchParams.get("error"),
      ).toBeNull()
      expect((await signIn(config, taken, GOOD)).location.searchParams.get("code")).toBe(
        "credentials",
      )
      expect((await adapter.getUserByEmail!(taken))!.id).toBe(owner.id)
    })

    it("refuses a password the policy does not allow, back on the form, with no mail", async () => {
      const { config } = setup(strategy, { policy: { isBreached: (p) => p === "password123" } })
      const email = newAddress()
      for (const [password, code] of [
        ["short", "password_too_short"],
        ["password123", "password_breached"],
        [email, "password_like_identifier"],
        ["tab\there and more", "password_control_characters"],
        ["x".repeat(300), "password_too_long"],
      ] as const) {
        const { location } = await signUp(new Browser(config), { email, password })
        expect(location!.pathname).toBe("/auth/signup")
        expect(location!.searchParams.get("error")).toBe("PasswordError")
        expect(location!.searchParams.get("code")).toBe(code)
        expect(location!.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/welcome`)
      }
      await expect(mailbox.nextFor(email, 300)).rejects.toThrow(/no mail/)
    })

    it("refuses what is not one plain address before any lookup", async () => {
      const { adapter, config } = setup(strategy)
      const lookups = vi.spyOn(adapter, "getUserByEmail")
      for (const email of [
        "",
        "a@b.example, c@evil.example",
        "a@b.example\r\nBcc: c@evil.example",
        `${"a".repeat(5000)}@b.example`,
      ]) {
        const { location } = await signUp(new Browser(config), { email, password: GOOD })
        expect(location!.searchParams.get("code")).toBe("invalid_email")
      }
      expect(lookups).not.toHaveBeenCalled()
    })

    it("lets the signIn callback refuse an address", async () => {
      const signInCallback = vi.fn(({ user }) => !String(user.email).endsWith("@blocked.example"))
      const { config } = setup(strategy, {}, { callbacks: { signIn: signInCallback } })
      const email = `someone-${Date.now()}@blocked.example`
      const { location } = await signUp(new Browser(config), { email, password: GOOD })
      expect(location!.pathname).toBe("/auth/error")
      expect(location!.searchParams.get("error")).toBe("AccessDenied")
      expect(signInCallback.mock.calls[0]![0]).toMatchObject({
        account: { provider: "password", type: "credentials" },
        email: { verificationRequest: true },
      })
      await expect(mailbox.nextFor(email, 300)).rejects.toThrow(/no mail/)
    })

    it("is off with signUp: false", async () => {
      const { config } = setup(strategy, { signUp: false })
      const email = newAddress()
      const { location } = await signUp(new Browser(config), { email, password: GOOD })
      expect(location!.searchParams.get("code")).toBe("sign_up_closed")
      const page = await new Browser(config).fetch("/auth/signup")
      expect(page.headers.get("location")).toBe(`${ORIGIN}/auth/signin`)
    })

    it("spends a link once; a forged, tampered or expired one signs nobody in", async () => {
      const { adapter, config } = setup(strategy)
      const email = newAddress()
      await signUp(new Browser(config), { email, password: GOOD })
      const link = linkIn(await mailbox.nextFor(email))
      const token = link.searchParams.get("token")!

      const tampered = `${token.slice(0, -4)}${token.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`
      for (const bad of [tampered, "not-a-token", "", "x".repeat(5000)]) {
        const response = await new Browser(config).fetch(
          `/auth/verify-email/password?token=${encodeURIComponent(bad)}`,
        )
        expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(
          "Verification",
        )
      }
      expect(await adapter.getUserByEmail!(email)).toBeNull()

      const first = new Browser(config)
      await followLink(first, `${link.pathname}${link.search}`, { password: GOOD })
      expect(await first.session()).not.toBeNull()
      const second = new Browser(config)
      const replay = await followLink(second, `${link.pathname}${link.search}`, {
        password: GOOD,
      })
      expect(new URL(replay.headers.get("location")!).searchParams.get("error")).toBe(
        "Verification",
      )
      expect(await second.session()).toBeNull()
    })

    it("lets a link expire", async () => {
      const { adapter, config } = setup(strategy, { verifyMaxAge: 60 })
      const email = newAddress()
      await signUp(new Browser(config), { email, password: GOOD })
      const link = linkIn(await mailbox.nextFor(email))
      vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ["Date"] })
      const response = await followLink(new Browser(config), `${link.pathname}${link.search}`)
      expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(
        "Verification",
      )
      expect(await adapter.getUserByEmail!(email)).toBeNull()
    })

    it("answers HEAD (a mail scanner) without spending the link", async () => {
      const { config } = setup(strategy)
      const email = newAddress()
      await signUp(new Browser(config), { email, password: GOOD })
      const link = linkIn(await mailbox.nextFor(email))
      const head = await new Browser(config).fetch(`${link.pathname}${link.search}`, {
        method: "HEAD",
      })
      expect(head.status).toBe(200)
      const browser = new Browser(config)
      await followLink(browser, `${link.pathname}${link.search}`, { password: GOOD })
      expect(await browser.session()).not.toBeNull()
    })

    it("counts sign-ups per address: over the limit, the same answer and no mail", async () => {
      const { config } = setup(strategy)
      const email = newAddress()
      for (let i = 0; i < 5; i++) await signUp(new Browser(config), { email, password: GOOD })
      for (let i = 0; i < 5; i++) await mailbox.nextFor(email)
      const over = await signUp(new Browser(config), { email, password: GOOD })
      expect(over.location!.pathname).toBe("/auth/verify-request")
      await expect(mailbox.nextFor(email, 300)).rejects.toThrow(/no mail/)
    })

    it("without verification, signs a new account in at once, unverified, and mails a link", async () => {
      const { adapter, config } = setup(strategy, { requireEmailVerification: false })
      const browser = new Browser(config)
      const email = newAddress()
      const { location } = await signUp(browser, { email, password: GOOD })
      expect(location!.href).toBe(`${ORIGIN}/welcome`)
      const user = await adapter.getUserByEmail!(email)
      expect(user!.emailVerified).toBeNull()
      expect((await browser.session())?.user?.email).toBe(email)
      const link = linkIn(await mailbox.nextFor(email))
      // On another device, its creator types the password to keep it.
      await followLink(new Browser(config), `${link.pathname}${link.search}`, { password: GOOD })
      expect((await adapter.getUserByEmail!(email))!.emailVerified).toBeInstanceOf(Date)
      expect((await signIn(config, email, GOOD)).location.searchParams.get("error")).toBeNull()
    })
  })

  describe("reset", () => {
    const requestReset = (browser: Browser, email: string) =>
      post(browser, "/auth/reset-password/password", { email, callbackUrl: "/after-reset" })

    it("mails a link to an account and a notice to an unknown address, answering both alike", async () => {
      const { adapter, config } = setup(strategy)
      const known = newAddress()
      await account(adapter, known)
      const unknown = newAddress()
      const methods = ["getUserByEmail", "getPasswordHash", "createVerificationToken"] as const
      const spies = methods.map((method) => vi.spyOn(adapter, method))
      const a = await requestReset(new Browser(config), known)
      const knownCalls = spies.map((spy) => spy.mock.calls.length)
      spies.forEach((spy) => spy.mockClear())
      const b = await requestReset(new Browser(config), unknown)
      // The same adapter work for both: one user lookup, one hash lookup, one stored token.
      expect(spies.map((spy) => spy.mock.calls.length)).toEqual(knownCalls)
      expect(knownCalls).toEqual([1, 1, 1])
      const strip = (url: URL) => url.href.replace(/host=[^&]*/, "")
      expect(strip(a.location!)).toBe(strip(b.location!))
      expect(a.location!.searchParams.get("type")).toBe("reset")
      expect(linkIn(await mailbox.nextFor(known)).pathname).toBe("/auth/new-password/password")
      const notice = await mailbox.nextFor(unknown)
      expect(notice.text).not.toMatch(/new-password/)
      expect(notice.text).toMatch(/\/auth\/signup/)
    })

    it("sets a new password by link: signed in, old password refused, sessions ended, owner told", async () => {
      const { adapter, config } = setup(strategy)
      const email = newAddress()
      const user = await account(adapter, email, "old password here")
      const elsewhere = (await signIn(config, email, "old password here")).browser
      expect(await elsewhere.session()).not.toBeNull()

      await requestReset(new Browser(config), email)
      const link = linkIn(await mailbox.nextFor(email))
      const browser = new Browser(config)
      const page = await browser.fetch(`${link.pathname}${link.search}`)
      expect(page.status).toBe(200)
      const html = await page.text()
      expect(html).toContain('name="token"')
      expect(html).toContain('autocomplete="new-password"')

      const token = link.searchParams.get("token")!
      const weak = await post(browser, "/auth/new-password/password", { token, password: "short" })
      expect(weak.location!.pathname).toBe("/auth/new-password/password")
      expect(weak.location!.searchParams.get("code")).toBe("password_too_short")
      expect(weak.location!.searchParams.get("token")).toBe(token)

      const done = await post(browser, "/auth/new-password/password", { token, password: GOOD })
      expect(done.location!.href).toBe(`${ORIGIN}/after-reset`)
      expect((await browser.session())?.user?.email).toBe(email)
      expect(
        (await signIn(config, email, "old password here")).location.searchParams.get("code"),
      ).toBe("credentials")
      expect((await signIn(config, email, GOOD)).location.searchParams.get("error")).toBeNull()
      if (strategy === "database") expect(await elsewhere.session()).toBeNull()
      const notice = await mailbox.nextFor(email)
      expect(notice.text).toMatch(/changed/i)
      expect(adapter.passwords.get(user.id)).toBeDefined()

      const replay = await post(new Browser(config), "/auth/new-password/password", {
        token,
        password: "another good one",
      })
      expect(replay.location!.searchParams.get("error")).toBe("Verification")
    })

    it("kills every other reset link once the password changed", async () => {
      const { adapter, config } = setup(strategy)
      const email = newAddress()
      await account(adapter, email)
      await requestReset(new Browser(config), email)
      await requestReset(new Browser(config), email)
      const first = linkIn(await mailbox.nextFor(email)).searchParams.get("token")!
      const second = linkIn(await mailbox.nextFor(email)).searchParams.get("token")!
      await post(new Browser(config), "/auth/new-password/password", {
        token: first,
        password: GOOD,
      })
      await mailbox.nextFor(email) // the notice
      // Its page says so at once, before anyone types a new password.
      const page = await new Browser(config).fetch(
        `/auth/new-password/password?token=${encodeURIComponent(second)}`,
      )
      expect(new URL(page.headers.get("location")!).searchParams.get("error")).toBe("Verification")
      const stale = await post(new Browser(config), "/auth/new-password/password", {
        token: second,
        password: "yet another password",
      })
      expect(stale.location!.searchParams.get("error")).toBe("Verification")
      expect((await signIn(config, email, GOOD)).location.searchParams.get("error")).toBeNull()
    })

    it("refuses a sign-up link as a reset link and the reverse", async () => {
      const { adapter, config } = setup(strategy)
      const email = newAddress()
      await signUp(new Browser(config), { email, password: GOOD })
      const signUpToken = linkIn(await mailbox.nextFor(email)).searchParams.get("token")!
      const asReset = await new Browser(config).fetch(
        `/auth/new-password/password?token=${encodeURIComponent(signUpToken)}`,
      )
      expect(new URL(asReset.headers.get("location")!).searchParams.get("error")).toBe(
        "Verification",
      )

      const other = newAddress()
      await account(adapter, other)
      await requestReset(new Browser(config), other)
      const resetToken = linkIn(await mailbox.nextFor(other)).searchParams.get("token")!
      const asSignUp = await new Browser(config).fetch(
        `/auth/verify-email/password?token=${encodeURIComponent(resetToken)}`,
      )
      expect(new URL(asSignUp.headers.get("location")!).searchParams.get("error")).toBe(
        "Verification",
      )
    })

    it("verifies the address of an unverified account, whose old password goes", async () => {
      const { adapter, config } = setup(strategy)
      const email = newAddress()
      const user = await adapter.createUser!({
        id: crypto.randomUUID(),
        email,
        emailVerified: null,
      })
      adapter.passwords.set(user.id, await hashPassword("a squatter's password", FAST))
      await requestReset(new Browser(config), email)
      const token = linkIn(await mailbox.nextFor(email)).searchParams.get("token")!
      await post(new Browser(config), "/auth/new-password/password", { token, password: GOOD })
      expect((await adapter.getUser!(user.id))!.emailVerified).toBeInstanceOf(Date)
      expect(
        (await signIn(config, email, "a squatter's password")).location.searchParams.get("code"),
      ).toBe("credentials")
    })
  })

  describe("change", () => {
    const change = (browser: Browser, form: Record<string, string>) =>
      post(browser, "/auth/change-password/password", { callbackUrl: "/account", ...form })

    it("needs the current password; ends the other sessions and keeps this one; tells the owner", async () => {
      const { adapter, config } = setup(strategy)
      const email = newAddress()
      await account(adapter, email, "old password here")
      const { browser } = await signIn(config, email, "old password here")
      const elsewhere = (await signIn(config, email, "old password here")).browser

      const wrong = await change(browser, { currentPassword: "not it", password: GOOD })
      expect(wrong.location!.pathname).toBe("/auth/change-password")
      expect(wrong.location!.searchParams.get("code")).toBe("wrong_password")
      const weak = await change(browser, {
        currentPassword: "old password here",
        password: "short",
      })
      expect(weak.location!.searchParams.get("code")).toBe("password_too_short")

      const done = await change(browser, { currentPassword: "old password here", password: GOOD })
      expect(done.location!.href).toBe(`${ORIGIN}/account`)
      expect((await browser.session())?.user?.email).toBe(email)
      if (strategy === "database") expect(await elsewhere.session()).toBeNull()
      expect((await signIn(config, email, GOOD)).location.searchParams.get("error")).toBeNull()
      expect((await mailbox.nextFor(email)).text).toMatch(/changed/i)
    })

    it("refuses without a session, and after five tries at the current password", async () => {
      const { adapter, config } = setup(strategy)
      const email = newAddress()
      await account(adapter, email)
      const signedOut = await change(new Browser(config), {
        currentPassword: GOOD,
        password: "a new password",
      })
      expect(signedOut.location!.searchParams.get("code")).toBe("signed_out")

      const { browser } = await signIn(config, email, GOOD)
      for (let i = 0; i < 5; i++)
        await change(browser, { currentPassword: `guess ${i}`, password: "a new password" })
      const limited = await change(browser, { currentPassword: GOOD, password: "a new password" })
      expect(limited.location!.searchParams.get("code")).toBe("rate_limited")
      expect(limited.response.headers.get("retry-after")).toBe("900")
      expect((await signIn(config, email, GOOD)).location.searchParams.get("error")).toBeNull()
    })

    it("refuses a cross-site post (no CSRF token)", async () => {
      const { adapter, config } = setup(strategy)
      const email = newAddress()
      await account(adapter, email)
      const { browser } = await signIn(config, email, GOOD)
      const response = await browser.fetch("/auth/change-password/password", {
        form: { currentPassword: GOOD, password: "a new password" },
      })
      expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(
        "MissingCSRF",
      )
      expect((await signIn(config, email, GOOD)).location.searchParams.get("error")).toBeNull()
    })
  })

  describe("pages", () => {
    it("serves the sign-up, reset and change forms, and links them from the sign-in page", async () => {
      const { adapter, config } = setup(strategy)
      const browser = new Browser(config)
      const signUpPage = await browser.fetch("/auth/signup?callbackUrl=%2Fwelcome")
      expect(signUpPage.status).toBe(200)
      const html = await signUpPage.text()
      expect(html).toContain(`action="${ORIGIN}/auth/signup/password"`)
      expect(html).toContain('name="csrfToken"')
      expect(await (await browser.fetch("/auth/reset-password")).text()).toContain(
        `action="${ORIGIN}/auth/reset-password/password"`,
      )
      const signInPage = await (await browser.fetch("/auth/signin")).text()
      expect(signInPage).toContain("/auth/reset-password")
      expect(signInPage).toContain("/auth/signup")

      const away = await browser.fetch("/auth/change-password")
      expect(new URL(away.headers.get("location")!).pathname).toBe("/auth/signin")
      const email = newAddress()
      await account(adapter, email)
      const { browser: signedIn } = await signIn(config, email, GOOD)
      const changePage = await signedIn.fetch("/auth/change-password")
      expect(changePage.status).toBe(200)
      expect(await changePage.text()).toContain('name="currentPassword"')
    })

    it("shows a refusal's message on the form", async () => {
      const { config } = setup(strategy)
      const page = await new Browser(config).fetch(
        "/auth/signup?error=PasswordError&code=password_too_short",
      )
      expect(await page.text()).toMatch(/role="alert"[^]*at least 8/i)
    })

    it("sends the forms to the app's own pages when configured", async () => {
      const { config } = setup(
        strategy,
        {},
        {
          pages: { signUp: "/join", resetPassword: "/forgot", newPassword: "/reset" },
        },
      )
      const browser = new Browser(config)
      expect((await browser.fetch("/auth/signup")).headers.get("location")).toBe(`${ORIGIN}/join`)
      const refused = await signUp(browser, { email: newAddress(), password: "short" })
      expect(refused.location!.pathname).toBe("/join")
      expect(refused.location!.searchParams.get("code")).toBe("password_too_short")
    })
  })
})
