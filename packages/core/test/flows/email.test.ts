/**
 * Email sign-in against a real SMTP server (smtp-server on 127.0.0.1): the mail that arrives,
 * the link that signs in once, and everything that must not sign in or send.
 */
import { startMailbox, type Mailbox, type ReceivedMail } from "latch-mailbox"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { Auth, setEnvDefaults } from "../../src/index.js"
import Email from "../../src/providers/email.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import type { EmailUserConfig } from "../../src/providers/email.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { followLink } from "../helpers/continue-page.js"
import { Browser, ORIGIN, SECRET, storedTokenOf, testConfig } from "../helpers/request.js"

let mailbox: Mailbox
beforeAll(async () => {
  mailbox = await startMailbox()
})
afterAll(() => mailbox.close())
afterEach(() => vi.useRealTimers())

let counter = 0
/** A fresh address per test, so tests never see each other's mail or rate limits. */
const newAddress = () => `user${++counter}-${Date.now()}@example.com`
const FROM = "Example <no-reply@example.com>"

function setup(
  email: EmailUserConfig = {},
  overrides: Partial<AuthConfig> = {},
): {
  browser: Browser
  adapter: MemoryAdapter
  config: AuthConfig
  events: Record<"createUser" | "linkAccount" | "signIn" | "updateUser", ReturnType<typeof vi.fn>>
  signInCallback: ReturnType<typeof vi.fn>
} {
  const adapter = memoryAdapter()
  const events = {
    createUser: vi.fn(),
    linkAccount: vi.fn(),
    signIn: vi.fn(),
    updateUser: vi.fn(),
  }
  const signInCallback = vi.fn(() => true)
  const config = testConfig({
    adapter,
    providers: [
      Nodemailer({
        server: { host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true },
        from: FROM,
        ...email,
      }),
    ],
    events,
    callbacks: { signIn: signInCallback },
    ...overrides,
  })
  return { browser: new Browser(config), adapter, config, events, signInCallback }
}

/** Posts the email form as the built-in sign-in page does. */
async function requestLink(
  browser: Browser,
  email: string,
  extra: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const csrfToken = await browser.csrfToken()
  return browser.fetch("/auth/signin/nodemailer", {
    form: { csrfToken, email, callbackUrl: "/dashboard", ...extra },
    headers,
  })
}

/** The sign-in link in a mail's text part. */
function linkIn(mail: ReceivedMail): URL {
  const match = /https?:\/\/\S+/.exec(mail.text ?? "")
  expect(match).not.toBeNull()
  return new URL(match![0])
}

const path = (url: URL) => `${url.pathname}${url.search}`

describe("asking for a link", () => {
  it("sends one mail with a text and an HTML part, and shows the verify-request page", async () => {
    const { browser } = setup()
    const address = newAddress()
    const response = await requestLink(browser, `  ${address.toUpperCase()} `)
    expect(response.status).toBe(302)
    const next = new URL(response.headers.get("location")!)
    expect(next.pathname).toBe("/auth/verify-request")
    expect(Object.fromEntries(next.searchParams)).toEqual({
      provider: "nodemailer",
      type: "email",
      host: "example.com",
    })

    const mail = await mailbox.nextFor(address)
    expect(mail.envelope.to).toEqual([address])
    expect(mail.to).toBe(address)
    expect(mail.from).toBe(FROM)
    expect(mail.subject).toBe("Sign in to localhost:3000")
    const link = linkIn(mail)
    expect(link.origin).toBe(ORIGIN)
    expect(link.pathname).toBe("/auth/callback/nodemailer")
    expect(link.searchParams.get("email")).toBe(address)
    expect(link.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`)
    expect(link.searchParams.get("token")).toMatch(/^[\w-]{43}$/)
    expect(mail.text).toContain("Sign in to localhost:3000")
    const href = /href="([^"]+)"/.exec(mail.html ?? "")![1]!
    expect(href.replace(/&amp;/g, "&").replace(/&#61;/g, "=")).toBe(link.href)
    expect(mail.html).toContain("localhost:3000")
    expect(mail.html).not.toMatch(/<script/i)

    const page = await browser.fetch(path(next))
    const body = await page.text()
    expect(page.status).toBe(200)
    expect(body).toContain("Check your email")
    expect(body).toContain("<strong>example.com</strong>")
    expect(body).not.toContain(address)
  })

  it("stores only the token's hash, expiring after maxAge", async () => {
    const { browser, adapter } = setup({ maxAge: 600 })
    const address = newAddress()
    const before = Date.now()
    await requestLink(browser, address)
    const token = linkIn(await mailbox.nextFor(address)).searchParams.get("token")!
    const stored = [...adapter.tokens.values()]
    expect(stored).toHaveLength(1)
    expect(stored[0]!.identifier).toBe(address)
    expect(stored[0]!.token).toMatch(/^[0-9a-f]{64}$/)
    expect(stored[0]!.token).not.toContain(token)
    const expires = stored[0]!.expires.getTime()
    expect(expires).toBeGreaterThanOrEqual(before + 600_000)
    expect(expires).toBeLessThanOrEqual(Date.now() + 600_000)
  })

  it("asks the signIn callback with email.verificationRequest; false sends nothing", async () => {
    const { browser, signInCallback, adapter } = setup()
    signInCallback.mockReturnValue(false)
    const address = newAddress()
    const response = await requestLink(browser, address)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    expect(signInCallback).toHaveBeenCalledWith(
      expect.objectContaining({
        email: { verificationRequest: true },
        user: expect.objectContaining({ email: address }),
        account: expect.objectContaining({ type: "email", providerAccountId: address }),
      }),
    )
    await expect(mailbox.nextFor(address, 300)).rejects.toThrow(/no mail/)
    expect(adapter.tokens.size).toBe(0)
  })

  it("sends the user to a URL the signIn callback returns, with no mail and no token", async () => {
    const { browser, signInCallback, adapter } = setup()
    signInCallback.mockReturnValue("/not-allowed?reason=closed")
    const address = newAddress()
    const response = await requestLink(browser, address)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/not-allowed?reason=closed`)
    expect(signInCallback).toHaveBeenCalledWith(
      expect.objectContaining({ email: { verificationRequest: true } }),
    )
    await expect(mailbox.nextFor(address, 300)).rejects.toThrow(/no mail/)
    expect(adapter.tokens.size).toBe(0)

    // For a browser client, the same URL as JSON.
    const json = await requestLink(browser, address, {}, { "X-Auth-Return-Redirect": "1" })
    expect(await json.json()).toEqual({ url: `${ORIGIN}/not-allowed?reason=closed` })
  })

  it("passes that URL through the redirect callback: another site's URL becomes the origin", async () => {
    const { browser, signInCallback, adapter } = setup()
    signInCallback.mockReturnValue("https://elsewhere.example/phish")
    const address = newAddress()
    const response = await requestLink(browser, address)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`)
    await expect(mailbox.nextFor(address, 300)).rejects.toThrow(/no mail/)
    expect(adapter.tokens.size).toBe(0)
  })

  it.each([
    ["two addresses", "a@example.com,b@example.com"],
    ["two addresses with a space", "a@example.com b@example.com"],
    ["a semicolon list", "a@example.com;b@example.com"],
    ["several @", "a@b@example.com"],
    ["a display name", "Alice <a@example.com>"],
    ["angle brackets", "<a@example.com>"],
    ["a quoted local part", '"a b"@example.com'],
    ["a CRLF header injection", "a@example.com\r\nBcc: victim@example.com"],
    ["a bare LF", "a@example.com\nBcc: victim@example.com"],
    ["a NUL", "a@example.com\u0000"],
    ["a control character", "a\u0007@example.com"],
    ["a zero-width space", "a\u200b@example.com"],
    ["a zero-width joiner", "a@exa\u200dmple.com"],
    ["a bidi override", "a@example.com\u202egpj"],
    ["a bidi isolate", "\u2066a@example.com"],
    ["a BOM inside", "a\ufeff@example.com"],
    ["a comment", "a(comment)@example.com"],
    ["no domain dot", "a@localhost"],
    ["an IP literal", "a@[127.0.0.1]"],
    ["no local part", "@example.com"],
    ["no @", "example.com"],
    ["a leading dot", ".a@example.com"],
    ["two dots", "a..b@example.com"],
    ["a hyphen-edged label", "a@-example.com"],
    ["an empty string", ""],
    ["255 characters", `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(62)}`],
    ["a 65-character local part", `${"a".repeat(65)}@example.com`],
  ])("refuses %s: EmailSignin, no mail, nothing stored", async (_, input) => {
    const { browser, adapter, signInCallback } = setup()
    const before = mailbox.messages.length
    const response = await requestLink(browser, input)
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("EmailSignin")
    expect(adapter.tokens.size).toBe(0)
    expect(adapter.counters.size).toBe(0)
    expect(signInCallback).not.toHaveBeenCalled()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(mailbox.messages.length).toBe(before)
  })

  it("accepts plain addresses with the characters they may have", async () => {
    const { browser } = setup()
    for (const address of [
      `o'brien+tag-${Date.now()}@sub.example.co.uk`,
      `ünïcode${Date.now()}@exämple.com`,
    ]) {
      const response = await requestLink(browser, address)
      expect(new URL(response.headers.get("location")!).pathname).toBe("/auth/verify-request")
      await mailbox.nextFor(address)
    }
  })

  it("refuses an email field that is not a string, and a missing one", async () => {
    const { browser } = setup()
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/signin/nodemailer", {
      json: { csrfToken, email: ["a@example.com", "b@example.com"] },
    })
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("EmailSignin")
    const missing = await browser.fetch("/auth/signin/nodemailer", { form: { csrfToken } })
    expect(new URL(missing.headers.get("location")!).searchParams.get("error")).toBe("EmailSignin")
  })

  it("checks what a custom normalizeIdentifier returns, and turns its throw into EmailSignin", async () => {
    const lenient = setup({ normalizeIdentifier: (value) => value })
    const injected = await requestLink(lenient.browser, "a@example.com\r\nBcc: x@example.com")
    expect(new URL(injected.headers.get("location")!).searchParams.get("error")).toBe("EmailSignin")

    const strict = setup({
      normalizeIdentifier: (value) => {
        if (!value.endsWith("@example.com")) throw new Error("only example.com")
        return value.trim()
      },
    })
    const refused = await requestLink(strict.browser, "a@other.example")
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("EmailSignin")
    expect(strict.adapter.tokens.size).toBe(0)
  })

  it("requires the CSRF token", async () => {
    const { browser, adapter } = setup()
    const response = await browser.fetch("/auth/signin/nodemailer", {
      form: { email: newAddress() },
    })
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
    expect(adapter.tokens.size).toBe(0)
  })

  it("reports a mail that cannot be sent as EmailSignin, with nothing leaked", async () => {
    const errors: Error[] = []
    const { browser } = setup(
      { server: { host: "127.0.0.1", port: 9, secure: false, connectionTimeout: 2_000 } },
      { logger: { error: (error) => errors.push(error), warn() {}, debug() {} } },
    )
    const response = await requestLink(browser, newAddress())
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("EmailSignin")
    expect(errors.map((error) => error.name)).toEqual(["EmailSignInError"])
  })

  it("logs a mail server that is down once a minute, with how many failed meanwhile", async () => {
    const errors: Error[] = []
    const { browser } = setup(
      {
        sendVerificationRequest: () => {
          throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:2525"), {
            code: "ECONNREFUSED",
          })
        },
      },
      { logger: { error: (error) => errors.push(error), warn() {}, debug() {} } },
    )
    vi.useFakeTimers({ now: Date.parse("2030-01-01T00:00:00Z"), toFake: ["Date"] })
    try {
      for (let i = 0; i < 4; i++) {
        const response = await requestLink(browser, newAddress())
        expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(
          "EmailSignin",
        )
      }
      expect(errors.map((error) => error.message)).toEqual([
        'Sending the sign-in link with "nodemailer" failed',
      ])
      vi.setSystemTime(Date.parse("2030-01-01T00:01:01Z"))
      await requestLink(browser, newAddress())
      expect(errors).toHaveLength(2)
      expect(errors[1]!.message).toBe(
        'Sending the sign-in link with "nodemailer" failed (and 3 more like it since it was last logged)',
      )
      expect(errors[1]!.name).toBe("EmailSignInError")
    } finally {
      vi.useRealTimers()
    }
  })

  it("runs a custom sendVerificationRequest with every parameter", async () => {
    const send = vi.fn()
    const theme = { brandColor: "#112233" }
    const browser = new Browser(
      testConfig({
        adapter: memoryAdapter(),
        theme,
        providers: [Email({ sendVerificationRequest: send, from: FROM, maxAge: 60 })],
      }),
    )
    const csrfToken = await browser.csrfToken()
    await browser.fetch("/auth/signin/email", { form: { csrfToken, email: "x@example.com" } })
    expect(send).toHaveBeenCalledTimes(1)
    const params = send.mock.calls[0]![0]
    expect(params.identifier).toBe("x@example.com")
    expect(params.url).toMatch(/^http:\/\/localhost:3000\/auth\/callback\/email\?/)
    expect(new URL(params.url).searchParams.get("token")).toBe(params.token)
    expect(params.expires).toBeInstanceOf(Date)
    expect(params.expires.getTime() - Date.now()).toBeLessThanOrEqual(60_000)
    expect(params.provider).toMatchObject({ id: "email", type: "email", from: FROM })
    expect(params.theme).toEqual(theme)
    expect(params.request).toBeInstanceOf(Request)
  })

  it("uses generateVerificationToken", async () => {
    const { browser } = setup({ generateVerificationToken: () => "my-own-token-0123456789" })
    const address = newAddress()
    await requestLink(browser, address)
    expect(linkIn(await mailbox.nextFor(address)).searchParams.get("token")).toBe(
      "my-own-token-0123456789",
    )
  })
})

describe("following the link", () => {
  it("signs a new user in once: user created with emailVerified, email account linked", async () => {
    const { browser, adapter, events, signInCallback } = setup()
    const address = newAddress()
    await requestLink(browser, address)
    const link = linkIn(await mailbox.nextFor(address))

    const response = await followLink(browser, path(link))
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    const session = await browser.session()
    expect(session?.user?.email).toBe(address)

    const user = [...adapter.users.values()].find((stored) => stored.email === address)!
    expect(user.emailVerified).toBeInstanceOf(Date)
    expect([...adapter.accounts.values()]).toEqual([
      expect.objectContaining({
        userId: user.id,
        type: "email",
        provider: "nodemailer",
        providerAccountId: address,
      }),
    ])
    expect(events.createUser).toHaveBeenCalledTimes(1)
    expect(events.linkAccount).toHaveBeenCalledTimes(1)
    expect(events.signIn).toHaveBeenCalledWith(expect.objectContaining({ isNewUser: true }))
    // The second call of the signIn callback, on the link, has no verificationRequest.
    expect(signInCallback).toHaveBeenCalledTimes(2)
    expect(signInCallback.mock.calls[1]![0].email).toBeUndefined()
    expect(adapter.tokens.size).toBe(0)

    // The same link again: used up.
    const again = new Browser(browser.config)
    const second = await followLink(again, path(link))
    expect(second.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    expect(await again.session()).toBeNull()
  })

  it("signs in with JWT sessions too", async () => {
    const { browser } = setup({}, { session: { strategy: "jwt" } })
    const address = newAddress()
    await requestLink(browser, address)
    const link = linkIn(await mailbox.nextFor(address))
    await followLink(browser, path(link))
    expect((await browser.session())?.user?.email).toBe(address)
    expect([...browser.cookies.keys()]).toContain("authjs.session-token")
  })

  it("discards a password set before the address was proven, keeps one set after (pre-hijacking)", async () => {
    const { browser, adapter } = setup()
    // Someone signed up with this address and a password of theirs; the address is unproven.
    const address = newAddress()
    adapter.createUser!({ id: "claimed", email: address, emailVerified: null })
    adapter.passwords.set(
      "claimed",
      "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U",
    )
    // The owner signs in by link: the address is theirs, the password was not.
    await requestLink(browser, address)
    await followLink(browser, path(linkIn(await mailbox.nextFor(address))))
    expect((await browser.session())?.user?.email).toBe(address)
    expect(adapter.users.get("claimed")!.emailVerified).toBeInstanceOf(Date)
    expect(adapter.passwords.has("claimed")).toBe(false)
    // …and is told what went (an account change like any other).
    const notice = await mailbox.nextFor(address)
    expect(notice.subject).toMatch(/^Your address was confirmed on /)
    expect(notice.text).toContain("the password")

    // A verified account's own password stays through later link sign-ins.
    adapter.passwords.set("claimed", "$scrypt$ln=10,r=8,p=1$own")
    const other = new Browser(browser.config)
    await requestLink(other, address)
    await followLink(other, path(linkIn(await mailbox.nextFor(address))))
    expect((await other.session())?.user?.email).toBe(address)
    expect(adapter.passwords.get("claimed")).toBe("$scrypt$ln=10,r=8,p=1$own")
  })

  it("signs an existing user in, marking the address verified, without creating one", async () => {
    const { browser, adapter, events } = setup()
    const address = newAddress()
    adapter.createUser!({ id: "existing", email: address, emailVerified: null, name: "Eve" })
    await requestLink(browser, address)
    await followLink(browser, path(linkIn(await mailbox.nextFor(address))))
    expect((await browser.session())?.user).toMatchObject({ email: address, name: "Eve" })
    expect(adapter.users.size).toBe(1)
    expect(adapter.users.get("existing")!.emailVerified).toBeInstanceOf(Date)
    expect(events.createUser).not.toHaveBeenCalled()
    expect(events.updateUser).toHaveBeenCalledTimes(1)
    // A second sign-in finds the user by the linked account and links nothing new.
    await browser.fetch("/auth/signout", { form: { csrfToken: await browser.csrfToken() } })
    await requestLink(browser, address)
    await followLink(browser, path(linkIn(await mailbox.nextFor(address))))
    expect(adapter.accounts.size).toBe(1)
    expect(events.linkAccount).toHaveBeenCalledTimes(1)
  })

  it("refuses an expired link", async () => {
    const { browser } = setup({ maxAge: 60 })
    const address = newAddress()
    await requestLink(browser, address)
    const link = linkIn(await mailbox.nextFor(address))
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 })
    const response = await followLink(browser, path(link))
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    expect(await browser.session()).toBeNull()
  })

  it("refuses a token presented for another address, and leaves it usable by its own", async () => {
    const { browser } = setup()
    const address = newAddress()
    await requestLink(browser, address)
    const link = linkIn(await mailbox.nextFor(address))
    const forged = new URL(link)
    forged.searchParams.set("email", "attacker@example.com")
    const response = await followLink(browser, path(forged))
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    expect(await browser.session()).toBeNull()
    await followLink(browser, path(link))
    expect((await browser.session())?.user?.email).toBe(address)
  })

  it("refuses a record the adapter returns for another token or address", async () => {
    const { browser, adapter } = setup()
    const address = newAddress()
    await requestLink(browser, address)
    const link = linkIn(await mailbox.nextFor(address))
    // An adapter that finds tokens by identifier only (a bug): it hands back someone's token.
    const [stored] = [...adapter.tokens.values()]
    adapter.useVerificationToken = () => ({ ...stored!, token: "0".repeat(64) })
    expect((await followLink(browser, path(link))).headers.get("location")).toBe(
      `${ORIGIN}/auth/error?error=Verification`,
    )
    adapter.useVerificationToken = () => ({ ...stored!, identifier: "other@example.com" })
    expect((await followLink(browser, path(link))).headers.get("location")).toBe(
      `${ORIGIN}/auth/error?error=Verification`,
    )
    expect(await browser.session()).toBeNull()
  })

  it.each([
    ["no token", (link: URL) => link.searchParams.delete("token")],
    ["no email", (link: URL) => link.searchParams.delete("email")],
    ["a garbled token", (link: URL) => link.searchParams.set("token", "garbled")],
    ["a huge token", (link: URL) => link.searchParams.set("token", "x".repeat(10_000))],
    ["an injected email", (link: URL) => link.searchParams.set("email", "a@b.c\r\nX: y")],
  ])("answers %s with Verification", async (_, garble) => {
    const { browser } = setup()
    const address = newAddress()
    await requestLink(browser, address)
    const link = linkIn(await mailbox.nextFor(address))
    garble(link)
    const response = await followLink(browser, path(link))
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    expect(await browser.session()).toBeNull()
  })

  it("lets HEAD requests (link scanners) through without using the token", async () => {
    const { browser } = setup()
    const address = newAddress()
    await requestLink(browser, address)
    const link = linkIn(await mailbox.nextFor(address))
    const head = await browser.fetch(path(link), { method: "HEAD" })
    expect(head.status).toBe(200)
    await followLink(browser, path(link))
    expect((await browser.session())?.user?.email).toBe(address)
  })

  it("does not let a signed-in user take over another user's address", async () => {
    const { browser, adapter, config } = setup()
    const victim = newAddress()
    adapter.createUser!({ id: "victim", email: victim, emailVerified: new Date() })
    adapter.createUser!({ id: "attacker", email: "attacker@example.com", emailVerified: null })
    adapter.sessions.set(storedTokenOf("attacker-session"), {
      sessionToken: storedTokenOf("attacker-session"),
      userId: "attacker",
      expires: new Date(Date.now() + 60_000),
    })
    // The link was asked for elsewhere (the victim's own browser), not in this one.
    await requestLink(new Browser(config), victim)
    const link = linkIn(await mailbox.nextFor(victim))
    browser.cookies.set("authjs.session-token", "attacker-session")
    const response = await followLink(browser, path(link))
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(
      "AccountNotLinked",
    )
    expect(adapter.accounts.size).toBe(0)
    expect(adapter.sessions.has(storedTokenOf("attacker-session"))).toBe(true)
  })

  it("switches a browser that asked for the link to the link's user, attaching nothing to the other", async () => {
    const { browser, adapter } = setup()
    const owner = newAddress()
    adapter.createUser!({ id: "owner", email: owner, emailVerified: new Date() })
    adapter.createUser!({ id: "other", email: "other@example.com", emailVerified: null })
    adapter.sessions.set("other-session", {
      sessionToken: "other-session",
      userId: "other",
      expires: new Date(Date.now() + 60_000),
    })
    browser.cookies.set("authjs.session-token", "other-session")
    await requestLink(browser, owner)
    const link = linkIn(await mailbox.nextFor(owner))
    const response = await followLink(browser, path(link))
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect((await browser.session())?.user?.email).toBe(owner)
    expect(browser.cookies.get("authjs.session-token")).not.toBe("other-session")
    expect(adapter.sessions.has("other-session")).toBe(false)
    // The address's account belongs to its owner; the other user got nothing.
    expect([...adapter.accounts.values()].map((a) => [a.userId, a.providerAccountId])).toEqual([
      ["owner", owner],
    ])
  })

  it("accepts a link made before the secret was rotated", async () => {
    const { browser, config } = setup()
    const address = newAddress()
    await requestLink(browser, address)
    const link = linkIn(await mailbox.nextFor(address))
    const rotated = new Browser({
      ...config,
      secret: ["a-brand-new-secret-that-is-long-enough-0123", SECRET],
    })
    await followLink(rotated, path(link))
    expect((await rotated.session())?.user?.email).toBe(address)
  })

  it("opens a link with GET and HEAD, redeems it with POST, and answers nothing else", async () => {
    const { browser } = setup()
    const response = await browser.fetch("/auth/callback/nodemailer?token=x&email=a@example.com", {
      method: "PUT",
    })
    expect(response.status).toBe(405)
    expect(response.headers.get("allow")).toBe("GET, HEAD, POST")
  })
})

describe("rate limits", () => {
  it("sends at most perAddress links per window, then shows the same page without sending", async () => {
    const { browser, adapter } = setup({ rateLimit: { perAddress: 2, window: 60 } })
    const address = newAddress()
    const locations: string[] = []
    for (let i = 0; i < 4; i++) {
      locations.push((await requestLink(browser, address)).headers.get("location")!)
    }
    expect(new Set(locations).size).toBe(1)
    expect(new URL(locations[0]!).pathname).toBe("/auth/verify-request")
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(mailbox.to(address)).toHaveLength(2)
    expect(adapter.tokens.size).toBe(2)
    // Another address is not limited by this one.
    const other = newAddress()
    await requestLink(browser, other)
    await mailbox.nextFor(other)
    // The window passes: sending works again.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 })
    await requestLink(browser, address)
    vi.useRealTimers()
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(mailbox.to(address)).toHaveLength(3)
  })

  it("with sayWhenReached, says so on the page: the same for an address with an account", async () => {
    const { browser, adapter } = setup({
      rateLimit: { perAddress: 2, window: 300, sayWhenReached: true },
    })
    const stranger = newAddress()
    const member = newAddress()
    await adapter.createUser!({ id: "member", email: member, emailVerified: new Date() })
    const pages: string[] = []
    for (const address of [stranger, member]) {
      const locations: string[] = []
      for (let i = 0; i < 3; i++) {
        locations.push((await requestLink(browser, address)).headers.get("location")!)
      }
      // Two links sent as usual, then the page that says why the third was not.
      expect(locations[0]).toBe(locations[1])
      const limited = new URL(locations[2]!)
      expect(limited.pathname).toBe("/auth/verify-request")
      expect(limited.searchParams.get("error")).toBe("EmailRateLimited")
      expect(limited.searchParams.get("code")).toBe("address")
      const page = await (await browser.fetch(path(limited))).text()
      expect(page.replace(/\s+/g, " ")).toContain(
        "Too many sign-in links were requested for this address, so no new email was sent. Try again in 5 minutes.",
      )
      pages.push(page.replace(/nonce="[^"]*"|value="[^"]*"/g, ""))
    }
    // Nothing on the page tells the address with an account from the one without.
    expect(pages[0]).toBe(pages[1])
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(mailbox.to(stranger)).toHaveLength(2)
    expect(mailbox.to(member)).toHaveLength(2)
  })

  it("links the verify-request page to the provider's inboxUrl", async () => {
    const { browser } = setup({ inboxUrl: "https://mail.example.com/inbox" })
    const page = await (await browser.fetch("/auth/verify-request?provider=nodemailer")).text()
    expect(page).toMatch(/<a href="https:\/\/mail\.example\.com\/inbox">Open your mailbox<\/a>/)
    const other = await (
      await setup().browser.fetch("/auth/verify-request?provider=nodemailer")
    ).text()
    expect(other).not.toContain("Open your mailbox")
  })

  it("never takes the client address from X-Forwarded-For", async () => {
    const { browser } = setup({ rateLimit: { perClient: 1 } })
    // Without an address from the integration there is no per-client count at all: a header
    // the client writes can neither put it under someone else's limit nor slip out of its own.
    const addresses = [newAddress(), newAddress()]
    // Both from "203.0.113.9" by the header: were it counted, the second would be refused.
    for (const address of addresses) {
      await requestLink(browser, address, {}, { "x-forwarded-for": "203.0.113.9" })
    }
    for (const address of addresses) await mailbox.nextFor(address)
    expect(addresses.map((address) => mailbox.to(address).length)).toEqual([1, 1])
  })

  it("takes the client address from the integration", async () => {
    const { config } = setup({ rateLimit: { perClient: 1 } })
    const browser = new Browser(config)
    const post = async (email: string, clientAddress: string) => {
      const csrfToken = await browser.csrfToken()
      const request = new Request(`${ORIGIN}/auth/signin/nodemailer`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: browser.cookieHeader(),
          // A forged header naming another client changes nothing: the integration's counts.
          "x-forwarded-for": `198.51.100.${Math.floor(Math.random() * 250)}`,
        },
        body: new URLSearchParams({ csrfToken, email }),
      })
      return Auth(request, config, { clientAddress })
    }
    const [a, b, c] = [newAddress(), newAddress(), newAddress()]
    await post(a, "2001:db8::1")
    await post(b, "2001:db8::1")
    // Another line: an IPv6 client is its /64 (2001:db8::2 would be the same client).
    await post(c, "2001:db8:0:1::2")
    await mailbox.nextFor(c)
    await mailbox.nextFor(a)
    expect(mailbox.to(b)).toHaveLength(0)
  })

  it("keeps counters in the adapter under keys that hide the address", async () => {
    const { browser, adapter } = setup()
    const address = newAddress()
    await requestLink(browser, address)
    await mailbox.nextFor(address)
    const keys = [...adapter.counters.keys()]
    expect(keys).toHaveLength(1)
    expect(keys[0]).toMatch(/^email:address:nodemailer:[0-9a-f]{64}$/)
  })

  it("can be turned off", async () => {
    const { browser } = setup({ rateLimit: false })
    const address = newAddress()
    for (let i = 0; i < 7; i++) await requestLink(browser, address)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(mailbox.to(address)).toHaveLength(7)
  })
})

describe("configuration", () => {
  const quiet = { logger: { error() {}, warn() {}, debug() {} } }

  it("refuses an email provider without an adapter", async () => {
    const errors: Error[] = []
    const config = testConfig({
      ...quiet,
      logger: { ...quiet.logger, error: (error) => errors.push(error) },
      providers: [Nodemailer({ server: "smtp://127.0.0.1:1" })],
    })
    const response = await Auth(new Request(`${ORIGIN}/auth/providers`), config)
    expect(response.status).toBe(500)
    expect(errors[0]!.name).toBe("MissingAdapter")
  })

  it("refuses an adapter without the token methods", async () => {
    const errors: Error[] = []
    const { createVerificationToken: _, ...adapter } = memoryAdapter()
    const config = testConfig({
      logger: { ...quiet.logger, error: (error) => errors.push(error) },
      adapter,
      providers: [Nodemailer({ server: "smtp://127.0.0.1:1" })],
    })
    await Auth(new Request(`${ORIGIN}/auth/providers`), config)
    expect(errors[0]!.name).toBe("MissingAdapterMethods")
    expect(errors[0]!.message).toContain("createVerificationToken")
  })

  it("refuses an email provider without sendVerificationRequest, and a bad maxAge", async () => {
    const bare = { id: "email", name: "Email", type: "email" } as unknown as ReturnType<
      typeof Email
    >
    for (const provider of [bare, Nodemailer({ maxAge: -1 })]) {
      const errors: Error[] = []
      const config = testConfig({
        logger: { ...quiet.logger, error: (error) => errors.push(error) },
        adapter: memoryAdapter(),
        providers: [provider],
      })
      await Auth(new Request(`${ORIGIN}/auth/providers`), config)
      expect(errors[0]!.name).toBe("InvalidProvider")
    }
  })

  it("reads AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM through setEnvDefaults", async () => {
    const config = testConfig({ adapter: memoryAdapter(), providers: [Nodemailer()] })
    setEnvDefaults(
      {
        AUTH_EMAIL_SERVER: `smtp://127.0.0.1:${mailbox.port}?ignoreTLS=true`,
        AUTH_EMAIL_FROM: "Env Sender <env@example.com>",
      },
      config,
    )
    const browser = new Browser(config)
    const address = newAddress()
    await requestLink(browser, address)
    const mail = await mailbox.nextFor(address)
    expect(mail.from).toBe("Env Sender <env@example.com>")
  })

  it("lists the provider with its sign-in URL", async () => {
    const { browser } = setup()
    const providers = await (await browser.fetch("/auth/providers")).json()
    expect(providers.nodemailer).toEqual({
      id: "nodemailer",
      name: "Email",
      type: "email",
      signinUrl: `${ORIGIN}/auth/signin/nodemailer`,
      callbackUrl: `${ORIGIN}/auth/callback/nodemailer`,
    })
  })
})
