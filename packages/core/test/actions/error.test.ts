import { describe, expect, it } from "vitest"

import { Browser, ORIGIN, testConfig } from "../helpers/request.js"

describe("GET /auth/error", () => {
  it.each([
    ["Configuration", 500, "Server error"],
    ["AccessDenied", 403, "Access denied"],
    ["Verification", 403, "Unable to sign in"],
    ["OAuthSignin", 200, "Error"],
    ["Default", 200, "Error"],
    ["", 200, "Error"],
    ["constructor", 200, "Error"],
    ["__proto__", 200, "Error"],
  ])("answers ?error=%j with %i", async (error, status, heading) => {
    const response = await new Browser(testConfig()).fetch(
      `/auth/error?error=${encodeURIComponent(error)}`,
    )
    expect(response.status).toBe(status)
    expect(response.headers.get("content-type")).toMatch(/^text\/html/)
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'")
    expect(await response.text()).toContain(`<h1>${heading}</h1>`)
  })

  it("answers 200 without an error parameter", async () => {
    const response = await new Browser(testConfig()).fetch("/auth/error")
    expect(response.status).toBe(200)
  })

  it("offers a sign-in link for Verification", async () => {
    const html = await (
      await new Browser(testConfig()).fetch("/auth/error?error=Verification")
    ).text()
    expect(html).toContain(`href="${ORIGIN}/auth/signin"`)
  })

  it.each(["<script>alert(1)</script>", `"><img src=x onerror=alert(1)>`, "javascript:alert(1)"])(
    "never reflects %j",
    async (value) => {
      const response = await new Browser(testConfig()).fetch(
        `/auth/error?error=${encodeURIComponent(value)}`,
      )
      expect(response.status).toBe(200)
      const html = await response.text()
      expect(html).not.toContain(value)
      expect(html).not.toContain("<script")
      expect(html).not.toContain("onerror=")
    },
  )

  it("sets no cookie", async () => {
    const response = await new Browser(testConfig()).fetch("/auth/error?error=AccessDenied")
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("redirects to pages.error with the error parameter", async () => {
    const browser = new Browser(testConfig({ pages: { error: "/oops" } }))
    const response = await browser.fetch("/auth/error?error=AccessDenied")
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/oops?error=AccessDenied`)
  })

  it("encodes the error parameter in the pages.error redirect", async () => {
    const browser = new Browser(testConfig({ pages: { error: "/oops?lang=en" } }))
    const response = await browser.fetch(
      `/auth/error?error=${encodeURIComponent("<x>&next=https://evil.example")}`,
    )
    const location = new URL(response.headers.get("location")!)
    expect(location.origin).toBe(ORIGIN)
    expect(location.pathname).toBe("/oops")
    expect(location.searchParams.get("lang")).toBe("en")
    expect(location.searchParams.get("error")).toBe("<x>&next=https://evil.example")
    expect(location.searchParams.get("next")).toBeNull()
  })

  it("sends sign-in refusals to pages.error on the error side", async () => {
    const browser = new Browser(
      testConfig({ pages: { error: "/oops" }, callbacks: { signIn: () => false } }),
    )
    const response = await browser.signIn()
    expect(response.headers.get("location")).toBe(`${ORIGIN}/oops?error=AccessDenied`)
  })

  it("answers 405 with Allow: GET, HEAD for POST", async () => {
    const response = await new Browser(testConfig()).fetch("/auth/error", { form: {} })
    expect(response.status).toBe(405)
    expect(response.headers.get("allow")).toBe("GET, HEAD")
  })
})
