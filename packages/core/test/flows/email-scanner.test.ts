/**
 * Mailed links that survive link scanners, against a real SMTP server (smtp-server on
 * 127.0.0.1): Outlook Safe Links and other scanners open every link in a mail, so a link opens a
 * page whose button (a CSRF-checked POST) does the work, and the scanner's GET or HEAD spends
 * nothing. Also the short code a sign-in mail may carry, typed in the browser that asked: bound
 * to it, single use, expiring, and dead after 5 wrong tries. And the Password provider's
 * address-confirming link, which opens the same kind of page.
 */
import { startMailbox, type Mailbox, type ReceivedMail } from "latch-mailbox"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import { renderSignInEmail } from "../../src/pages/email.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import Password, { type PasswordOptions } from "../../src/providers/password.js"
import type { EmailUserConfig } from "../../src/providers/email.js"
import type { AuthConfig } from "../../src/types.js"
import { followLink, formOf } from "../helpers/continue-page.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { Browser, ORIGIN, testConfig } from "../helpers/request.js"

let mailbox: Mailbox
beforeAll(async () => {
  mailbox = await startMailbox()
})
afterAll(() => mailbox.close())
afterEach(() => vi.useRealTimers())

let counter = 0
/** A fresh address per test, so tests never see each other's mail or rate limits. */
const newAddress = () => `scan${++counter}-${Date.now()}@example.com`
const SERVER = { host: "127.0.0.1", port: 0, secure: false, ignoreTLS: true }
const CODE = /^[23456789ABCDEFGHJKMNPQRSTVWXYZ]+$/

function setup(
  email: EmailUserConfig = {},
  overrides: Partial<AuthConfig> = {},
): { browser: Browser; adapter: MemoryAdapter; config: AuthConfig } {
  const adapter = memoryAdapter()
  const config = testConfig({
    adapter,
    providers: [
      Nodemailer({
        server: { ...SERVER, port: mailbox.port },
        from: "Example <no-reply@example.com>",
        ...email,
      }),
    ],
    ...overrides,
  })
  return { browser: new Browser(config), adapter, config }
}

/** Posts the email form as the built-in sign-in page does. */
async function requestLink(browser: Browser, email: string) {
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch("/auth/signin/nodemailer", {
    form: { csrfToken, email, callbackUrl: "/dashboard" },
  })
  expect(new URL(response.headers.get("location")!).pathname).toBe("/auth/verify-request")
  return response
}

/** The link in a mail's text part, as a path. */
function linkIn(mail: ReceivedMail): string {
  const url = new URL(/https?:\/\/\S+/.exec(mail.text ?? "")![0])
  return `${url.pathname}${url.search}`
}

/** The code in a mail's text part: the line after the one that announces it. */
function codeIn(mail: ReceivedMail): string {
  const lines = (mail.text ?? "").split("\n")
  const at = lines.findIndex((line) => line.includes("enter this code"))
  expect(at).toBeGreaterThan(-1)
  return lines[at + 1]!.trim()
}

/** Asks for a link in `browser`; returns the mail. */
async function mailFor(browser: Browser, address: string): Promise<ReceivedMail> {
  await requestLink(browser, address)
  return mailbox.nextFor(address)
}

/** Types a code on the "check your email" page, as its form does. */
async function typeCode(browser: Browser, code: string, extra: Record<string, string> = {}) {
  const csrfToken = await browser.csrfToken()
  return browser.fetch("/auth/callback/nodemailer", { form: { csrfToken, code, ...extra } })
}

/** Where a refused code sends the user, and why. */
function refusal(response: Response): { path: string; error: string | null; code: string | null } {
  const location = new URL(response.headers.get("location")!)
  return {
    path: location.pathname,
    error: location.searchParams.get("error"),
    code: location.searchParams.get("code"),
  }
}

/** The code's stored records: verification tokens that are not the link's. */
const emailOf = async (browser: Browser) => (await browser.session())?.user?.email

describe("a sign-in link opened by a scanner", () => {
  it("a scanner's GET and HEAD leave the link working; the user's press of the button signs in", async () => {
    const { browser, adapter } = setup()
    const address = newAddress()
    const link = linkIn(await mailFor(browser, address))
    const use = vi.spyOn(adapter, "useVerificationToken")

    // The scanner: another machine, no cookies, a HEAD and a GET.
    const scanner = new Browser(browser.config)
    const head = await scanner.fetch(link, { method: "HEAD" })
    expect(head.status).toBe(200)
    const page = await scanner.fetch(link)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
    expect(page.headers.get("cache-control")).toMatch(/no-store/)
    expect(page.headers.get("content-security-policy")).not.toMatch(/script-src/)
    const body = await page.text()
    expect(body).toContain("<h1>Continue signing in</h1>")
    expect(body).toContain("Sign in to <strong>localhost:3000</strong>")
    expect(body).toContain(`<strong>${address}</strong>`)
    expect(body).not.toMatch(/<script/i)
    expect(use).not.toHaveBeenCalled()
    expect(adapter.tokens.size).toBe(1)
    expect(await scanner.session()).toBeNull()

    // The page's form posts the link's values back, with a CSRF token.
    const form = formOf(body)
    expect(form.action).toBe(`${ORIGIN}/auth/callback/nodemailer`)
    const url = new URL(link, ORIGIN)
    expect(form.fields).toEqual({
      csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/),
      token: url.searchParams.get("token"),
      email: address,
      callbackUrl: `${ORIGIN}/dashboard`,
    })

    // The user, later: the link still works, once.
    const response = await followLink(browser, link)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(await emailOf(browser)).toBe(address)
    expect(use).toHaveBeenCalledTimes(1)
    expect(adapter.tokens.size).toBe(0)
    const again = await followLink(new Browser(browser.config), link)
    expect(again.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
  })

  it("answers any GET with the page and looks nothing up, whatever the token", async () => {
    const { browser, adapter } = setup()
    const spies = [
      vi.spyOn(adapter, "useVerificationToken"),
      vi.spyOn(adapter, "getUserByEmail"),
      vi.spyOn(adapter, "getUserByAccount"),
    ]
    const xss = '"><script>alert(1)</script>'
    const escaped = await (
      await browser.fetch(
        `/auth/callback/nodemailer?token=${encodeURIComponent(xss)}&email=a%40b.co`,
      )
    ).text()
    expect(escaped).not.toContain("<script>")
    expect(formOf(escaped).fields.token).toBe(xss)
    for (const query of [
      "token=garbled&email=a%40example.com",
      "",
      `token=${"x".repeat(5000)}&email=${encodeURIComponent("a@b.c\r\nX: y")}`,
      `token=t&email=${encodeURIComponent('"><script>alert(1)</script>@example.com')}`,
    ]) {
      const page = await browser.fetch(`/auth/callback/nodemailer?${query}`)
      expect(page.status).toBe(200)
      const body = await page.text()
      expect(body).toContain("Continue signing in")
      expect(body).not.toContain("<script>")
    }
    for (const spy of spies) expect(spy).not.toHaveBeenCalled()
    // An address that is not one plain address is not shown.
    const odd = await (
      await browser.fetch(
        `/auth/callback/nodemailer?token=t&email=${encodeURIComponent("a,b@c.d")}`,
      )
    ).text()
    expect(odd).toContain("Sign in to <strong>localhost:3000</strong>.")
  })

  it("refuses the button's POST without a CSRF token, or with a wrong one, and spends nothing", async () => {
    const { browser, adapter } = setup()
    const address = newAddress()
    const link = linkIn(await mailFor(browser, address))
    const use = vi.spyOn(adapter, "useVerificationToken")
    const { fields } = formOf(await (await browser.fetch(link)).text())
    const { csrfToken: _, ...withoutToken } = fields

    for (const form of [withoutToken, { ...withoutToken, csrfToken: "0".repeat(64) }]) {
      const response = await browser.fetch("/auth/callback/nodemailer", { form })
      const location = new URL(response.headers.get("location")!)
      expect(location.pathname).toBe("/auth/signin")
      expect(location.searchParams.get("error")).toBe("MissingCSRF")
    }
    // A cross-site form: the token from another browser's page does not match this cookie.
    const stranger = new Browser(browser.config)
    const foreign = formOf(await (await stranger.fetch(link)).text()).fields.csrfToken!
    const crossSite = await browser.fetch("/auth/callback/nodemailer", {
      form: { ...withoutToken, csrfToken: foreign },
    })
    expect(new URL(crossSite.headers.get("location")!).searchParams.get("error")).toBe(
      "MissingCSRF",
    )
    expect(use).not.toHaveBeenCalled()
    expect(adapter.tokens.size).toBe(1)
    expect(await browser.session()).toBeNull()

    await followLink(browser, link)
    expect(await emailOf(browser)).toBe(address)
  })

  it("takes the POST without a token from an integration that checked the origin (csrfVerified)", async () => {
    const { browser, config } = setup()
    const address = newAddress()
    const link = new URL(linkIn(await mailFor(browser, address)), ORIGIN)
    const request = new Request(`${ORIGIN}/auth/callback/nodemailer`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: link.searchParams.get("token")!,
        email: address,
        callbackUrl: "/dashboard",
      }),
    })
    const response = await Auth(request, config, { csrfVerified: true })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(response.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token="))).toBe(
      true,
    )
  })

  it("with continuePage: false, signs in on the link's GET, as Auth.js does; HEAD still spends nothing", async () => {
    const { browser, adapter } = setup({ continuePage: false })
    const address = newAddress()
    const link = linkIn(await mailFor(browser, address))
    expect((await new Browser(browser.config).fetch(link, { method: "HEAD" })).status).toBe(200)
    expect(adapter.tokens.size).toBe(1)
    const response = await browser.fetch(link)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(await emailOf(browser)).toBe(address)
    expect(adapter.tokens.size).toBe(0)
    // A scanner's GET would have spent it: the user's own click then fails.
    const user = await new Browser(browser.config).fetch(link)
    expect(user.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
  })
})

describe("the code in the mail", () => {
  it("is off by default: no code in the mail, no form on the page, and a posted code is refused", async () => {
    const { browser } = setup()
    const address = newAddress()
    const mail = await mailFor(browser, address)
    expect(mail.text).not.toContain("code")
    const page = await (
      await browser.fetch("/auth/verify-request?provider=nodemailer&type=email&host=example.com")
    ).text()
    expect(page).not.toContain('name="code"')
    expect(refusal(await typeCode(browser, "ABCDEF"))).toEqual({
      path: "/auth/verify-request",
      error: "Verification",
      code: "no_request",
    })
  })

  it("signs in once with the right code in the browser that asked, where the link was headed", async () => {
    const { browser, adapter } = setup({ code: true })
    const address = newAddress()
    const mail = await mailFor(browser, address)
    const code = codeIn(mail)
    expect(code).toHaveLength(6)
    expect(code).toMatch(CODE)
    expect(mail.html).toContain(code)
    expect(mail.text).toMatch(/works once, in that browser only, until/)
    // Two records: the link's token and the code's, both hashed.
    expect([...adapter.tokens.values()].map((t) => t.identifier)).toEqual([address, address])
    for (const stored of adapter.tokens.values()) {
      expect(stored.token).toMatch(/^[0-9a-f]{64}$/)
      expect(stored.token).not.toContain(code)
    }
    const codeRecord = [...adapter.tokens.values()].sort(
      (a, b) => a.expires.getTime() - b.expires.getTime(),
    )[0]!
    expect(codeRecord.expires.getTime() - Date.now()).toBeLessThanOrEqual(600_000)
    expect(codeRecord.expires.getTime() - Date.now()).toBeGreaterThan(590_000)

    // The "check your email" page has the form.
    const page = await (
      await browser.fetch("/auth/verify-request?provider=nodemailer&type=email&host=example.com")
    ).text()
    const form = formOf(page)
    expect(form.action).toBe(`${ORIGIN}/auth/callback/nodemailer`)
    expect(form.fields.csrfToken).toMatch(/^[0-9a-f]{64}$/)
    expect(page).toContain('name="code"')
    expect(page).toContain('autocomplete="one-time-code"')

    // Typed in lower case with a space: still the code.
    const typed = `${code.slice(0, 3).toLowerCase()} ${code.slice(3)}`
    const response = await browser.fetch(form.action, {
      form: { ...form.fields, code: typed },
    })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(await emailOf(browser)).toBe(address)
    const user = await adapter.getUserByEmail!(address)
    expect(user!.emailVerified).toBeInstanceOf(Date)
    expect([...adapter.accounts.values()]).toEqual([
      expect.objectContaining({
        type: "email",
        provider: "nodemailer",
        providerAccountId: address,
      }),
    ])
    expect(adapter.tokens.size).toBe(1) // the link's: it stays a link of its own

    // Once: the request is forgotten, and the code with it.
    expect(refusal(await typeCode(browser, code)).code).toBe("no_request")
  })

  it("dies after 5 wrong codes: the right one is refused then", async () => {
    const { browser, adapter } = setup({ code: true })
    const address = newAddress()
    const code = codeIn(await mailFor(browser, address))
    const wrong = code === "222222" ? "333333" : "222222"
    for (let i = 0; i < 5; i++) {
      expect(refusal(await typeCode(browser, i === 2 ? "not a code!" : wrong))).toEqual({
        path: "/auth/verify-request",
        error: "Verification",
        code: "wrong_code",
      })
    }
    const dead = await typeCode(browser, code)
    expect(refusal(dead)).toEqual({
      path: "/auth/verify-request",
      error: "Verification",
      code: "too_many_attempts",
    })
    expect(await browser.session()).toBeNull()
    // The page says so, and offers a new mail.
    const page = await (await browser.fetch(dead.headers.get("location")!)).text()
    expect(page).toContain("Too many wrong codes")
    expect(page).toContain(`href="${ORIGIN}/auth/signin"`)
    // The tries are counted under a key that hides what it counts.
    const keys = [...adapter.counters.keys()].filter((key) => key.startsWith("email:code:"))
    expect(keys).toHaveLength(1)
    expect(keys[0]).toMatch(/^email:code:nodemailer:[0-9a-f]{64}$/)
    expect(adapter.counters.get(keys[0]!)!.count).toBe(6)
  })

  it("lets the right code through after fewer than 5 wrong ones", async () => {
    const { browser } = setup({ code: true })
    const address = newAddress()
    const code = codeIn(await mailFor(browser, address))
    const wrong = code === "222222" ? "333333" : "222222"
    for (let i = 0; i < 4; i++) await typeCode(browser, wrong)
    const response = await typeCode(browser, code)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(await emailOf(browser)).toBe(address)
  })

  it("refuses the code in another browser, which counts no try, and keeps it working where it was asked", async () => {
    const { browser, adapter } = setup({ code: true })
    const address = newAddress()
    const code = codeIn(await mailFor(browser, address))
    const elsewhere = new Browser(browser.config)
    for (let i = 0; i < 6; i++) {
      expect(refusal(await typeCode(elsewhere, code)).code).toBe("no_request")
    }
    expect(await elsewhere.session()).toBeNull()
    expect(adapter.tokens.size).toBe(2)
    // Copying the request cookie of another deployment does not help either.
    const foreign = new Browser({
      ...browser.config,
      secret: "another-deployment-secret-that-is-long-enough",
    })
    await requestLink(foreign, address)
    await mailbox.nextFor(address)
    elsewhere.cookies.set("latch.email-request", foreign.cookies.get("latch.email-request")!)
    expect(refusal(await typeCode(elsewhere, code)).code).toBe("no_request")

    await typeCode(browser, code)
    expect(await emailOf(browser)).toBe(address)
  })

  it("switches a browser signed in as another user, attaching nothing to that user", async () => {
    const { browser, adapter } = setup({ code: true })
    const other = newAddress()
    await followLink(browser, linkIn(await mailFor(browser, other)))
    expect(await emailOf(browser)).toBe(other)
    const mine = newAddress()
    const code = codeIn(await mailFor(browser, mine))
    const response = await typeCode(browser, code)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(await emailOf(browser)).toBe(mine)
    const otherId = (await adapter.getUserByEmail!(other))!.id
    const theirs = [...adapter.accounts.values()].filter((account) => account.userId === otherId)
    expect(theirs.map((account) => account.providerAccountId)).toEqual([other])
  })

  it("refuses the code without a CSRF token, counting no try", async () => {
    const { browser, adapter } = setup({ code: true })
    const address = newAddress()
    const code = codeIn(await mailFor(browser, address))
    const response = await browser.fetch("/auth/callback/nodemailer", { form: { code } })
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
    expect([...adapter.counters.keys()].some((key) => key.startsWith("email:code:"))).toBe(false)
    await typeCode(browser, code)
    expect(await emailOf(browser)).toBe(address)
  })

  it("refuses an expired code, after its own maxAge, while the link still works", async () => {
    const { browser } = setup({ code: { maxAge: 60 } })
    const address = newAddress()
    const mail = await mailFor(browser, address)
    const code = codeIn(mail)
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 })
    expect(refusal(await typeCode(browser, code))).toEqual({
      path: "/auth/verify-request",
      error: "Verification",
      code: "expired",
    })
    expect(await browser.session()).toBeNull()
    await followLink(browser, linkIn(mail))
    expect(await emailOf(browser)).toBe(address)
  })

  it("never outlives the link", async () => {
    const { browser, adapter } = setup({ code: { maxAge: 3600 }, maxAge: 120 })
    await mailFor(browser, newAddress())
    for (const stored of adapter.tokens.values()) {
      expect(stored.expires.getTime() - Date.now()).toBeLessThanOrEqual(120_000)
    }
  })

  it("has the configured length, and a used link ends the request in the browser that asked", async () => {
    const { browser } = setup({ code: { length: 8 } })
    const address = newAddress()
    const mail = await mailFor(browser, address)
    const code = codeIn(mail)
    expect(code).toHaveLength(8)
    expect(code).toMatch(CODE)
    await followLink(browser, linkIn(mail))
    expect(await emailOf(browser)).toBe(address)
    expect(refusal(await typeCode(browser, code)).code).toBe("no_request")
  })

  it("shows why a code was refused on the page, and sends a custom page the same", async () => {
    const { browser } = setup({ code: true })
    const page = await (
      await browser.fetch(
        "/auth/verify-request?provider=nodemailer&type=email&error=Verification&code=wrong_code",
      )
    ).text()
    expect(page).toContain('role="alert"')
    expect(page).toContain("That code is not right")
    expect(page).toContain('name="code"')

    const custom = setup({ code: true }, { pages: { verifyRequest: "/check-email" } })
    const address = newAddress()
    const asked = await custom.browser.fetch("/auth/signin/nodemailer", {
      form: { csrfToken: await custom.browser.csrfToken(), email: address },
    })
    expect(new URL(asked.headers.get("location")!).pathname).toBe("/check-email")
    await mailbox.nextFor(address)
    const response = await typeCode(custom.browser, "222222")
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/check-email")
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      provider: "nodemailer",
      type: "email",
      error: "Verification",
      code: "wrong_code",
    })
  })

  it("answers a rate-limited request as a sent one: the same form, every code wrong", async () => {
    const { browser } = setup({ code: true, rateLimit: { perAddress: 1 } })
    const address = newAddress()
    const first = codeIn(await mailFor(browser, address))
    const over = await requestLink(browser, address)
    expect(over.headers.getSetCookie().some((c) => c.startsWith("latch.email-request="))).toBe(true)
    await expect(mailbox.nextFor(address, 300)).rejects.toThrow(/no mail/)
    // The new request replaced the old one in this browser: the first code no longer matches.
    expect(refusal(await typeCode(browser, first)).code).toBe("wrong_code")
  })

  it("is refused at start-up with a length outside 6 to 8 or a bad maxAge", async () => {
    for (const code of [{ length: 5 }, { length: 9 }, { length: 6.5 }, { maxAge: -1 }, "yes"]) {
      const errors: Error[] = []
      const { config } = setup(
        { code: code as never },
        {
          logger: { error: (error) => errors.push(error), warn() {}, debug() {} },
        },
      )
      const response = await Auth(new Request(`${ORIGIN}/auth/providers`), config)
      expect(response.status).toBe(500)
      expect(errors[0]!.name).toBe("InvalidProvider")
      expect(errors[0]!.message).toContain(".code of")
    }
  })

  it("is in the shared template of the mail API providers, text and HTML", () => {
    const expires = new Date(Date.now() + 86_400_000)
    const mail = renderSignInEmail({
      url: "https://example.com/auth/callback/resend?token=t",
      host: "example.com",
      expires,
      code: "K7MQ2X",
      codeExpires: new Date(Date.now() + 600_000),
    })
    expect(mail.text).toContain("\nK7MQ2X\n")
    expect(mail.html).toContain("K7MQ2X")
    expect(mail.text).toContain("without the link or the code")
    const without = renderSignInEmail({
      url: "https://example.com/x",
      host: "example.com",
      expires,
    })
    expect(without.text).not.toContain("code")
  })
})

describe("a Password account's confirming link opened by a scanner", () => {
  const FAST = { ln: 10, r: 8, p: 1 }
  const GOOD = "correct horse battery"

  function passwordSetup(options: PasswordOptions = {}) {
    const adapter = memoryAdapter()
    const config = testConfig({
      adapter,
      providers: [
        Password({ scrypt: FAST, ...options }),
        Nodemailer({ server: { ...SERVER, port: mailbox.port }, from: "no-reply@example.com" }),
      ],
    })
    return { adapter, config }
  }

  /** Signs up in a browser of its own; the link mailed, and that browser. */
  async function signUp(config: AuthConfig, email: string) {
    const browser = new Browser(config)
    const csrfToken = await browser.csrfToken()
    await browser.fetch("/auth/signup/password", {
      form: { csrfToken, email, password: GOOD, callbackUrl: "/welcome" },
    })
    return { link: linkIn(await mailbox.nextFor(email)), browser }
  }

  it("a scanner's GET and HEAD create nothing; the user's press of the button confirms and signs in", async () => {
    const { adapter, config } = passwordSetup()
    const email = newAddress()
    const { link, browser } = await signUp(config, email)
    expect(link).toMatch(/^\/auth\/verify-email\/password\?token=/)
    const use = vi.spyOn(adapter, "useVerificationToken")

    const scanner = new Browser(config)
    expect((await scanner.fetch(link, { method: "HEAD" })).status).toBe(200)
    const page = await scanner.fetch(link)
    expect(page.status).toBe(200)
    const body = await page.text()
    expect(body).toContain("<h1>Confirm your address</h1>")
    expect(body).toContain(`<strong>${email}</strong>`)
    expect(body).toContain("<strong>localhost:3000</strong>")
    // Not the browser that signed up: the page asks for the password chosen then.
    expect(body).toContain('name="password"')
    const form = formOf(body)
    expect(form.action).toBe(`${ORIGIN}/auth/verify-email/password`)
    expect(Object.keys(form.fields).sort()).toEqual(["csrfToken", "token"])
    // Pressing the button without it creates nothing either.
    const pressed = await scanner.fetch(form.action, { form: form.fields })
    expect(new URL(pressed.headers.get("location")!).searchParams.get("code")).toBe(
      "password_required",
    )
    expect(use).not.toHaveBeenCalled()
    expect(await adapter.getUserByEmail!(email)).toBeNull()

    // In the browser that signed up, one press.
    const own = await browser.fetch(link)
    expect(await own.text()).not.toContain('name="password"')
    const response = await followLink(browser, link)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/welcome`)
    expect(await emailOf(browser)).toBe(email)
    expect((await adapter.getUserByEmail!(email))!.emailVerified).toBeInstanceOf(Date)
    // Once.
    const again = await followLink(new Browser(config), link, { password: GOOD })
    expect(new URL(again.headers.get("location")!).searchParams.get("error")).toBe("Verification")
  })

  it("refuses the button's POST without a CSRF token, and spends nothing", async () => {
    const { adapter, config } = passwordSetup()
    const email = newAddress()
    const { link, browser } = await signUp(config, email)
    const { fields } = formOf(await (await browser.fetch(link)).text())
    const response = await browser.fetch("/auth/verify-email/password", {
      form: { token: fields.token! },
    })
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
    expect(await adapter.getUserByEmail!(email)).toBeNull()
    await followLink(browser, link)
    expect(await emailOf(browser)).toBe(email)
  })

  it("with continuePage: false, confirms on the GET of the browser that signed up only", async () => {
    const { adapter, config } = passwordSetup({ continuePage: false })
    const email = newAddress()
    const { link, browser } = await signUp(config, email)
    // A scanner's GET gets the page, which asks for the password.
    const scanned = await new Browser(config).fetch(link)
    expect(scanned.status).toBe(200)
    expect(await scanned.text()).toContain('name="password"')
    expect(await adapter.getUserByEmail!(email)).toBeNull()
    const response = await browser.fetch(link)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/welcome`)
    expect(await emailOf(browser)).toBe(email)
    expect(await adapter.getUserByEmail!(email)).not.toBeNull()
  })
})
