import { describe, expect, it } from "vitest"

import { resolveConfig } from "../../src/config/resolve.js"
import { InvalidRequest, PayloadTooLarge, UnknownAction } from "../../src/errors.js"
import { authActions } from "../../src/request/action-url.js"
import { MAX_BODY_BYTES, readBody } from "../../src/request/body.js"
import { parseActionPath, parseRequest } from "../../src/request/parse.js"
import Credentials from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/types.js"

const URL_BASE = "http://localhost:3000"

describe("parseActionPath", () => {
  it.each(authActions)("finds the %s action under /auth", (action) => {
    expect(parseActionPath(`/auth/${action}`, "/auth")).toEqual({ action, providerId: undefined })
  })

  it.each(authActions)("finds the %s action with a provider id", (action) => {
    expect(parseActionPath(`/auth/${action}/github`, "/auth")).toEqual({
      action,
      providerId: "github",
    })
  })

  it.each([
    ["/auth/signin/github", "/auth", "signin", "github"],
    ["/auth/callback/credentials", "/auth", "callback", "credentials"],
    ["/auth/callback/microsoft-entra-id", "/auth", "callback", "microsoft-entra-id"],
    ["/auth/callback/my%20provider", "/auth", "callback", "my provider"],
    ["/auth/callback/caf%C3%A9", "/auth", "callback", "café"],
    ["/auth/callback/a%2Fb", "/auth", "callback", "a/b"],
    ["/auth/signin/%2E%2E", "/auth", "signin", ".."],
    ["/auth/signin/", "/auth", "signin", undefined],
    ["/auth/signin/github/", "/auth", "signin", "github"],
    ["/auth/session/", "/auth", "session", undefined],
    ["/signin", "", "signin", undefined],
    ["/callback/github", "", "callback", "github"],
    ["/session/", "", "session", undefined],
    ["/api/auth/session", "/api/auth", "session", undefined],
    ["/api/auth/callback/google", "/api/auth", "callback", "google"],
    ["/app/api/auth/webauthn-options/passkey", "/app/api/auth", "webauthn-options", "passkey"],
  ])("reads %s under %j as %s, provider %j", (pathname, basePath, action, providerId) => {
    expect(parseActionPath(pathname, basePath)).toEqual({ action, providerId })
  })

  it.each([
    ["/other/signin", "/auth", "outside the base path"],
    ["/auth", "/auth", "the base path itself"],
    ["/authx/signin", "/auth", "a path that only starts like the base path"],
    ["/auth-signin", "/auth", "a path glued to the base path"],
    ["/AUTH/signin", "/auth", "the base path in another case"],
    ["/", "/auth", "the root"],
    ["", "/auth", "an empty path"],
    ["/auth/", "/auth", "no action"],
    ["/auth//signin", "/auth", "an empty segment before the action"],
    ["/auth/unknown", "/auth", "an unknown action"],
    ["/auth/SIGNIN", "/auth", "an action in another case"],
    ["/auth/signIn", "/auth", "an action in camel case"],
    ["/auth/__proto__", "/auth", "a prototype member"],
    ["/auth/constructor", "/auth", "another prototype member"],
    ["/auth/callback/github/extra", "/auth", "an extra segment"],
    ["/auth/callback/github/extra/", "/auth", "an extra segment with a trailing slash"],
    ["/auth/signin/a/b/c", "/auth", "several extra segments"],
    ["/auth/callback/%E0%A4%A", "/auth", "a truncated percent-encoding"],
    ["/auth/callback/%zz", "/auth", "a percent sign without hex digits"],
    ["/auth/callback/%", "/auth", "a lone percent sign"],
    ["/auth/callback/%C3%28", "/auth", "an invalid UTF-8 sequence"],
    ["", "", "an empty path with an empty base path"],
    ["/", "", "the root with an empty base path"],
    ["/nope", "", "an unknown action with an empty base path"],
  ])("refuses %j under %j (%s) with UnknownAction", (pathname, basePath) => {
    expect(() => parseActionPath(pathname, basePath)).toThrow(UnknownAction)
  })

  it("says which base path a stray path missed", () => {
    expect(() => parseActionPath("/other", "/api/auth")).toThrow(/\/api\/auth/)
  })
})

function post(body: BodyInit | null, type?: string, headers: Record<string, string> = {}): Request {
  const init: RequestInit = { method: "POST", body, headers: { ...headers } }
  if (type) (init.headers as Record<string, string>)["content-type"] = type
  return new Request(`${URL_BASE}/auth/signin`, init)
}

/** A request whose body arrives as a stream, without a Content-Length. */
function streamed(text: string, type: string, chunk = 1000): Request {
  const bytes = new TextEncoder().encode(text)
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let offset = 0; offset < bytes.length; offset += chunk) {
        controller.enqueue(bytes.slice(offset, offset + chunk))
      }
      controller.close()
    },
  })
  return new Request(`${URL_BASE}/auth/signin`, {
    method: "POST",
    body: stream,
    headers: { "content-type": type },
    duplex: "half",
  } as RequestInit)
}

const FORM = "application/x-www-form-urlencoded"

describe("readBody", () => {
  it.each([
    FORM,
    `${FORM}; charset=UTF-8`,
    "Application/X-WWW-Form-Urlencoded",
    ` ${FORM} ;charset=utf-8`,
  ])("reads a form body sent as %j", async (type) => {
    const body = await readBody(
      post("csrfToken=abc&callbackUrl=%2Fdashboard&name=J%C3%BCrgen+M", type),
    )
    expect(body).toEqual({ csrfToken: "abc", callbackUrl: "/dashboard", name: "Jürgen M" })
  })

  it("keeps the first value of a repeated form field", async () => {
    expect(await readBody(post("a=1&b=2&a=3&a=4", FORM))).toEqual({ a: "1", b: "2" })
  })

  it("reads empty form values as empty strings", async () => {
    expect(await readBody(post("a=&b", FORM))).toEqual({ a: "", b: "" })
  })

  it.each(["constructor", "toString", "hasOwnProperty", "valueOf", "__proto__"])(
    "keeps a form field named %s",
    async (field) => {
      const body = await readBody(post(`${field}=x&other=y`, FORM))
      expect(Object.hasOwn(body, field)).toBe(true)
      expect(body[field]).toBe("x")
      expect(body.other).toBe("y")
    },
  )

  it("does not let a form field change the body's prototype", async () => {
    const body = await readBody(post("__proto__=x&polluted=1", FORM))
    expect(
      Object.getPrototypeOf(body) === null || Object.getPrototypeOf(body) === Object.prototype,
    ).toBe(true)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it.each(["application/json", "application/json; charset=utf-8", "APPLICATION/JSON"])(
    "reads a JSON object sent as %j",
    async (type) => {
      const value = { csrfToken: "abc", data: { name: "Bob", n: 1, list: [1, 2] } }
      expect(await readBody(post(JSON.stringify(value), type))).toEqual(value)
    },
  )

  it("reads a multipart form, keeping the first of repeated fields and skipping files", async () => {
    const form = new FormData()
    form.append("csrfToken", "abc")
    form.append("a", "1")
    form.append("a", "2")
    form.append("upload", new Blob(["file contents"]), "file.txt")
    const request = new Request(`${URL_BASE}/auth/signin`, { method: "POST", body: form })
    expect(request.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/)
    expect(await readBody(request)).toEqual({ csrfToken: "abc", a: "1" })
  })

  it("refuses a multipart body that does not match its boundary", async () => {
    const request = post("not multipart at all", "multipart/form-data; boundary=xyz")
    await expect(readBody(request)).rejects.toBeInstanceOf(InvalidRequest)
  })

  it.each([
    ["text/plain", "a=1"],
    ["application/xml", "<a>1</a>"],
    ["application/jsonp", '{"a":1}'],
    ["application/x-www-form-urlencoded-extra", "a=1"],
    ["", "a=1"],
    [undefined, "a=1"],
  ])("answers {} for a %j body", async (type, text) => {
    expect(await readBody(post(text, type))).toEqual({})
  })

  it.each([FORM, "application/json", "multipart/form-data; boundary=x"])(
    "answers {} for an empty %s body",
    async (type) => {
      expect(await readBody(post("", type))).toEqual({})
      expect(await readBody(post(null, type))).toEqual({})
    },
  )

  it.each([
    ["{", "a truncated object"],
    ["{'a': 1}", "single quotes"],
    ["undefined", "a bare word"],
    ["[1, 2]", "an array"],
    ["[]", "an empty array"],
    ["null", "null"],
    ['"text"', "a string"],
    ["42", "a number"],
    ["true", "a boolean"],
  ])("refuses the JSON body %j (%s) with InvalidRequest", async (text) => {
    await expect(readBody(post(text, "application/json"))).rejects.toBeInstanceOf(InvalidRequest)
  })

  it("keeps the JSON parse error as the cause", async () => {
    const error = await readBody(post("{", "application/json")).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidRequest)
    expect((error as InvalidRequest).cause?.err).toBeInstanceOf(SyntaxError)
  })

  it("reads a body of exactly the limit", async () => {
    const text = `a=${"x".repeat(98)}`
    expect(text.length).toBe(100)
    expect(await readBody(post(text, FORM), 100)).toEqual({ a: "x".repeat(98) })
    expect(await readBody(streamed(text, FORM, 7), 100)).toEqual({ a: "x".repeat(98) })
  })

  it.each([
    {
      label: "a declared Content-Length over the limit",
      request: () => post("a=1", FORM, { "content-length": "101" }),
    },
    { label: "a body one byte over the limit", request: () => post(`a=${"x".repeat(99)}`, FORM) },
    {
      label: "a streamed body over the limit",
      request: () => streamed(`a=${"x".repeat(500)}`, FORM, 10),
    },
    {
      label: "a body larger than its declared Content-Length",
      request: () => post(`a=${"x".repeat(500)}`, FORM, { "content-length": "10" }),
    },
    {
      label: "a JSON body over the limit",
      request: () => post(JSON.stringify({ a: "x".repeat(200) }), "application/json"),
    },
    {
      label: "an over-limit body of an unknown type",
      request: () => post("x".repeat(200), "text/plain"),
    },
  ])("refuses $label with PayloadTooLarge", async ({ request }) => {
    await expect(readBody(request(), 100)).rejects.toBeInstanceOf(PayloadTooLarge)
  })

  it("counts bytes, not characters", async () => {
    const text = `a=${"é".repeat(60)}`
    expect(text.length).toBeLessThan(100)
    await expect(readBody(post(text, FORM), 100)).rejects.toBeInstanceOf(PayloadTooLarge)
  })

  it("limits bodies to 64 KiB by default", async () => {
    expect(MAX_BODY_BYTES).toBe(65_536)
    const fits = `a=${"x".repeat(MAX_BODY_BYTES - 2)}`
    expect((await readBody(post(fits, FORM))).a).toHaveLength(MAX_BODY_BYTES - 2)
    await expect(readBody(post(`${fits}x`, FORM))).rejects.toBeInstanceOf(PayloadTooLarge)
    await expect(
      readBody(post("a=1", FORM, { "content-length": String(MAX_BODY_BYTES + 1) })),
    ).rejects.toBeInstanceOf(PayloadTooLarge)
  })

  it("refuses a body that cannot be read with InvalidRequest", async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("connection reset"))
      },
    })
    const request = new Request(`${URL_BASE}/auth/signin`, {
      method: "POST",
      body: stream,
      headers: { "content-type": FORM },
      duplex: "half",
    } as RequestInit)
    await expect(readBody(request)).rejects.toBeInstanceOf(InvalidRequest)
  })
})

describe("parseRequest", () => {
  function resolved(overrides: Partial<AuthConfig> = {}) {
    return resolveConfig(
      {
        secret: "a-test-secret-that-is-long-enough-0123456789",
        providers: [Credentials({ authorize: () => null })],
        logger: { warn: () => {}, error: () => {}, debug: () => {} },
        ...overrides,
      },
      {},
    )
  }

  it("reads the action, provider, method, first query values, body and cookies", async () => {
    const request = new Request(`${URL_BASE}/api/auth/callback/credentials?a=1&a=2&b=3`, {
      method: "post",
      headers: { "content-type": FORM, cookie: "x=1; y=2" },
      body: "username=alice&username=bob",
    })
    const parsed = await parseRequest(
      request,
      new URL(request.url),
      resolved({ basePath: "/api/auth" }),
    )
    expect(parsed.action).toBe("callback")
    expect(parsed.providerId).toBe("credentials")
    expect(parsed.method).toBe("POST")
    expect(parsed.query).toEqual({ a: "1", b: "3" })
    expect(parsed.body).toEqual({ username: "alice" })
    expect(parsed.cookies.get("y")).toBe("2")
    expect(parsed.request).toBe(request)
  })

  it("does not read the body of a GET", async () => {
    const request = new Request(`${URL_BASE}/auth/session`)
    const parsed = await parseRequest(request, new URL(request.url), resolved())
    expect(parsed.body).toEqual({})
    expect(parsed.query).toEqual({})
  })

  it.each(["constructor", "toString"])("keeps a query parameter named %s", async (name) => {
    const request = new Request(`${URL_BASE}/auth/signin?${name}=x`)
    const parsed = await parseRequest(request, new URL(request.url), resolved())
    expect(Object.hasOwn(parsed.query, name)).toBe(true)
    expect(parsed.query[name]).toBe("x")
  })

  it("refuses a path outside the configuration's basePath", async () => {
    const request = new Request(`${URL_BASE}/auth/session`)
    await expect(
      parseRequest(request, new URL(request.url), resolved({ basePath: "/api/auth" })),
    ).rejects.toBeInstanceOf(UnknownAction)
  })
})
