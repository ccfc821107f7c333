import { describe, expect, it, vi } from "vitest"

import { AuthError, CredentialsSignin } from "../../src/errors.js"
import { skipCSRFCheck } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import type { JWTCallbackParams } from "../../src/types.js"
import { ALICE, Browser, ORIGIN, testConfig, writtenCookies } from "../helpers/request.js"

const SESSION = "authjs.session-token"
const SIGNIN_ERROR = `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`

function location(response: Response): string {
  return response.headers.get("location") ?? ""
}

function hasSession(response: Response): boolean {
  return writtenCookies(response).some((name) => name.startsWith(SESSION))
}

describe("POST /auth/callback/credentials", () => {
  describe("success", () => {
    it("redirects to the origin by default and sets the session cookie", async () => {
      const browser = new Browser(testConfig())
      const response = await browser.signIn()
      expect(response.status).toBe(302)
      expect(location(response)).toBe(`${ORIGIN}/`)
      expect(hasSession(response)).toBe(true)
      expect(await response.text()).toBe("")
      expect((await browser.session())?.user?.email).toBe(ALICE.email)
    })

    it.each([
      ["a relative path", "/dashboard", `${ORIGIN}/dashboard`],
      ["a relative path with query and hash", "/a/b?c=d#e", `${ORIGIN}/a/b?c=d#e`],
      ["an absolute URL on the origin", `${ORIGIN}/account`, `${ORIGIN}/account`],
      ["an absolute URL on another host", "https://evil.com/steal", `${ORIGIN}/`],
      ["the origin on another port", "http://localhost:3001/", `${ORIGIN}/`],
      ["the origin over https", "https://localhost:3000/", `${ORIGIN}/`],
      ["a protocol-relative URL", "//evil.com", `${ORIGIN}/`],
      ["a backslash URL", "/\\evil.com", `${ORIGIN}/`],
      ["a backslash protocol-relative URL", "\\\\evil.com", `${ORIGIN}/`],
      ["a javascript: URL", "javascript:alert(1)", `${ORIGIN}/`],
      ["a data: URL", "data:text/html,<script>alert(1)</script>", `${ORIGIN}/`],
      ["userinfo tricking the host", "http://localhost:3000@evil.com", `${ORIGIN}/`],
      ["an unparseable URL", "http://[::1", `${ORIGIN}/`],
      ["tab-split scheme", "java\tscript:alert(1)", `${ORIGIN}/`],
    ])("keeps the redirect on the origin for %s", async (_case, callbackUrl, expected) => {
      const browser = new Browser(testConfig())
      const response = await browser.signIn("alice", "wonderland", { callbackUrl })
      expect(response.status).toBe(302)
      expect(location(response)).toBe(expected)
      expect(new URL(location(response)).origin).toBe(ORIGIN)
      expect(hasSession(response)).toBe(true)
    })

    it("takes callbackUrl from the query when the body has none", async () => {
      const browser = new Browser(testConfig())
      const csrfToken = await browser.csrfToken()
      const response = await browser.fetch("/auth/callback/credentials?callbackUrl=/from-query", {
        form: { csrfToken, username: "alice", password: "wonderland" },
      })
      expect(location(response)).toBe(`${ORIGIN}/from-query`)
    })

    it("lets the redirect callback widen the allowed URLs", async () => {
      const browser = new Browser(testConfig({ callbacks: { redirect: ({ url }) => url } }))
      const response = await browser.signIn("alice", "wonderland", {
        callbackUrl: "https://partner.example/welcome",
      })
      expect(location(response)).toBe("https://partner.example/welcome")
    })

    it("falls back to the origin when the redirect callback throws", async () => {
      const browser = new Browser(
        testConfig({
          callbacks: {
            redirect: () => {
              throw new Error("nope")
            },
          },
        }),
      )
      const response = await browser.signIn("alice", "wonderland", { callbackUrl: "/x" })
      expect(response.status).toBe(302)
      expect(location(response)).toBe(`${ORIGIN}/`)
    })

    it("signs in on https with the __Host- CSRF cookie and a __Secure- session", async () => {
      const browser = new Browser(testConfig(), "https://example.com")
      const response = await browser.signIn("alice", "wonderland", { callbackUrl: "/home" })
      expect(location(response)).toBe("https://example.com/home")
      expect(writtenCookies(response)).toContain(`__Secure-${SESSION}`)
      expect((await browser.session())?.user?.name).toBe("Alice")
    })

    it("signs in through a provider whose id needs encoding", async () => {
      const browser = new Browser(
        testConfig({ providers: [Credentials({ id: "my pass", authorize: () => ALICE })] }),
      )
      const csrfToken = await browser.csrfToken()
      const response = await browser.fetch("/auth/callback/my%20pass", {
        form: { csrfToken, username: "alice", password: "x" },
      })
      expect(location(response)).toBe(`${ORIGIN}/`)
      expect(hasSession(response)).toBe(true)
    })

    it("signs in without a CSRF token when the check is turned off", async () => {
      const browser = new Browser(testConfig({ skipCSRFCheck }))
      const response = await browser.fetch("/auth/callback/credentials", {
        form: { username: "alice", password: "wonderland" },
      })
      expect(location(response)).toBe(`${ORIGIN}/`)
      expect(hasSession(response)).toBe(true)
    })

    it("passes the submitted fields, without csrfToken and callbackUrl, to authorize", async () => {
      const authorize = vi.fn(() => ALICE)
      const browser = new Browser(testConfig({ providers: [Credentials({ authorize })] }))
      await browser.signIn("alice", "pw", { callbackUrl: "/x", extra: "1" })
      expect(authorize).toHaveBeenCalledTimes(1)
      const [credentials, request] = authorize.mock.calls[0] as unknown as [unknown, Request]
      expect(credentials).toEqual({ username: "alice", password: "pw", extra: "1" })
      expect(request).toBeInstanceOf(Request)
    })
  })

  describe("refusal", () => {
    it("redirects to the sign-in page with CredentialsSignin for a wrong password", async () => {
      const browser = new Browser(testConfig())
      const response = await browser.signIn("alice", "wrong")
      expect(response.status).toBe(302)
      expect(location(response)).toBe(SIGNIN_ERROR)
      expect(hasSession(response)).toBe(false)
      expect(await browser.session()).toBeNull()
    })

    it("sends the code of a CredentialsSignin subclass", async () => {
      class BadOtp extends CredentialsSignin {
        override code = "bad_otp"
      }
      const browser = new Browser(
        testConfig({
          providers: [
            Credentials({
              authorize: () => {
                throw new BadOtp()
              },
            }),
          ],
        }),
      )
      const response = await browser.signIn()
      expect(location(response)).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=bad_otp`)
      expect(hasSession(response)).toBe(false)
    })

    it("sends the refusal to pages.signIn when set", async () => {
      const browser = new Browser(testConfig({ pages: { signIn: "/login" } }))
      const response = await browser.signIn("alice", "wrong")
      expect(location(response)).toBe(`${ORIGIN}/login?error=CredentialsSignin&code=credentials`)
    })

    it("redirects to the error page with Configuration when authorize throws, hiding the message", async () => {
      const errors: Error[] = []
      const browser = new Browser(
        testConfig({
          logger: { error: (e) => errors.push(e), warn: () => {}, debug: () => {} },
          providers: [
            Credentials({
              authorize: () => {
                throw new Error("connection to db-internal.corp:5432 refused")
              },
            }),
          ],
        }),
      )
      const response = await browser.signIn()
      expect(response.status).toBe(302)
      expect(location(response)).toBe(`${ORIGIN}/auth/error?error=Configuration`)
      expect(hasSession(response)).toBe(false)
      const everything = [
        await response.text(),
        ...[...response.headers].map(([name, value]) => `${name}: ${value}`),
      ].join("\n")
      expect(everything).not.toContain("db-internal")
      expect(errors.length).toBeGreaterThan(0)
    })

    it.each([
      ["without a CSRF token", (form: Record<string, string>) => ({ ...form, csrfToken: "" })],
      [
        "with a wrong CSRF token",
        (form: Record<string, string>) => ({ ...form, csrfToken: "f".repeat(64) }),
      ],
    ])("redirects with MissingCSRF %s and sets no session", async (_case, edit) => {
      const browser = new Browser(testConfig())
      const csrfToken = await browser.csrfToken()
      const response = await browser.fetch("/auth/callback/credentials", {
        form: edit({ csrfToken, username: "alice", password: "wonderland" }),
      })
      expect(response.status).toBe(302)
      expect(location(response)).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`)
      expect(hasSession(response)).toBe(false)
    })

    it("redirects with MissingCSRF when the CSRF cookie is missing", async () => {
      const browser = new Browser(testConfig())
      const csrfToken = await browser.csrfToken()
      browser.cookies.clear()
      const response = await browser.fetch("/auth/callback/credentials", {
        form: { csrfToken, username: "alice", password: "wonderland" },
      })
      expect(location(response)).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`)
      expect(hasSession(response)).toBe(false)
    })

    it("does not call authorize without a valid CSRF token", async () => {
      const authorize = vi.fn(() => ALICE)
      const browser = new Browser(testConfig({ providers: [Credentials({ authorize })] }))
      await browser.fetch("/auth/callback/credentials", {
        form: { username: "alice", password: "wonderland" },
      })
      expect(authorize).not.toHaveBeenCalled()
    })

    it("answers 405 with Allow: POST for GET", async () => {
      const response = await new Browser(testConfig()).fetch("/auth/callback/credentials")
      expect(response.status).toBe(405)
      expect(response.headers.get("allow")).toBe("POST")
    })

    it("redirects to the error page with Configuration for an unknown provider", async () => {
      const browser = new Browser(testConfig())
      const csrfToken = await browser.csrfToken()
      const response = await browser.fetch("/auth/callback/nope", { form: { csrfToken } })
      expect(response.status).toBe(302)
      expect(location(response)).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    })
  })

  describe("X-Auth-Return-Redirect: 1", () => {
    const headers = { "x-auth-return-redirect": "1" }

    it("answers 200 {url} with the absolute callback URL on success", async () => {
      const browser = new Browser(testConfig())
      const csrfToken = await browser.csrfToken()
      const response = await browser.fetch("/auth/callback/credentials", {
        headers,
        form: { csrfToken, username: "alice", password: "wonderland", callbackUrl: "/dashboard" },
      })
      expect(response.status).toBe(200)
      expect(response.headers.get("location")).toBeNull()
      expect(await response.json()).toEqual({ url: `${ORIGIN}/dashboard` })
      expect(hasSession(response)).toBe(true)
    })

    it("answers 200 {url} with an absolute URL carrying error and code on failure", async () => {
      const browser = new Browser(testConfig())
      const csrfToken = await browser.csrfToken()
      const response = await browser.fetch("/auth/callback/credentials", {
        headers,
        form: { csrfToken, username: "alice", password: "wrong" },
      })
      expect(response.status).toBe(200)
      const { url } = (await response.json()) as { url: string }
      expect(url).toBe(SIGNIN_ERROR)
      const parsed = new URL(url)
      expect(parsed.searchParams.get("error")).toBe("CredentialsSignin")
      expect(parsed.searchParams.get("code")).toBe("credentials")
      expect(hasSession(response)).toBe(false)
    })

    it("answers 200 {url} for a missing CSRF token", async () => {
      const response = await new Browser(testConfig()).fetch("/auth/callback/credentials", {
        headers,
        form: { username: "alice", password: "wonderland" },
      })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ url: `${ORIGIN}/auth/signin?error=MissingCSRF` })
    })
  })

  describe("the signIn callback", () => {
    it("turns false into AccessDenied on the error page", async () => {
      const browser = new Browser(testConfig({ callbacks: { signIn: () => false } }))
      const response = await browser.signIn()
      expect(response.status).toBe(302)
      expect(location(response)).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
      expect(hasSession(response)).toBe(false)
    })

    it("turns a throw into AccessDenied, logged with the original message and cause", async () => {
      const logged: Error[] = []
      const thrown = new Error("user is banned")
      const browser = new Browser(
        testConfig({
          logger: { error: (e) => logged.push(e), warn: () => {}, debug: () => {} },
          callbacks: {
            signIn: () => {
              throw thrown
            },
          },
        }),
      )
      const response = await browser.signIn()
      expect(location(response)).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
      expect(hasSession(response)).toBe(false)
      expect(await response.text()).not.toContain("banned")
      const denied = logged.find((e) => e instanceof AuthError && e.type === "AccessDenied")
      expect(denied).toBeDefined()
      expect(denied!.message).toBe("user is banned")
      expect((denied as AuthError).cause?.err).toBe(thrown)
    })

    it("redirects to the URL it returns, without a session", async () => {
      const browser = new Browser(testConfig({ callbacks: { signIn: () => "/verify-email" } }))
      const response = await browser.signIn()
      expect(response.status).toBe(302)
      expect(location(response)).toBe(`${ORIGIN}/verify-email`)
      expect(hasSession(response)).toBe(false)
    })

    it("receives the user, the account and the credentials", async () => {
      const signIn = vi.fn(() => true)
      await new Browser(testConfig({ callbacks: { signIn } })).signIn()
      expect(signIn).toHaveBeenCalledWith(
        expect.objectContaining({
          user: expect.objectContaining(ALICE),
          account: { type: "credentials", provider: "credentials", providerAccountId: ALICE.id },
          credentials: { username: "alice", password: "wonderland" },
        }),
      )
    })
  })

  describe("events", () => {
    it("fires signIn with the user and the account", async () => {
      const signIn = vi.fn()
      await new Browser(testConfig({ events: { signIn } })).signIn()
      expect(signIn).toHaveBeenCalledTimes(1)
      expect(signIn.mock.calls[0]![0]).toMatchObject({
        user: ALICE,
        account: { type: "credentials", provider: "credentials", providerAccountId: ALICE.id },
      })
    })

    it("does not fire signIn for a refused sign-in", async () => {
      const signIn = vi.fn()
      await new Browser(testConfig({ events: { signIn } })).signIn("alice", "wrong")
      expect(signIn).not.toHaveBeenCalled()
    })

    it("signs in even when the signIn event throws", async () => {
      const logged: Error[] = []
      const browser = new Browser(
        testConfig({
          logger: { error: (e) => logged.push(e), warn: () => {}, debug: () => {} },
          events: {
            signIn: () => {
              throw new Error("audit log unavailable")
            },
          },
        }),
      )
      const response = await browser.signIn()
      expect(response.status).toBe(302)
      expect(location(response)).toBe(`${ORIGIN}/`)
      expect(hasSession(response)).toBe(true)
      expect((await browser.session())?.user?.name).toBe("Alice")
      expect(logged.some((e) => e instanceof AuthError && e.type === "EventError")).toBe(true)
    })

    it("uses a random id for a user without one, as providerAccountId", async () => {
      const signIn = vi.fn()
      const { id: _id, ...anonymous } = ALICE
      const browser = new Browser(
        testConfig({
          events: { signIn },
          providers: [Credentials({ authorize: () => anonymous })],
        }),
      )
      await browser.signIn()
      const { user, account } = signIn.mock.calls[0]![0] as {
        user: { id: string }
        account: { providerAccountId: string }
      }
      expect(user.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(account.providerAccountId).toBe(user.id)
    })
  })

  describe("the jwt callback on sign-in", () => {
    it("gets trigger signIn, the user, the account and the default token", async () => {
      const calls: JWTCallbackParams[] = []
      await new Browser(
        testConfig({
          callbacks: {
            jwt: (params) => {
              calls.push(params)
              return params.token
            },
          },
        }),
      ).signIn()
      expect(calls).toHaveLength(1)
      const [params] = calls
      expect(params!.trigger).toBe("signIn")
      expect(params!.user).toMatchObject(ALICE)
      expect(params!.account).toEqual({
        type: "credentials",
        provider: "credentials",
        providerAccountId: ALICE.id,
      })
      expect(params!.token).toEqual({
        name: ALICE.name,
        email: ALICE.email,
        picture: ALICE.image,
        sub: ALICE.id,
      })
    })

    it("stores what it returns", async () => {
      const browser = new Browser(
        testConfig({
          callbacks: {
            jwt: ({ token, user }) => (user ? { ...token, role: "admin" } : token),
            session: ({ session, token }) => ({ ...session, role: token?.role }),
          },
        }),
      )
      await browser.signIn()
      expect((await browser.session())?.role).toBe("admin")
    })

    it("sets no session when it returns null", async () => {
      const browser = new Browser(testConfig({ callbacks: { jwt: () => null } }))
      const response = await browser.signIn()
      expect(response.status).toBe(302)
      expect(hasSession(response)).toBe(false)
      expect(await browser.session()).toBeNull()
    })

    it("redirects to the error page with Configuration when it throws", async () => {
      const browser = new Browser(
        testConfig({
          callbacks: {
            jwt: () => {
              throw new Error("kaboom")
            },
          },
        }),
      )
      const response = await browser.signIn()
      expect(response.status).toBe(302)
      expect(location(response)).toBe(`${ORIGIN}/auth/error?error=Configuration`)
      expect(hasSession(response)).toBe(false)
    })
  })
})

describe("a refused sign-in keeps the callback URL", () => {
  it("carries a same-origin callbackUrl back to the sign-in page", async () => {
    const browser = new Browser(testConfig())
    const response = await browser.signIn("alice", "wrong", { callbackUrl: "/protected" })
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
    expect(location.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/protected`)
  })

  it("does not carry a foreign callbackUrl", async () => {
    const browser = new Browser(testConfig())
    const response = await browser.signIn("alice", "wrong", {
      callbackUrl: "https://evil.example/x",
    })
    const location = new URL(response.headers.get("location")!)
    expect(location.searchParams.get("callbackUrl")).toBeNull()
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
  })
})

describe("a malformed authjs.callback-url cookie", () => {
  const values = [
    "%%%",
    "http://[::1",
    "javascript:alert(1)",
    "//evil.com",
    "%E0%A4%A",
    "a;b=c",
    "%00",
  ]
  const requests: [string, string, boolean][] = [
    ["GET", "/auth/csrf", false],
    ["GET", "/auth/providers", false],
    ["GET", "/auth/session", false],
    ["POST", "/auth/session", true],
    ["GET", "/auth/signin", false],
    ["POST", "/auth/signin/credentials", true],
    ["GET", "/auth/signout", false],
    ["POST", "/auth/signout", true],
    ["POST", "/auth/callback/credentials", true],
    ["GET", "/auth/error?error=Configuration", false],
    ["GET", "/auth/verify-request", false],
  ]
  const cases = values.flatMap((value) =>
    requests.map(([method, path, csrf]) => [value, method, path, csrf] as const),
  )

  it.each(cases)("%j never causes a 500 on %s %s", async (value, method, path, csrf) => {
    const browser = new Browser(testConfig())
    await browser.signIn()
    const csrfToken = await browser.csrfToken()
    const cookie = `${browser.cookieHeader()}; authjs.callback-url=${value}`
    const init: RequestInit & { form?: Record<string, string>; json?: unknown } = {
      method,
      headers: { cookie },
    }
    if (method === "POST") {
      if (path === "/auth/session") init.json = { csrfToken: csrf ? csrfToken : "" }
      else init.form = { csrfToken, username: "alice", password: "wonderland" }
    }
    const response = await browser.fetch(path, init)
    // The error page answers 500 for ?error=Configuration by design: it is the page, not a crash.
    if (!path.startsWith("/auth/error")) expect(response.status).toBeLessThan(500)
    const location = response.headers.get("location")
    if (location) expect(new URL(location).origin).toBe(ORIGIN)
  })
})
