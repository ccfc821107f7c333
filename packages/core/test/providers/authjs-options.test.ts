/**
 * Provider options and factories of `@auth/core` that Latch runs the same way: `Email()` (its
 * deprecated alias of Nodemailer) sending over a real SMTP server, GitHub's
 * `enterprise.baseUrl`, GitLab's `baseUrl` as a `URL`, and the WebAuthn defaults.
 */
import { startMailbox, type Mailbox } from "latch-mailbox"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"

import { InvalidProvider } from "../../src/errors.js"
import type { OAuthEndpoint } from "../../src/providers/index.js"
import GitHub from "../../src/providers/github.js"
import GitLab from "../../src/providers/gitlab.js"
import WebAuthn, {
  DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION,
  DEFAULT_WEBAUTHN_TIMEOUT,
} from "../../src/providers/webauthn.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { Browser, testConfig } from "../helpers/request.js"

const urlOf = (endpoint: OAuthEndpoint | undefined) =>
  typeof endpoint === "string" ? endpoint : endpoint?.url

describe("Email (the deprecated alias of Nodemailer)", () => {
  let mailbox: Mailbox
  beforeAll(async () => {
    mailbox = await startMailbox()
  })
  afterAll(() => mailbox.close())

  it("sends the link over SMTP with server and from, under the id email, warning once", async () => {
    // A fresh module: the warning is once per process.
    vi.resetModules()
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    try {
      const { default: Email } = await import("../../src/providers/email.js")
      const server = { host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true }
      const provider = Email({ server, from: "Example <no-reply@example.com>" })
      Email({ server, from: "Example <no-reply@example.com>" })
      expect(provider).toMatchObject({ id: "email", name: "Email", type: "email", server })
      expect(warn).toHaveBeenCalledOnce()
      expect(String(warn.mock.calls[0]![0])).toMatch(/Nodemailer/)

      const browser = new Browser(testConfig({ adapter: memoryAdapter(), providers: [provider] }))
      const csrfToken = await browser.csrfToken()
      const address = `email-alias-${Date.now()}@example.com`
      const response = await browser.fetch("/auth/signin/email", {
        form: { csrfToken, email: address, callbackUrl: "/dashboard" },
      })
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toContain("/auth/verify-request?provider=email")
      const mail = await mailbox.nextFor(address)
      expect(mail.from).toBe("Example <no-reply@example.com>")
      expect(mail.text).toMatch(/\/auth\/callback\/email\?/)
    } finally {
      warn.mockRestore()
    }
  })

  it("keeps a sendVerificationRequest of your own, without a warning", async () => {
    vi.resetModules()
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    try {
      const { default: Email } = await import("../../src/providers/email.js")
      const send = vi.fn()
      const provider = Email({ sendVerificationRequest: send, id: "magic", name: "Magic link" })
      expect(provider).toMatchObject({ id: "magic", name: "Magic link", type: "email" })
      expect(provider.sendVerificationRequest).toBe(send)
      expect(warn).not.toHaveBeenCalled()
    } finally {
      warn.mockRestore()
    }
  })

  it("is Nodemailer with another id", async () => {
    const { default: Email } = await import("../../src/providers/email.js")
    const { default: Nodemailer } = await import("../../src/providers/nodemailer.js")
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    const email = Email({ server: "smtp://127.0.0.1:1", from: "a@example.com" })
    warn.mockRestore()
    const nodemailer = Nodemailer({ server: "smtp://127.0.0.1:1", from: "a@example.com" })
    expect(email.sendVerificationRequest).toBe(nodemailer.sendVerificationRequest)
    expect({ ...email, id: "nodemailer", options: undefined }).toEqual({
      ...nodemailer,
      options: undefined,
    })
  })
})

describe("GitHub Enterprise Server", () => {
  it("uses enterprise.baseUrl for the OAuth endpoints and the REST API", () => {
    const provider = GitHub({ enterprise: { baseUrl: "https://github.example.com/" } })
    expect(urlOf(provider.authorization)).toBe("https://github.example.com/login/oauth/authorize")
    expect(provider.token).toBe("https://github.example.com/login/oauth/access_token")
    expect(urlOf(provider.userinfo)).toBe("https://github.example.com/api/v3/user")
    expect(provider).not.toHaveProperty("enterprise")
  })

  it("still takes baseUrl, and the same server under both names", () => {
    const own = GitHub({ baseUrl: "https://github.example.com" })
    const both = GitHub({
      baseUrl: "https://github.example.com",
      enterprise: { baseUrl: "https://github.example.com/" },
    })
    for (const provider of [own, both]) {
      expect(provider.token).toBe("https://github.example.com/login/oauth/access_token")
      expect(urlOf(provider.userinfo)).toBe("https://github.example.com/api/v3/user")
    }
  })

  it("refuses two different servers", () => {
    expect(() =>
      GitHub({
        baseUrl: "https://one.example.com",
        enterprise: { baseUrl: "https://two.example.com" },
      }),
    ).toThrow(InvalidProvider)
  })

  it("stays on github.com by default", () => {
    const provider = GitHub()
    expect(provider.token).toBe("https://github.com/login/oauth/access_token")
    expect(urlOf(provider.userinfo)).toBe("https://api.github.com/user")
  })
})

describe("GitLab baseUrl", () => {
  it("takes a URL as well as a string", () => {
    for (const baseUrl of [new URL("https://gitlab.example.com/"), "https://gitlab.example.com"]) {
      const provider = GitLab({ baseUrl })
      expect(urlOf(provider.authorization)).toBe("https://gitlab.example.com/oauth/authorize")
      expect(provider.token).toBe("https://gitlab.example.com/oauth/token")
      expect(provider.userinfo).toBe("https://gitlab.example.com/api/v4/user")
    }
  })
})

describe("WebAuthn defaults", () => {
  it("exports Auth.js's constants, and uses them", () => {
    expect(DEFAULT_WEBAUTHN_TIMEOUT).toBe(300_000)
    expect(DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION).toMatch(/^v\d+(\.\d+){0,2}$/)
    const provider = WebAuthn()
    expect(provider.timeout).toBe(DEFAULT_WEBAUTHN_TIMEOUT)
    expect(provider.simpleWebAuthnBrowserVersion).toBe(DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION)
  })
})
