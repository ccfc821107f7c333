import { describe, expect, it } from "vitest"

import { Auth, skipCSRFCheck } from "../../src/index.js"
import { Browser, setCookies, testConfig } from "../helpers/request.js"

const COOKIE = "authjs.csrf-token"
const HEX64 = /^[0-9a-f]{64}$/

async function tokenOf(response: Response): Promise<string> {
  const body = (await response.json()) as { csrfToken: string }
  return body.csrfToken
}

describe("GET /auth/csrf", () => {
  it("returns a 64-hex token and sets it in an HttpOnly, SameSite=Lax cookie on Path=/", async () => {
    const browser = new Browser(testConfig())
    const response = await browser.fetch("/auth/csrf")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("application/json")
    const body = (await response.json()) as Record<string, unknown>
    expect(Object.keys(body)).toEqual(["csrfToken"])
    expect(body.csrfToken).toMatch(HEX64)

    const set = setCookies(response).get(COOKIE)
    expect(set).toBeDefined()
    expect(set!.cookie.httpOnly).toBe(true)
    expect(set!.cookie.sameSite).toMatch(/^lax$/i)
    expect(set!.cookie.path).toBe("/")
    expect(set!.cookie.secure).toBeFalsy()
    expect(set!.cookie.value?.startsWith(`${body.csrfToken}|`)).toBe(true)
  })

  it("is never cached", async () => {
    const response = await new Browser(testConfig()).fetch("/auth/csrf")
    expect(response.headers.get("cache-control")).toMatch(/no-store/)
  })

  it("reuses the token while the cookie is valid, without setting it again", async () => {
    const browser = new Browser(testConfig())
    const first = await tokenOf(await browser.fetch("/auth/csrf"))
    const again = await browser.fetch("/auth/csrf")
    expect(await tokenOf(again)).toBe(first)
    expect(setCookies(again).has(COOKIE)).toBe(false)
  })

  it("gives two browsers different tokens", async () => {
    const config = testConfig()
    const a = await new Browser(config).csrfToken()
    const b = await new Browser(config).csrfToken()
    expect(a).not.toBe(b)
  })

  const flipFirst = (text: string) => (text[0] === "a" ? "b" : "a") + text.slice(1)
  it.each<[string, (value: string) => string]>([
    ["the token is changed", (v) => flipFirst(v)],
    ["the HMAC is changed", (v) => `${v.slice(0, 65)}${flipFirst(v.slice(65))}`],
    ["the HMAC is missing", (v) => v.slice(0, 64)],
    ["the cookie is garbage", () => "garbage"],
    ["the cookie is empty-ish", () => "|"],
    ["the token has the right shape but no HMAC", (v) => `${v.slice(0, 64)}|`],
  ])("issues a new token when %s", async (_case, tamper) => {
    const browser = new Browser(testConfig())
    const original = await browser.csrfToken()
    browser.cookies.set(COOKIE, tamper(browser.cookies.get(COOKIE)!))
    const response = await browser.fetch("/auth/csrf")
    expect(response.status).toBe(200)
    const token = await tokenOf(response)
    expect(token).toMatch(HEX64)
    expect(token).not.toBe(original)
    expect(setCookies(response).get(COOKIE)?.cookie.value?.startsWith(`${token}|`)).toBe(true)
  })

  it("does not accept a cookie signed with another secret", async () => {
    const other = new Browser(testConfig({ secret: "another-secret-that-is-long-enough-for-it" }))
    await other.csrfToken()
    const browser = new Browser(testConfig())
    browser.cookies.set(COOKIE, other.cookies.get(COOKIE)!)
    const [token] = other.cookies.get(COOKIE)!.split("|")
    expect(await browser.csrfToken()).not.toBe(token)
  })

  it("accepts the cookie Auth.js set (token|SHA-256(token + secret)), so its forms still post", async () => {
    const { createHash, randomBytes } = await import("node:crypto")
    const secret = testConfig().secret as string
    const token = randomBytes(32).toString("hex")
    const authjs = `${token}|${createHash("sha256").update(`${token}${secret}`).digest("hex")}`
    const browser = new Browser(testConfig())
    browser.cookies.set(COOKIE, authjs)
    expect(await browser.csrfToken()).toBe(token)
    await browser.signIn()
    const response = await browser.fetch("/auth/signout", { form: { csrfToken: token } })
    expect(response.status).toBe(302)
    expect(await browser.session()).toBeNull()

    // The same construction with another secret is refused.
    const forged = `${token}|${createHash("sha256").update(`${token}another-secret`).digest("hex")}`
    const other = new Browser(testConfig())
    other.cookies.set(COOKIE, forged)
    expect(await other.csrfToken()).not.toBe(token)
  })

  it("accepts a cookie signed with an older secret during rotation", async () => {
    const old = new Browser(testConfig())
    const token = await old.csrfToken()
    const rotated = new Browser(
      testConfig({
        secret: ["a-brand-new-secret-that-is-long-enough-too", testConfig().secret as string],
      }),
    )
    rotated.cookies = new Map(old.cookies)
    expect(await rotated.csrfToken()).toBe(token)
  })

  it("names the cookie __Host-authjs.csrf-token and marks it Secure on https", async () => {
    const browser = new Browser(testConfig(), "https://example.com")
    const response = await browser.fetch("/auth/csrf")
    const cookies = setCookies(response)
    expect(cookies.has(COOKIE)).toBe(false)
    const set = cookies.get(`__Host-${COOKIE}`)
    expect(set).toBeDefined()
    expect(set!.cookie.secure).toBe(true)
    expect(set!.cookie.path).toBe("/")
    expect(set!.cookie.domain).toBeUndefined()
    expect(set!.cookie.httpOnly).toBe(true)
  })

  it("answers 404 when the CSRF check is turned off", async () => {
    const response = await Auth(
      new Request("http://localhost:3000/auth/csrf"),
      testConfig({ skipCSRFCheck }),
    )
    expect(response.status).toBe(404)
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("keeps answering, and the token is not needed, when an integration vouches for a request", async () => {
    const config = testConfig()
    const post = () =>
      new Request("http://localhost:3000/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "username=alice&password=wonderland",
      })
    const vouched = await Auth(post(), config, { csrfVerified: true })
    expect(vouched.headers.get("location")).toBe("http://localhost:3000/")
    const unvouched = await Auth(post(), config)
    expect(new URL(unvouched.headers.get("location")!).searchParams.get("error")).toBe(
      "MissingCSRF",
    )
    const csrf = await Auth(new Request("http://localhost:3000/auth/csrf"), config, {
      csrfVerified: true,
    })
    expect(csrf.status).toBe(200)
  })
})

describe("every POST action checks the CSRF token before it runs", () => {
  // The list the README's Actions section gives; `/callback/<provider>` checks it itself.
  it.each([
    "/auth/signin/credentials",
    "/auth/signout",
    "/auth/signup/password",
    "/auth/verify-email/password",
    "/auth/reset-password/password",
    "/auth/new-password/password",
    "/auth/change-password/password",
    "/auth/unlink/github",
    "/auth/two-factor",
    "/auth/two-factor/setup",
    "/auth/two-factor/disable",
    "/auth/two-factor/recovery-codes",
    "/auth/reauthenticate",
  ])("POST %s without the token: MissingCSRF, and the session untouched", async (path) => {
    const browser = new Browser(testConfig())
    await browser.signIn()
    const before = await browser.session()
    expect(before?.user?.name).toBe("Alice")
    // The CSRF cookie is there; the form lacks its token (a form posted from another site).
    const response = await browser.fetch(path, { form: { email: "alice@example.com" } })
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.searchParams.get("error")).toBe("MissingCSRF")
    expect(await browser.session()).toEqual(before)
  })

  it("POST /session without the token: 400 MissingCSRF, and the session not updated", async () => {
    const browser = new Browser(testConfig())
    await browser.signIn()
    const before = await browser.session()
    const response = await browser.fetch("/auth/session", { json: { data: { name: "Mallory" } } })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: "MissingCSRF" })
    expect(await browser.session()).toEqual(before)
  })
})
