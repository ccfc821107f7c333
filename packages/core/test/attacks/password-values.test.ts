/**
 * Attack: the request values of the password and two-factor forms. Each reaches a URL, a mail, a
 * cookie or a query; each is the attacker's to choose. The attacker's requests, and what must
 * hold: redirects stay on the site, mails name only the site and the address, a posted token
 * echoed back is escaped, a name is data and nothing else.
 */
import { describe, expect, it, vi } from "vitest"
import { hashPassword } from "../../src/password/hash.js"
import Password, { type PasswordMail } from "../../src/providers/password.js"
import type { AuthConfig } from "../../src/types.js"
import { followLink } from "../helpers/continue-page.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { Browser, ORIGIN, SECRET } from "../helpers/request.js"

const FAST = { ln: 10, r: 8, p: 1 }
const EVIL = "https://evil.example/steal"

function setup() {
  const adapter = memoryAdapter()
  const mails: PasswordMail[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    twoFactor: {},
    providers: [Password({ scrypt: FAST, sendMail: (mail) => void mails.push(mail) })],
    logger: { error: vi.fn(), warn: () => {}, debug: () => {} },
  }
  return { adapter, config, mails }
}

async function post(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch(path, { form: { csrfToken, ...form } })
  return new URL(response.headers.get("location")!)
}

const linkOf = (mail: PasswordMail) => /https?:\/\/\S+/.exec(mail.text)![0]

describe("the password forms' values, as an attacker sends them", () => {
  it("keeps a sign-up link's callbackUrl on the site, and its name out of the mail", async () => {
    const { adapter, config, mails } = setup()
    const name = "Eve\r\nBcc: all@example.com <script>alert(1)</script>"
    const browser = new Browser(config)
    await post(browser, "/auth/signup/password", {
      email: "eve@example.com",
      password: "correct horse battery",
      name,
      callbackUrl: EVIL,
    })
    const [mail] = mails
    expect(mail!.to).toBe("eve@example.com")
    for (const part of [mail!.subject, mail!.text, mail!.html]) {
      expect(part).not.toContain("evil.example")
      expect(part).not.toContain("Bcc")
      expect(part).not.toContain("<script>")
    }
    expect(new URL(linkOf(mail!)).origin).toBe(ORIGIN)
    const landed = await followLink(browser, linkOf(mail!))
    expect(new URL(landed.headers.get("location")!).origin).toBe(ORIGIN)
    // The name is kept as data: control characters gone, nothing else touched or run.
    const user = await adapter.getUserByEmail!("eve@example.com")
    expect(user!.name).toBe("Eve  Bcc: all@example.com <script>alert(1)</script>")
  })

  it("keeps a reset link's callbackUrl on the site", async () => {
    const { adapter, config, mails } = setup()
    const user = await adapter.createUser!({
      id: "u1",
      email: "ada@example.com",
      emailVerified: new Date(),
    })
    adapter.passwords.set(user.id, await hashPassword("an old password", FAST))
    await post(new Browser(config), "/auth/reset-password/password", {
      email: "ada@example.com",
      callbackUrl: EVIL,
    })
    const token = new URL(linkOf(mails[0]!)).searchParams.get("token")!
    const done = await post(new Browser(config), "/auth/new-password/password", {
      token,
      password: "a brand new password",
    })
    expect(done.origin).toBe(ORIGIN)
    expect(done.href).not.toContain("evil.example")
  })

  it("echoes a posted token back to its form only escaped, and only when short", async () => {
    const { config } = setup()
    const hostile = '"><script>alert(1)</script>'
    const browser = new Browser(config)
    const refused = await post(browser, "/auth/new-password/password", {
      token: hostile,
      password: "short",
    })
    // A token that opens nothing is a Verification error: no form to echo it into.
    expect(refused.searchParams.get("error")).toBe("Verification")
    const page = await browser.fetch(
      `/auth/new-password/password?token=${encodeURIComponent(hostile)}`,
    )
    expect(await page.text()).not.toContain("<script>alert(1)")
    const long = await post(browser, "/auth/new-password/password", {
      token: "x".repeat(10_000),
      password: "a brand new password",
    })
    expect(long.href.length).toBeLessThan(1_000)
  })

  it("refuses a setup form and a pending cookie that are not ours, and bounds their size", async () => {
    const { adapter, config } = setup()
    const user = await adapter.createUser!({
      id: "u1",
      email: "ada@example.com",
      emailVerified: new Date(),
    })
    adapter.passwords.set(user.id, await hashPassword("a good password", FAST))
    const browser = new Browser(config)
    await post(browser, "/auth/callback/password", {
      email: "ada@example.com",
      password: "a good password",
    })
    for (const setup of ["x".repeat(50_000), "e30..AAAA.AAAA.AAAA", '"><b>'])
      expect(
        (await post(browser, "/auth/two-factor/setup", { setup, code: "123456" })).searchParams.get(
          "code",
        ),
      ).toBe("wrong_code")
    // Over the body limit: refused before anything reads it.
    const huge = await browser.fetch("/auth/two-factor/setup", {
      form: { csrfToken: await browser.csrfToken(), setup: "x".repeat(100_000), code: "123456" },
    })
    expect(huge.status).toBe(413)
    expect(adapter.twoFactors.size).toBe(0)
    const stranger = new Browser(config)
    stranger.cookies.set("latch.two-factor", "x".repeat(20_000))
    const expired = await post(stranger, "/auth/two-factor", { code: "123456" })
    expect(expired.searchParams.get("code")).toBe("expired")
  })
})
