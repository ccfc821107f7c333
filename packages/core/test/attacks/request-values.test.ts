/**
 * Attack: request values smuggled into logs and cookies.
 *
 * The path's provider id and the `callbackUrl` are the client's words, and a provider's claims
 * are whatever its user or an organization's admin could set. Logged raw, a newline in
 * the id would let the client write a line of its own into the server's log; stored raw, a `;`
 * or CRLF in the callback URL would add cookie attributes or headers. (Mail headers, redirects
 * and pages have their own attack tests: test/flows/email.test.ts, test/security/redirect.test.ts
 * and test/pages/pages.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { customFetch } from "../../src/markers.js"
import Google from "../../src/providers/google.js"
import {
  CLIENTS,
  discoveryOf,
  login,
  routedFetch,
  startOP,
  type OP,
  type Route,
} from "../helpers/oidc-provider.js"
import { Browser, testConfig } from "../helpers/request.js"

const FORGED_LINE = "[latch][error] AdapterError: forged"

describe("a provider id with line breaks", () => {
  it.each([
    ["a callback", "GET", `/auth/callback/x%0A${encodeURIComponent(FORGED_LINE)}`],
    ["a sign-in", "POST", `/auth/signin/x%0D%0A${encodeURIComponent(FORGED_LINE)}`],
  ])("is quoted in the log of %s, never a line of its own", async (_case, method, path) => {
    const logged: string[] = []
    const config = testConfig({
      logger: { error: (error) => logged.push(error.message), warn() {}, debug() {} },
    })
    const browser = new Browser(config)
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch(path, method === "POST" ? { form: { csrfToken } } : {})
    expect(response.status).toBeLessThan(500)
    expect(logged.length).toBeGreaterThan(0)
    for (const message of logged) {
      expect(message).not.toMatch(/[\r\n]/)
      expect(message).toContain(JSON.stringify(FORGED_LINE).slice(1, -1))
    }
  })
})

describe("the default logger", () => {
  it("prints an error whose message carries a line break on one line", async () => {
    const printed: string[] = []
    const spy = vi.spyOn(console, "error").mockImplementation((text: string) => printed.push(text))
    try {
      const { logger: _quiet, ...config } = testConfig()
      const response = await new Browser(config).fetch(
        `/auth/callback/x%0A${encodeURIComponent(FORGED_LINE)}`,
      )
      expect(response.status).toBe(302)
    } finally {
      spy.mockRestore()
    }
    expect(printed).toHaveLength(1)
    const lines = printed[0]!.split("\n")
    expect(lines.filter((line) => line.startsWith("[latch]"))).toHaveLength(1)
  })
})

describe("a callbackUrl made to break out of its cookie", () => {
  it.each([
    ["cookie attributes", "/next; Domain=evil.example; Max-Age=99999999"],
    ["a header", "/next\r\nSet-Cookie: planted=1"],
    ["another cookie", "/next, planted=1"],
  ])("cannot add %s", async (_case, callbackUrl) => {
    const browser = new Browser(testConfig())
    const response = await browser.fetch(
      `/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`,
    )
    expect(response.status).toBe(200)
    const lines = response.headers.getSetCookie()
    expect(lines.join("\n")).not.toMatch(/Domain=evil\.example|planted=1|Max-Age=99999999/i)
    for (const line of lines) expect(line).not.toMatch(/[\r\n]/)
    expect(browser.cookies.has("planted")).toBe(false)
  })
})

describe("a provider claim with line breaks", () => {
  // A Google Workspace domain (`hd`) is the customer's to name; this provider stands in for
  // Google and gives bob a domain that carries a forged log line.
  let google: OP
  beforeAll(async () => {
    google = await startOP({
      issuer: "https://accounts.google.com",
      claims: { bob: { hd: `evil.example\n${FORGED_LINE}` } },
    })
  })
  afterAll(() => google?.stop())

  it("is quoted in the refusal's log message", async () => {
    const routes: Route[] = [discoveryOf("https://accounts.google.com", google)]
    const logged: string[] = []
    const config = testConfig({
      providers: [
        Google({
          ...CLIENTS.basic,
          authorization: { params: { hd: "example.com" } },
          [customFetch]: routedFetch(...routes),
        }),
      ],
      logger: { error: (error) => logged.push(error.message), warn() {}, debug() {} },
    })
    const browser = new Browser(config)
    const csrfToken = await browser.csrfToken()
    const start = await browser.fetch("/auth/signin/google", { form: { csrfToken } })
    let href = start.headers.get("location") ?? ""
    for (const route of routes) {
      const answer = route(new URL(href), {})
      if (typeof answer === "string") href = answer
    }
    const back = new URL(await login(browser, href, { account: "bob" }))
    const callback = await browser.fetch(back.pathname + back.search)
    expect(new URL(callback.headers.get("location") ?? "").searchParams.get("error")).toBe(
      "AccessDenied",
    )
    const refusal = logged.find((message) => message.includes("evil.example"))
    expect(refusal).toBeDefined()
    expect(refusal).not.toMatch(/[\r\n]/)
  })
})
