import { describe, expect, it, vi } from "vitest"

import type { AuthConfig } from "../../src/types.js"
import {
  ALICE,
  Browser,
  deletedCookies,
  ORIGIN,
  setCookies,
  testConfig,
} from "../helpers/request.js"

const SESSION = "authjs.session-token"

function hiddenValue(html: string, name: string): string | undefined {
  return new RegExp(`name="${name}"\\s+value="([^"]*)"`).exec(html)?.[1]
}

async function signedIn(config: AuthConfig = testConfig(), origin?: string): Promise<Browser> {
  const browser = new Browser(config, origin)
  await browser.signIn()
  expect(await browser.session()).not.toBeNull()
  return browser
}

async function postSignOut(browser: Browser, form: Record<string, string> = {}) {
  const csrfToken = await browser.csrfToken()
  return browser.fetch("/auth/signout", { form: { csrfToken, ...form } })
}

describe("GET /auth/signout", () => {
  it("renders a confirmation page with the CSRF token of its cookie", async () => {
    const browser = await signedIn()
    const response = await browser.fetch("/auth/signout")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^text\/html/)
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'")
    const html = await response.text()
    expect(html).toContain('action="http://localhost:3000/auth/signout"')
    expect(html).toContain('method="post"')
    expect(hiddenValue(html, "csrfToken")).toBe(await browser.csrfToken())
  })

  it("sets a CSRF cookie for a first-time visitor", async () => {
    const browser = new Browser(testConfig())
    const response = await browser.fetch("/auth/signout")
    const token = hiddenValue(await response.text(), "csrfToken")
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    expect(setCookies(response).get("authjs.csrf-token")?.cookie.value?.split("|")[0]).toBe(token)
  })

  it("does not end the session", async () => {
    const browser = await signedIn()
    const response = await browser.fetch("/auth/signout")
    expect(deletedCookies(response)).toEqual([])
    expect(await browser.session()).not.toBeNull()
  })

  it("carries a same-origin callbackUrl, and drops a foreign one", async () => {
    const browser = new Browser(testConfig())
    const own = await (await browser.fetch("/auth/signout?callbackUrl=/bye")).text()
    expect(hiddenValue(own, "callbackUrl")).toBe(`${ORIGIN}/bye`)
    const foreign = await (
      await browser.fetch("/auth/signout?callbackUrl=https://evil.example/")
    ).text()
    expect(foreign).not.toContain("evil.example")
  })

  it("redirects to pages.signOut when set", async () => {
    const browser = new Browser(testConfig({ pages: { signOut: "/goodbye" } }))
    const response = await browser.fetch("/auth/signout?callbackUrl=/after")
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/goodbye")
    expect(location.searchParams.get("callbackUrl")).toBe("/after")
  })
})

describe("POST /auth/signout", () => {
  it("deletes the session cookie and redirects to the origin", async () => {
    const browser = await signedIn()
    const response = await postSignOut(browser)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`)
    expect(deletedCookies(response)).toContain(SESSION)
    expect(browser.cookies.has(SESSION)).toBe(false)
    expect(await browser.session()).toBeNull()
  })

  it.each([
    ["/bye", `${ORIGIN}/bye`],
    ["https://evil.example/", `${ORIGIN}/`],
    ["//evil.example", `${ORIGIN}/`],
    ["javascript:alert(1)", `${ORIGIN}/`],
  ])("redirects to callbackUrl %s → %s", async (callbackUrl, expected) => {
    const browser = await signedIn()
    const response = await postSignOut(browser, { callbackUrl })
    expect(response.headers.get("location")).toBe(expected)
  })

  it("deletes every chunk of a split session", async () => {
    const blob = "x".repeat(10_000)
    const browser = await signedIn(
      testConfig({ callbacks: { jwt: ({ token, user }) => (user ? { ...token, blob } : token) } }),
    )
    const chunks = [...browser.cookies.keys()].filter((name) => name.startsWith(`${SESSION}.`))
    expect(chunks.length).toBeGreaterThanOrEqual(2)
    const response = await postSignOut(browser)
    expect(
      deletedCookies(response)
        .filter((n) => n.startsWith(SESSION))
        .sort(),
    ).toEqual([...chunks].sort())
    expect([...browser.cookies.keys()].some((name) => name.startsWith(SESSION))).toBe(false)
    expect(await browser.session()).toBeNull()
  })

  it("deletes the __Secure- session cookie on https", async () => {
    const browser = await signedIn(testConfig(), "https://example.com")
    const response = await postSignOut(browser)
    const deleted = setCookies(response).get(`__Secure-${SESSION}`)
    expect(deleted?.cookie.value).toBe("")
    expect(deleted?.cookie.secure).toBe(true)
    expect(response.headers.get("location")).toBe("https://example.com/")
  })

  it("emits signOut with the token it ended", async () => {
    const signOut = vi.fn()
    const browser = await signedIn(testConfig({ events: { signOut } }))
    await postSignOut(browser)
    expect(signOut).toHaveBeenCalledTimes(1)
    expect(signOut.mock.calls[0]![0]).toEqual({
      token: expect.objectContaining({
        name: ALICE.name,
        email: ALICE.email,
        picture: ALICE.image,
        sub: ALICE.id,
      }),
    })
  })

  it("signs out even when the signOut event throws", async () => {
    const browser = await signedIn(
      testConfig({
        events: {
          signOut: () => {
            throw new Error("audit down")
          },
        },
      }),
    )
    const response = await postSignOut(browser)
    expect(response.status).toBe(302)
    expect(await browser.session()).toBeNull()
  })

  it("does not emit signOut without a session, and still redirects", async () => {
    const signOut = vi.fn()
    const browser = new Browser(testConfig({ events: { signOut } }))
    const response = await postSignOut(browser)
    expect(response.status).toBe(302)
    expect(signOut).not.toHaveBeenCalled()
  })

  it.each([
    ["without a CSRF token", {}],
    ["with a wrong CSRF token", { csrfToken: "a".repeat(64) }],
  ])("redirects with MissingCSRF %s and keeps the session", async (_case, form) => {
    const signOut = vi.fn()
    const browser = await signedIn(testConfig({ events: { signOut } }))
    await browser.csrfToken()
    const response = await browser.fetch("/auth/signout", { form })
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("MissingCSRF")
    expect(deletedCookies(response)).not.toContain(SESSION)
    expect(signOut).not.toHaveBeenCalled()
    expect((await browser.session())?.user?.name).toBe("Alice")
  })

  it("answers {url} with X-Auth-Return-Redirect: 1", async () => {
    const browser = await signedIn()
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/signout", {
      form: { csrfToken, callbackUrl: "/bye" },
      headers: { "x-auth-return-redirect": "1" },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ url: `${ORIGIN}/bye` })
    expect(deletedCookies(response)).toContain(SESSION)
  })
})
