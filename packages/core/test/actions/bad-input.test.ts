import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { authRequest, Browser, ORIGIN, SECRET, testConfig } from "../helpers/request.js"

/** Whatever a client sees must carry no stack trace and no secret. */
function expectNoLeak(text: string): void {
  expect(text).not.toMatch(/^\s+at /m)
  expect(text).not.toMatch(/\.[jt]s:\d+/)
  expect(text).not.toContain(SECRET)
  expect(text).not.toContain("short12345")
}

/** Calls `Auth` and checks the answer for leaks: every response of this file goes through it. */
async function call(request: Request, config: AuthConfig): Promise<Response> {
  const response = await Auth(request, config)
  expectNoLeak(await response.clone().text())
  expectNoLeak([...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n"))
  return response
}

async function jsonOf(response: Response): Promise<Record<string, unknown>> {
  expect(response.headers.get("content-type")).toContain("application/json")
  return (await response.json()) as Record<string, unknown>
}

beforeEach(() => {
  // The environment must not fill in what a test leaves out.
  vi.stubEnv("AUTH_SECRET", "")
  vi.stubEnv("AUTH_URL", "")
  vi.stubEnv("AUTH_TRUST_HOST", "")
})

afterEach(() => {
  vi.unstubAllEnvs()
})

describe("paths", () => {
  it.each([
    ["an unknown action", "/auth/nope"],
    ["an action that differs in case", "/auth/CSRF"],
    ["an empty action", "/auth/"],
    ["a double slash", "/auth//csrf"],
    ["extra path segments", "/auth/callback/credentials/extra"],
    ["extra path segments after signin", "/auth/signin/credentials/a/b"],
    ["a path outside basePath", "/other/csrf"],
    ["a path that only starts like basePath", "/authx/csrf"],
    ["basePath itself", "/auth"],
    ["the root", "/"],
    ["a provider segment that is not valid percent-encoding", "/auth/signin/%E0%A4%A"],
    ["a dot-segment escape", "/auth/%2e%2e/csrf"],
  ])("answers 400 UnknownAction for %s", async (_case, path) => {
    for (const method of ["GET", "POST"]) {
      const response = await call(authRequest(path, { method }), testConfig())
      expect(response.status).toBe(400)
      expect(await jsonOf(response)).toMatchObject({ error: "UnknownAction" })
    }
  })

  it("answers 400 for the default basePath when a custom one is set", async () => {
    const response = await call(authRequest("/auth/csrf"), testConfig({ basePath: "/api/auth" }))
    expect(response.status).toBe(400)
  })

  it("accepts a trailing slash", async () => {
    const response = await call(authRequest("/auth/csrf/"), testConfig())
    expect(response.status).toBe(200)
  })
})

describe("methods", () => {
  const actions: [string, string][] = [
    ["/auth/csrf", "GET, HEAD"],
    ["/auth/providers", "GET, HEAD"],
    ["/auth/session", "GET, HEAD, POST"],
    ["/auth/signin", "GET, HEAD, POST"],
    ["/auth/signin/credentials", "GET, HEAD, POST"],
    ["/auth/signout", "GET, HEAD, POST"],
    ["/auth/callback/credentials", "GET, HEAD, POST"],
    ["/auth/error", "GET, HEAD"],
    ["/auth/verify-request", "GET, HEAD"],
    ["/auth/webauthn-options/passkey", "GET, HEAD"],
  ]
  const cases = ["PUT", "DELETE", "PATCH", "OPTIONS"].flatMap((method) =>
    actions.map(([path, allow]) => [method, path, allow] as const),
  )

  it.each(cases)("answers %s %s with 405 and Allow: %s", async (method, path, allow) => {
    const response = await call(authRequest(path, { method }), testConfig())
    expect(response.status).toBe(405)
    expect(response.headers.get("allow")).toBe(allow)
    expect(await jsonOf(response)).toMatchObject({ error: "MethodNotAllowed" })
  })

  it.each(["/auth/csrf", "/auth/providers", "/auth/error", "/auth/verify-request"])(
    "answers POST %s with 405 and Allow: GET, HEAD",
    async (path) => {
      const response = await call(authRequest(path, { method: "POST" }), testConfig())
      expect(response.status).toBe(405)
      expect(response.headers.get("allow")).toBe("GET, HEAD")
    },
  )

  it.each(["/auth/csrf", "/auth/providers", "/auth/session", "/auth/signin", "/auth/error"])(
    "answers HEAD %s as GET",
    async (path) => {
      const response = await call(authRequest(path, { method: "HEAD" }), testConfig())
      expect(response.status).toBeLessThan(500)
      expect(response.status).not.toBe(405)
    },
  )
})

describe("bodies", () => {
  const huge = `csrfToken=x&username=${"a".repeat(1024 * 1024)}`
  const paths = [
    "/auth/callback/credentials",
    "/auth/session",
    "/auth/signout",
    "/auth/signin/credentials",
  ]

  it.each(paths)("answers 413 to a 1 MB form with Content-Length on %s", async (path) => {
    const body = new TextEncoder().encode(huge)
    const response = await call(
      authRequest(path, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(body.length),
        },
        body,
      }),
      testConfig(),
    )
    expect(response.status).toBe(413)
    expect(await jsonOf(response)).toMatchObject({ error: "PayloadTooLarge" })
  })

  it.each(paths)(
    "answers 413 to a 1 MB streamed form without Content-Length on %s",
    async (path) => {
      const bytes = new TextEncoder().encode(huge)
      let offset = 0
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= bytes.length) return controller.close()
          controller.enqueue(bytes.subarray(offset, offset + 16 * 1024))
          offset += 16 * 1024
        },
      })
      const request = authRequest(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: stream,
        duplex: "half",
      } as RequestInit)
      expect(request.headers.get("content-length")).toBeNull()
      const response = await call(request, testConfig())
      expect(response.status).toBe(413)
    },
  )

  it("answers 413 to a 1 MB JSON session update", async () => {
    const response = await call(
      authRequest("/auth/session", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ data: "x".repeat(1024 * 1024) }),
      }),
      testConfig(),
    )
    expect(response.status).toBe(413)
  })

  it.each([
    ["invalid JSON", "{not json"],
    ["truncated JSON", '{"csrfToken":"'],
    ["a JSON array", "[1,2,3]"],
    ["JSON null", "null"],
    ["a JSON string", '"csrf"'],
    ["a JSON number", "42"],
  ])("answers 400 to %s on a session POST", async (_case, body) => {
    const response = await call(
      authRequest("/auth/session", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      }),
      testConfig(),
    )
    expect(response.status).toBe(400)
    expect(await jsonOf(response)).toMatchObject({ error: "InvalidRequest" })
  })

  it("answers 400 to a malformed multipart body", async () => {
    const response = await call(
      authRequest("/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "multipart/form-data; boundary=xyz" },
        body: "--xyz\r\nthis is not a part",
      }),
      testConfig(),
    )
    expect(response.status).toBe(400)
  })

  it.each([
    ["text/plain", "csrfToken=x"],
    ["application/octet-stream", "\u0000\u0001"],
    ["", "csrfToken=x"],
  ])("treats a %j body as empty (MissingCSRF, not a crash)", async (type, body) => {
    const headers: Record<string, string> = type ? { "content-type": type } : {}
    const response = await call(
      authRequest("/auth/callback/credentials", { method: "POST", headers, body }),
      testConfig(),
    )
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
  })

  it("takes the first of repeated form fields", async () => {
    const browser = new Browser(testConfig())
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `csrfToken=${csrfToken}&csrfToken=bad&username=alice&password=wonderland&password=x`,
    })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`)
  })
})

describe("headers", () => {
  // Forwarding headers are never read (test/attacks/forged-host.test.ts has the attacks):
  // garbage in them changes nothing.
  it.each([
    ["X-Forwarded-Proto is not http(s)", { "x-forwarded-proto": "javascript" }],
    ["X-Forwarded-Host has a path", { "x-forwarded-host": "evil.example/path" }],
    ["X-Forwarded-Host has userinfo", { "x-forwarded-host": "a@evil.example" }],
    ["X-Forwarded-Host is not a host", { "x-forwarded-host": "[::1" }],
    ["Forwarded is garbage", { forwarded: 'for=";host=[' }],
  ])("ignores a forwarding header when %s", async (_case, headers) => {
    const response = await call(authRequest("/auth/providers", { headers }), testConfig())
    expect(response.status).toBe(200)
    const body = (await response.json()) as Record<string, Record<string, string>>
    expect(body.credentials!.signinUrl).toBe(`${ORIGIN}/auth/signin/credentials`)
  })

  it.each([
    ["a cookie header of garbage", "=;=;;; ;=="],
    ["a cookie with bad percent-encoding", "authjs.session-token=%E0%A4%A"],
    ["a thousand cookies", Array.from({ length: 1000 }, (_, i) => `c${i}=${i}`).join("; ")],
    ["chunk names out of range", "authjs.session-token.9999=x; authjs.session-token.0=y"],
  ])("answers the session with %s without failing", async (_case, cookie) => {
    const response = await call(authRequest("/auth/session", { headers: { cookie } }), testConfig())
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
  })
})

describe("configuration errors", () => {
  it("answers 500 JSON naming AUTH_SECRET on /auth/session without a secret", async () => {
    const response = await call(authRequest("/auth/session"), testConfig({ secret: undefined }))
    expect(response.status).toBe(500)
    const body = await jsonOf(response)
    expect(body.error).toBe("Configuration")
    expect(body.message).toContain("AUTH_SECRET")
  })

  it.each(["/auth/signin", "/auth/signout", "/auth/error", "/auth/verify-request"])(
    "renders the error page on %s without a secret",
    async (path) => {
      const response = await call(authRequest(path), testConfig({ secret: undefined }))
      expect(response.status).toBe(500)
      expect(response.headers.get("content-type")).toMatch(/^text\/html/)
      expect(await response.text()).toContain("Server error")
    },
  )

  it("renders the error page on a credentials POST without a secret", async () => {
    const response = await call(
      authRequest("/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "username=alice&password=wonderland",
      }),
      testConfig({ secret: undefined }),
    )
    expect(response.status).toBe(500)
    expect(response.headers.get("content-type")).toMatch(/^text\/html/)
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it.each([
    ["an empty string", ""],
    ["an empty array", []],
  ])("treats a secret of %s as missing", async (_case, secret) => {
    const response = await call(authRequest("/auth/csrf"), testConfig({ secret: secret as never }))
    expect(response.status).toBe(500)
    expect((await jsonOf(response)).message).toContain("AUTH_SECRET")
  })

  it("logs the missing secret once, not per request", async () => {
    const errors: Error[] = []
    const config = testConfig({
      secret: undefined,
      logger: { error: (e) => errors.push(e), warn: () => {}, debug: () => {} },
    })
    for (let i = 0; i < 3; i++) await call(authRequest("/auth/session"), config)
    expect(errors).toHaveLength(1)
  })

  it("answers 500 JSON on /auth/session for an untrusted host", async () => {
    const response = await call(authRequest("/auth/session"), testConfig({ trustHost: false }))
    expect(response.status).toBe(500)
    const body = await jsonOf(response)
    expect(body.error).toBe("Configuration")
    expect(body.message).toMatch(/trustHost|AUTH_URL/)
  })

  it("renders the error page on /auth/signin for an untrusted host", async () => {
    const response = await call(authRequest("/auth/signin"), testConfig({ trustHost: false }))
    expect(response.status).toBe(500)
    expect(response.headers.get("content-type")).toMatch(/^text\/html/)
    expect(await response.text()).toContain("Server error")
  })

  it("never lets a forwarded host in when the host is untrusted", async () => {
    const response = await call(
      authRequest("/auth/signin", { headers: { "x-forwarded-host": "evil.example" } }),
      testConfig({ trustHost: false }),
    )
    expect(response.status).toBe(500)
    expect(await response.text()).not.toContain("evil.example")
  })

  it("trusts AUTH_URL instead of the Host header", async () => {
    vi.stubEnv("AUTH_URL", "https://app.example")
    const response = await call(
      authRequest("/auth/providers", { headers: { "x-forwarded-host": "evil.example" } }),
      testConfig({ trustHost: false }),
    )
    expect(response.status).toBe(200)
    const body = (await response.json()) as Record<string, Record<string, string>>
    expect(body.credentials!.signinUrl).toBe("https://app.example/auth/signin/credentials")
  })

  it("refuses a 10-character secret in production with MissingSecret", async () => {
    vi.stubEnv("NODE_ENV", "production")
    const errors: Error[] = []
    const config = testConfig({
      secret: "short12345",
      logger: { error: (e) => errors.push(e), warn: () => {}, debug: () => {} },
    })
    const response = await call(authRequest("/auth/session"), config)
    expect(response.status).toBe(500)
    expect((await jsonOf(response)).message).toMatch(/32 characters/)
    expect(errors.map((e) => (e as { type?: string }).type)).toEqual(["MissingSecret"])
    const page = await call(authRequest("/auth/signin"), config)
    expect(page.status).toBe(500)
  })

  it("refuses a short secret first in a rotation list in production (an older one only decrypts)", async () => {
    vi.stubEnv("NODE_ENV", "production")
    const response = await call(
      authRequest("/auth/csrf"),
      testConfig({ secret: ["short12345", SECRET] }),
    )
    expect(response.status).toBe(500)
    const older = await call(
      authRequest("/auth/csrf"),
      testConfig({ secret: [SECRET, "short12345"] }),
    )
    expect(older.status).toBe(200)
  })

  it("accepts a 10-character secret outside production, with a warning", async () => {
    vi.stubEnv("NODE_ENV", "test")
    const warnings: string[] = []
    const config = testConfig({
      secret: "short12345",
      logger: { error: () => {}, warn: (code) => warnings.push(code), debug: () => {} },
    })
    const response = await call(authRequest("/auth/csrf"), config)
    expect(response.status).toBe(200)
    expect(warnings).toContain("weak-secret")
  })

  it("keeps two configurations in one process apart", async () => {
    const broken = testConfig({ secret: undefined })
    const fine = testConfig()
    const browser = new Browser(fine)
    expect((await call(authRequest("/auth/session"), broken)).status).toBe(500)
    await browser.signIn()
    expect((await browser.session())?.user?.name).toBe("Alice")
    expect((await call(authRequest("/auth/session"), broken)).status).toBe(500)
    expect((await call(authRequest("/auth/csrf"), fine)).status).toBe(200)
  })

  it("keeps an untrusted-host configuration from affecting a trusted one", async () => {
    const untrusted = testConfig({ trustHost: false })
    const trusted = testConfig()
    expect((await call(authRequest("/auth/csrf"), untrusted)).status).toBe(500)
    expect((await call(authRequest("/auth/csrf"), trusted)).status).toBe(200)
    expect((await call(authRequest("/auth/csrf"), untrusted)).status).toBe(500)
  })

  it.each([
    ["a database strategy without an adapter", { session: { strategy: "database" as const } }],
    ["providers that are not an array", { providers: {} as never }],
    ["a provider of an unknown type", { providers: [{ id: "x", type: "magic" }] as never }],
  ])("answers 500, not a crash, for %s", async (_case, overrides) => {
    const response = await call(authRequest("/auth/session"), testConfig(overrides))
    expect(response.status).toBe(500)
    expect((await jsonOf(response)).error).toBe("Configuration")
  })
})

describe("throwing callbacks never answer with a stack", () => {
  const boom = () => {
    throw new Error(`secret is ${SECRET}`)
  }

  it.each([
    ["redirect", { redirect: boom }],
    ["signIn", { signIn: boom }],
    ["jwt", { jwt: boom }],
    ["session", { session: boom }],
  ])("survives a throwing %s callback", async (_case, callbacks) => {
    const browser = new Browser(testConfig({ callbacks }))
    const signIn = await browser.signIn()
    expectNoLeak(await signIn.clone().text())
    expectNoLeak(signIn.headers.get("location") ?? "")
    expect(signIn.status).toBeLessThan(500)
    const session = await browser.fetch("/auth/session")
    expectNoLeak(await session.clone().text())
    expect(session.status).toBe(200)
  })
})
