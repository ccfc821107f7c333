import { describe, expect, it } from "vitest"

import { Browser, setCookies, testConfig } from "../helpers/request.js"

const CSRF_COOKIE = "authjs.csrf-token"

function hiddenValue(html: string, name: string): string | undefined {
  const match = new RegExp(`name="${name}"\\s+value="([^"]*)"`).exec(html)
  return match?.[1]
}

describe("GET /auth/signin", () => {
  it("renders the sign-in page with a strict CSP", async () => {
    const response = await new Browser(testConfig()).fetch("/auth/signin")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^text\/html/)
    const csp = response.headers.get("content-security-policy")
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(response.headers.get("cache-control")).toMatch(/no-store/)
    const html = await response.text()
    expect(html).not.toContain("<script")
  })

  it("shows the credential fields in a form posting to the callback", async () => {
    const html = await (await new Browser(testConfig()).fetch("/auth/signin")).text()
    expect(html).toContain('name="username"')
    expect(html).toMatch(/name="password"\s+type="password"/)
    expect(html).toContain('action="http://localhost:3000/auth/callback/credentials"')
    expect(html).toContain("Sign in with Credentials")
  })

  it("puts the CSRF token of its cookie in a hidden input", async () => {
    const browser = new Browser(testConfig())
    const response = await browser.fetch("/auth/signin")
    const token = hiddenValue(await response.text(), "csrfToken")
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    expect(setCookies(response).get(CSRF_COOKIE)?.cookie.value?.split("|")[0]).toBe(token)
    expect(await browser.csrfToken()).toBe(token)
  })

  it("reuses an existing CSRF cookie", async () => {
    const browser = new Browser(testConfig())
    const token = await browser.csrfToken()
    const response = await browser.fetch("/auth/signin")
    expect(hiddenValue(await response.text(), "csrfToken")).toBe(token)
    expect(setCookies(response).has(CSRF_COOKIE)).toBe(false)
  })

  it("carries a same-origin callbackUrl into the form", async () => {
    const response = await new Browser(testConfig()).fetch("/auth/signin?callbackUrl=/dashboard")
    expect(hiddenValue(await response.text(), "callbackUrl")).toBe(
      "http://localhost:3000/dashboard",
    )
  })

  it("replaces a foreign callbackUrl with the origin", async () => {
    const response = await new Browser(testConfig()).fetch(
      "/auth/signin?callbackUrl=https://evil.example/steal",
    )
    const html = await response.text()
    expect(html).not.toContain("evil.example")
    expect(hiddenValue(html, "callbackUrl")).toBe("http://localhost:3000/")
  })

  it("shows a message and the code for ?error=CredentialsSignin&code=x", async () => {
    const response = await new Browser(testConfig()).fetch(
      "/auth/signin?error=CredentialsSignin&code=x",
    )
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('role="alert"')
    expect(html).toContain("Sign in failed")
    expect(html).toContain("<code>x</code>")
  })

  it.each([
    ["an unknown error", "?error=Whatever"],
    ["markup in the error", `?error=${encodeURIComponent("<script>alert(1)</script>")}`],
    ["markup in the code", `?error=CredentialsSignin&code=${encodeURIComponent("<b>x</b>")}`],
    ["a javascript: callbackUrl", `?callbackUrl=${encodeURIComponent("javascript:alert(1)")}`],
  ])("never reflects %s unescaped", async (_case, query) => {
    const response = await new Browser(testConfig()).fetch(`/auth/signin${query}`)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).not.toContain("<script>alert(1)")
    expect(html).not.toContain("<b>x</b>")
    expect(html).not.toContain("javascript:")
  })

  it("redirects to pages.signIn with the callbackUrl", async () => {
    const browser = new Browser(testConfig({ pages: { signIn: "/login" } }))
    const response = await browser.fetch("/auth/signin?callbackUrl=/dashboard")
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.origin + location.pathname).toBe("http://localhost:3000/login")
    expect(location.searchParams.get("callbackUrl")).toBe("/dashboard")
  })

  it("passes error and code on to pages.signIn", async () => {
    const browser = new Browser(testConfig({ pages: { signIn: "/login" } }))
    const response = await browser.fetch("/auth/signin?error=CredentialsSignin&code=bad_otp")
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/login")
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
    expect(location.searchParams.get("code")).toBe("bad_otp")
  })

  it("works under a custom basePath", async () => {
    const browser = new Browser(testConfig({ basePath: "/api/auth" }))
    const response = await browser.fetch("/api/auth/signin")
    expect(response.status).toBe(200)
    expect(await response.text()).toContain(
      'action="http://localhost:3000/api/auth/callback/credentials"',
    )
  })
})

describe("POST /auth/signin/<provider>", () => {
  it("redirects with error=MissingCSRF without a CSRF token", async () => {
    const browser = new Browser(testConfig())
    await browser.csrfToken()
    const response = await browser.fetch("/auth/signin/credentials", { form: {} })
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.origin + location.pathname).toBe("http://localhost:3000/auth/signin")
    expect(location.searchParams.get("error")).toBe("MissingCSRF")
  })

  it("redirects with error=MissingCSRF for a token without its cookie", async () => {
    const browser = new Browser(testConfig())
    const csrfToken = await browser.csrfToken()
    browser.cookies.clear()
    const response = await browser.fetch("/auth/signin/credentials", { form: { csrfToken } })
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
  })

  it("signs in with credentials as the callback does", async () => {
    const browser = new Browser(testConfig())
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/signin/credentials", {
      form: { csrfToken, username: "alice", password: "wonderland", callbackUrl: "/home" },
    })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe("http://localhost:3000/home")
    expect((await browser.session())?.user?.name).toBe("Alice")
  })

  it("refuses wrong credentials as the callback does", async () => {
    const browser = new Browser(testConfig())
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/signin/credentials", {
      form: { csrfToken, username: "alice", password: "wrong" },
    })
    expect(response.headers.get("location")).toBe(
      "http://localhost:3000/auth/signin?error=CredentialsSignin&code=credentials",
    )
    expect(await browser.session()).toBeNull()
  })

  it("redirects to the sign-in page without a provider", async () => {
    const browser = new Browser(testConfig())
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/signin", { form: { csrfToken } })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe("http://localhost:3000/auth/signin")
  })

  it("redirects to the error page with error=Configuration for an unknown provider", async () => {
    const browser = new Browser(testConfig())
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/signin/nope", { form: { csrfToken } })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(
      "http://localhost:3000/auth/error?error=Configuration",
    )
  })

  it("answers {url} with X-Auth-Return-Redirect: 1", async () => {
    const browser = new Browser(testConfig())
    const response = await browser.fetch("/auth/signin/credentials", {
      form: {},
      headers: { "x-auth-return-redirect": "1" },
    })
    expect(response.status).toBe(200)
    const { url } = (await response.json()) as { url: string }
    expect(new URL(url).searchParams.get("error")).toBe("MissingCSRF")
  })
})
