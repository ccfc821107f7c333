import { describe, expect, it } from "vitest"

import { defaultRedirect } from "../../src/config/defaults.js"
import { randomHex, timingSafeEqual } from "../../src/lib/crypto.js"
import { normalizeBasePath, withQuery } from "../../src/lib/url.js"

const BASE = "http://localhost:3000"

describe("defaultRedirect", () => {
  it.each([
    ["/", `${BASE}/`],
    ["/dashboard", `${BASE}/dashboard`],
    ["/a/b?c=d&e=f#g", `${BASE}/a/b?c=d&e=f#g`],
    ["dashboard", `${BASE}/dashboard`],
    ["./dashboard", `${BASE}/dashboard`],
    ["../../dashboard", `${BASE}/dashboard`],
    ["?tab=1", `${BASE}/?tab=1`],
    ["#top", `${BASE}/#top`],
    ["", `${BASE}/`],
    ["/%2F%2Fevil.com", `${BASE}/%2F%2Fevil.com`],
    ["/evil.com", `${BASE}/evil.com`],
    ["  /dashboard", `${BASE}/dashboard`],
    ["http:dashboard", `${BASE}/dashboard`],
  ])("keeps the relative path %j on the site: %s", (url, expected) => {
    expect(defaultRedirect({ url, baseUrl: BASE })).toBe(expected)
  })

  it.each([
    [`${BASE}`, `${BASE}/`],
    [`${BASE}/`, `${BASE}/`],
    [`${BASE}/dashboard?x=1`, `${BASE}/dashboard?x=1`],
    ["HTTP://LOCALHOST:3000/Case", `${BASE}/Case`],
    ["http://localhost:3000/a/../b", `${BASE}/b`],
  ])("keeps the same-origin URL %j", (url, expected) => {
    expect(defaultRedirect({ url, baseUrl: BASE })).toBe(expected)
  })

  it.each([
    ["another origin", "https://evil.com/"],
    ["another origin over http", "http://evil.com/steal"],
    ["a subdomain", "http://sub.localhost:3000/"],
    ["a look-alike host", "http://localhost:3000.evil.com/"],
    ["a protocol-relative URL", "//evil.com"],
    ["a protocol-relative URL with a path", "//evil.com/localhost:3000"],
    ["a slash and a backslash", "/\\evil.com"],
    ["two backslashes", "\\\\evil.com"],
    ["a backslash and a slash", "\\/evil.com"],
    ["three slashes", "///evil.com"],
    ["a tab inside the slashes", "/\t/evil.com"],
    ["a newline inside the slashes", "/\n/evil.com"],
    ["a javascript: URL", "javascript:alert(document.cookie)"],
    ["a JavaScript: URL in mixed case", "JaVaScRiPt:alert(1)"],
    ["a javascript: URL after spaces", "  javascript:alert(1)"],
    ["a data: URL", "data:text/html,<script>alert(1)</script>"],
    ["a vbscript: URL", "vbscript:msgbox(1)"],
    ["a file: URL", "file:///etc/passwd"],
    ["userinfo before another host", "http://localhost:3000@evil.com"],
    ["userinfo with a path", "http://localhost:3000@evil.com/localhost:3000"],
    ["userinfo with a password", "http://user:pass@evil.com"],
    ["a different port", "http://localhost:3001/"],
    ["the default port instead of 3000", "http://localhost/"],
    ["a different scheme", "https://localhost:3000/"],
    ["a websocket scheme", "ws://localhost:3000/"],
    ["an IP address for the same machine", "http://127.0.0.1:3000/"],
    ["an unparseable host", "http://[::1"],
    ["an empty host", "http://"],
    ["a host with a space", "http://exa mple.com"],
    ["a port out of range", "http://localhost:99999/"],
    ["a malformed port", "http://localhost:3000:/x"],
  ])("sends %s (%j) to the base URL", (_, url) => {
    expect(defaultRedirect({ url, baseUrl: BASE })).toBe(BASE)
  })

  it("keeps the user-info of a same-origin URL from hiding another host", () => {
    const result = defaultRedirect({ url: "http://evil.com@localhost:3000/x", baseUrl: BASE })
    expect(new URL(result).origin).toBe(BASE)
  })

  it.each([
    ["https://app.example.com", "/x", "https://app.example.com/x"],
    ["https://app.example.com", "https://app.example.com:443/x", "https://app.example.com/x"],
    ["https://app.example.com", "http://app.example.com/x", "https://app.example.com"],
    ["https://app.example.com/base/", "sub", "https://app.example.com/base/sub"],
    ["https://app.example.com/base/", "/root", "https://app.example.com/root"],
  ])("resolves against the base %j: %j → %j", (baseUrl, url, expected) => {
    expect(defaultRedirect({ url, baseUrl })).toBe(expected)
  })

  it("answers the base URL unchanged when the base itself cannot be parsed", () => {
    expect(defaultRedirect({ url: "/x", baseUrl: "not a url" })).toBe("not a url")
  })
})

describe("timingSafeEqual", () => {
  it.each([
    ["", ""],
    ["a", "a"],
    ["0123456789abcdef", "0123456789abcdef"],
    ["é€😀", "é€😀"],
  ])("finds %j equal to %j", (a, b) => {
    expect(timingSafeEqual(a, b)).toBe(true)
  })

  it.each([
    ["a", "b"],
    ["abc", "abd"],
    ["xbc", "abc"],
    ["abc", "ab"],
    ["ab", "abc"],
    ["", "a"],
    ["a", ""],
    ["A", "a"],
    ["é", "e"],
    ["\u0100", "\u0000"],
    ["0123456789abcdef", "0123456789abcdeF"],
  ])("finds %j and %j different", (a, b) => {
    expect(timingSafeEqual(a, b)).toBe(false)
    expect(timingSafeEqual(b, a)).toBe(false)
  })

  it("compares the whole string, not only a prefix", () => {
    const token = randomHex()
    const tampered = token.slice(0, -1) + (token.endsWith("0") ? "1" : "0")
    expect(timingSafeEqual(token, tampered)).toBe(false)
    expect(timingSafeEqual(token, token.slice(0))).toBe(true)
  })
})

describe("randomHex", () => {
  it.each([
    [undefined, 64],
    [0, 0],
    [1, 2],
    [16, 32],
    [32, 64],
    [64, 128],
  ])("turns %j bytes into %i lowercase hex characters", (bytes, length) => {
    const hex = bytes === undefined ? randomHex() : randomHex(bytes)
    expect(hex).toHaveLength(length)
    expect(hex).toMatch(/^[0-9a-f]*$/)
  })

  it("never repeats itself", () => {
    const seen = new Set(Array.from({ length: 1000 }, () => randomHex(16)))
    expect(seen.size).toBe(1000)
  })

  it("uses every hex digit, with leading zeros kept", () => {
    const sample = Array.from({ length: 200 }, () => randomHex(8)).join("")
    for (const digit of "0123456789abcdef") expect(sample).toContain(digit)
    const bytes = Array.from({ length: 500 }, () => randomHex(1))
    expect(bytes.some((hex) => hex.startsWith("0"))).toBe(true)
    for (const hex of bytes) expect(hex).toHaveLength(2)
  })
})

describe("normalizeBasePath", () => {
  it.each([
    ["/auth", "/auth"],
    ["auth", "/auth"],
    ["/auth/", "/auth"],
    ["auth/", "/auth"],
    ["///auth///", "/auth"],
    ["/api/auth", "/api/auth"],
    ["api/auth/", "/api/auth"],
    ["/api//auth", "/api//auth"],
    ["/", ""],
    ["//", ""],
    ["", ""],
  ])("normalises %j to %j", (input, expected) => {
    expect(normalizeBasePath(input)).toBe(expected)
  })

  it("runs in linear time on long runs of slashes", () => {
    const input = `${"/".repeat(200_000)}a${"/".repeat(200_000)}`
    expect(normalizeBasePath(input)).toBe("/a")
  })
})

describe("withQuery", () => {
  it.each<[string, Record<string, string | undefined>, string]>([
    ["/auth/signin", { error: "CredentialsSignin" }, "/auth/signin?error=CredentialsSignin"],
    [
      "/auth/signin",
      { error: "CredentialsSignin", code: "credentials" },
      "/auth/signin?error=CredentialsSignin&code=credentials",
    ],
    ["/auth/signin", { error: "x", code: undefined }, "/auth/signin?error=x"],
    ["/auth/signin", {}, "/auth/signin"],
    ["/auth/signin", { code: undefined }, "/auth/signin"],
    ["/login?next=%2F", { error: "x" }, "/login?next=%2F&error=x"],
    [
      "https://app.example.com/login",
      { error: "a b&c=d", code: "é/?" },
      "https://app.example.com/login?error=a+b%26c%3Dd&code=%C3%A9%2F%3F",
    ],
    ["/p", { empty: "" }, "/p?empty="],
  ])("appends to %j the parameters %j: %j", (url, params, expected) => {
    expect(withQuery(url, params)).toBe(expected)
  })

  it("round-trips the values through URLSearchParams", () => {
    const params = { callbackUrl: "https://app.example.com/a?b=c&d=e#f", error: "100% sure" }
    const url = new URL(withQuery("https://app.example.com/auth/signin", params))
    expect(Object.fromEntries(url.searchParams)).toEqual(params)
  })

  it.each([
    ["/login#form", "/login?error=x#form"],
    ["https://app.example.com/login#form", "https://app.example.com/login?error=x#form"],
    ["/login?next=1#form", "/login?next=1&error=x#form"],
  ])("puts the query of %j before its fragment", (url, expected) => {
    expect(withQuery(url, { error: "x" })).toBe(expected)
    expect(new URL(withQuery(url, { error: "x" }), "http://h").searchParams.get("error")).toBe("x")
  })
})
