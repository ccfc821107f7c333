import { parseCookie, stringifySetCookie } from "cookie"
import { beforeEach, describe, expect, it, vi } from "vitest"

import { MAX_COOKIE_SIZE, chunkSize, joinChunks } from "../../src/cookies/chunks.js"
import { defaultCookies } from "../../src/cookies/defaults.js"
import { CookieJar } from "../../src/cookies/jar.js"
import type { Cookie, CookieSerializeOptions } from "../../src/types.js"

vi.mock("cookie", async (importOriginal) => {
  const actual = await importOriginal<typeof import("cookie")>()
  return { ...actual, parseCookie: vi.fn(actual.parseCookie) }
})

const NAME = "authjs.session-token"
const OPTIONS: CookieSerializeOptions = {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: false,
}
const SIZE = chunkSize(NAME, OPTIONS)

/** A value of exactly `chunks` full chunks, minus `short` characters. */
function valueOf(chunks: number, short = 0): string {
  return "v".repeat(SIZE * chunks - short)
}

function header(cookies: Record<string, string>): string {
  return Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ")
}

function byName(jar: CookieJar): Map<string, Cookie> {
  return new Map(jar.toArray().map((cookie) => [cookie.name, cookie]))
}

function isDeletion(cookie: Cookie | undefined): boolean {
  return (
    cookie !== undefined &&
    cookie.value === "" &&
    cookie.options.maxAge === 0 &&
    cookie.options.expires?.getTime() === 0
  )
}

/** What a browser holds after applying the jar's cookies on top of `before`. */
function browserAfter(before: Record<string, string>, jar: CookieJar): Record<string, string> {
  const after = { ...before }
  for (const cookie of jar.toArray()) {
    if (isDeletion(cookie)) delete after[cookie.name]
    else after[cookie.name] = cookie.value
  }
  return after
}

const parse = vi.mocked(parseCookie)

beforeEach(() => {
  parse.mockClear()
})

describe("CookieJar: reading", () => {
  it("does not parse the Cookie header until a cookie is read", () => {
    const jar = new CookieJar("a=1; b=2")
    jar.set("c", "3", OPTIONS)
    jar.delete("d", OPTIONS)
    jar.toArray()
    expect(parse).not.toHaveBeenCalled()
    expect(jar.get("a")).toBe("1")
    expect(parse).toHaveBeenCalledTimes(1)
  })

  it("parses the Cookie header once, however many reads follow", () => {
    const jar = new CookieJar("a=1; b=2")
    expect(jar.get("a")).toBe("1")
    expect(jar.get("b")).toBe("2")
    expect(jar.all).toEqual({ a: "1", b: "2" })
    expect(jar.getChunked("a")).toBe("1")
    expect(jar.hasChunked("b")).toBe(true)
    expect(parse).toHaveBeenCalledTimes(1)
  })

  it.each([null, ""])("reads nothing from a %j Cookie header, without parsing", (value) => {
    const jar = new CookieJar(value)
    expect(jar.all).toEqual({})
    expect(jar.get(NAME)).toBeUndefined()
    expect(jar.getChunked(NAME)).toBeUndefined()
    expect(parse).not.toHaveBeenCalled()
  })

  it("decodes percent-encoded values", () => {
    expect(new CookieJar("a=hello%20world").get("a")).toBe("hello world")
  })

  it("joins chunked values and prefers them over the plain cookie", () => {
    const jar = new CookieJar(header({ [NAME]: "old", [`${NAME}.1`]: "def", [`${NAME}.0`]: "abc" }))
    expect(jar.getChunked(NAME)).toBe("abcdef")
  })

  it.each<{ cookies: Record<string, string>; has: boolean }>([
    { cookies: { [NAME]: "x" }, has: true },
    { cookies: { [`${NAME}.0`]: "x" }, has: true },
    { cookies: { [`${NAME}.3`]: "x" }, has: true },
    { cookies: { [`${NAME}-x`]: "x" }, has: false },
    { cookies: { [`${NAME}.x`]: "x" }, has: false },
    { cookies: { other: "x" }, has: false },
  ])("hasChunked is $has for $cookies", ({ cookies, has }) => {
    expect(new CookieJar(header(cookies)).hasChunked(NAME)).toBe(has)
  })
})

describe("CookieJar: set and delete", () => {
  it("collects cookies as data, in the order they were set", () => {
    const jar = new CookieJar(null)
    jar.set("a", "1", OPTIONS)
    jar.set("b", "2", { ...OPTIONS, maxAge: 60 })
    expect(jar.toArray()).toEqual([
      { name: "a", value: "1", options: OPTIONS },
      { name: "b", value: "2", options: { ...OPTIONS, maxAge: 60 } },
    ])
  })

  it("replaces an earlier write to the same name", () => {
    const jar = new CookieJar(null)
    jar.set("a", "1", OPTIONS)
    jar.set("a", "2", OPTIONS)
    expect(jar.toArray()).toEqual([{ name: "a", value: "2", options: OPTIONS }])
  })

  it("does not change what the request carried when setting", () => {
    const jar = new CookieJar("a=1")
    jar.set("a", "2", OPTIONS)
    expect(jar.get("a")).toBe("1")
  })

  it("deletes with an empty value, Max-Age 0 and an Expires at the epoch", () => {
    const jar = new CookieJar(null)
    jar.delete("a", OPTIONS)
    const [cookie] = jar.toArray()
    expect(cookie?.name).toBe("a")
    expect(cookie?.value).toBe("")
    expect(cookie?.options.maxAge).toBe(0)
    expect(cookie?.options.expires?.getTime()).toBe(0)
    const line = stringifySetCookie(cookie!.name, cookie!.value, cookie!.options)
    expect(line).toContain("Max-Age=0")
    expect(line).toContain("Expires=Thu, 01 Jan 1970 00:00:00 GMT")
  })

  it("keeps the path, domain and flags when deleting, and drops the original lifetime", () => {
    const jar = new CookieJar(null)
    const options: CookieSerializeOptions = {
      ...OPTIONS,
      secure: true,
      domain: "example.com",
      path: "/app",
      maxAge: 900,
      expires: new Date(Date.now() + 900_000),
    }
    jar.delete("a", options)
    expect(jar.toArray()[0]?.options).toEqual({
      httpOnly: true,
      sameSite: "lax",
      secure: true,
      domain: "example.com",
      path: "/app",
      maxAge: 0,
      expires: new Date(0),
    })
  })

  it("does not touch the options object it was given", () => {
    const options: CookieSerializeOptions = { ...OPTIONS, maxAge: 900 }
    const jar = new CookieJar(null)
    jar.delete("a", options)
    expect(options).toEqual({ ...OPTIONS, maxAge: 900 })
  })

  it("replaces a set with a later delete of the same name, and the other way round", () => {
    const jar = new CookieJar(null)
    jar.set("a", "1", OPTIONS)
    jar.delete("a", OPTIONS)
    jar.delete("b", OPTIONS)
    jar.set("b", "2", OPTIONS)
    const cookies = byName(jar)
    expect(cookies.size).toBe(2)
    expect(isDeletion(cookies.get("a"))).toBe(true)
    expect(cookies.get("b")?.value).toBe("2")
  })
})

describe("CookieJar: setChunked", () => {
  it("sets one plain cookie when the value fits, deleting nothing", () => {
    const jar = new CookieJar(null)
    jar.setChunked(NAME, valueOf(1), OPTIONS)
    expect(jar.toArray()).toEqual([{ name: NAME, value: valueOf(1), options: OPTIONS }])
  })

  it.each([
    { length: SIZE + 1, count: 2 },
    { length: SIZE * 2, count: 2 },
    { length: SIZE * 2 + 1, count: 3 },
    { length: SIZE * 10 + 5, count: 11 },
  ])("splits $length characters into $count chunks named .0, .1, …", ({ length, count }) => {
    const jar = new CookieJar(null)
    const value = "v".repeat(length)
    jar.setChunked(NAME, value, OPTIONS)
    const names = jar.toArray().map((cookie) => cookie.name)
    expect(names).toEqual(Array.from({ length: count }, (_, index) => `${NAME}.${index}`))
    for (const cookie of jar.toArray()) expect(cookie.options).toEqual(OPTIONS)
    expect(joinChunks(browserAfter({}, jar), NAME)).toBe(value)
  })

  it.each([
    { secure: false, label: "http" },
    { secure: true, label: "https" },
  ])("keeps every Set-Cookie line of a long session within 4096 bytes on $label", ({ secure }) => {
    const { name, options: defaults } = defaultCookies(secure).sessionToken
    const options = { ...defaults, expires: new Date(Date.now() + 2_592_000_000) }
    const jar = new CookieJar(null)
    const value = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..".repeat(500)
    jar.setChunked(name, value, options)
    expect(jar.toArray().length).toBeGreaterThan(5)
    for (const { name: cookieName, value: chunk, options: chunkOptions } of jar.toArray()) {
      const line = stringifySetCookie(cookieName, chunk, chunkOptions)
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(MAX_COOKIE_SIZE)
    }
  })

  // A configuration's own `jwt.encode` may return any string; `stringifySetCookie`
  // percent-encodes what is not a cookie-octet, so the chunks must be sized after encoding.
  it.each([
    { label: "JSON", unit: '{"name":"Alice","email":"alice@example.com"},' },
    { label: "spaces", unit: "a b " },
    { label: "non-ASCII", unit: "é€" },
  ])(
    "keeps every Set-Cookie line within 4096 bytes when the value ($label) needs percent-encoding",
    ({ unit }) => {
      const { name, options } = defaultCookies(true).sessionToken
      const jar = new CookieJar(null)
      const value = unit.repeat(Math.ceil(20_000 / unit.length))
      jar.setChunked(name, value, options)
      for (const cookie of jar.toArray()) {
        const line = stringifySetCookie(cookie.name, cookie.value, cookie.options)
        expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(MAX_COOKIE_SIZE)
      }
      expect(joinChunks(browserAfter({}, jar), name)).toBe(value)
    },
  )

  it("deletes the plain cookie when the new value needs chunks", () => {
    const before = { [NAME]: "old-plain" }
    const jar = new CookieJar(header(before))
    jar.setChunked(NAME, valueOf(2), OPTIONS)
    const cookies = byName(jar)
    expect(isDeletion(cookies.get(NAME))).toBe(true)
    expect(cookies.get(`${NAME}.0`)?.value).toBe(valueOf(1))
    expect(cookies.get(`${NAME}.1`)?.value).toBe(valueOf(1))
    const after = browserAfter(before, jar)
    expect(Object.keys(after).sort()).toEqual([`${NAME}.0`, `${NAME}.1`])
    expect(joinChunks(after, NAME)).toBe(valueOf(2))
  })

  it("deletes every chunk when the new value fits in the plain cookie", () => {
    const before = { [`${NAME}.0`]: "a", [`${NAME}.1`]: "b", [`${NAME}.2`]: "c" }
    const jar = new CookieJar(header(before))
    jar.setChunked(NAME, "short", OPTIONS)
    const cookies = byName(jar)
    expect(cookies.get(NAME)?.value).toBe("short")
    for (const index of [0, 1, 2]) expect(isDeletion(cookies.get(`${NAME}.${index}`))).toBe(true)
    const after = browserAfter(before, jar)
    expect(after).toEqual({ [NAME]: "short" })
    expect(joinChunks(after, NAME)).toBe("short")
  })

  it("deletes the chunks beyond the new value's last one", () => {
    const before = Object.fromEntries([0, 1, 2, 3].map((i) => [`${NAME}.${i}`, `old${i}`]))
    const jar = new CookieJar(header(before))
    jar.setChunked(NAME, valueOf(2), OPTIONS)
    const cookies = byName(jar)
    expect(cookies.get(`${NAME}.0`)?.value).toBe(valueOf(1))
    expect(cookies.get(`${NAME}.1`)?.value).toBe(valueOf(1))
    expect(isDeletion(cookies.get(`${NAME}.2`))).toBe(true)
    expect(isDeletion(cookies.get(`${NAME}.3`))).toBe(true)
    expect(cookies.has(NAME)).toBe(false)
    expect(joinChunks(browserAfter(before, jar), NAME)).toBe(valueOf(2))
  })

  it("overwrites chunks that it reuses instead of deleting them", () => {
    const before = { [`${NAME}.0`]: "a", [`${NAME}.1`]: "b" }
    const jar = new CookieJar(header(before))
    jar.setChunked(NAME, valueOf(3), OPTIONS)
    const cookies = byName(jar)
    expect([...cookies.keys()].sort()).toEqual([`${NAME}.0`, `${NAME}.1`, `${NAME}.2`])
    for (const cookie of cookies.values()) expect(isDeletion(cookie)).toBe(false)
  })

  it("deletes the stale chunks with the same options, so that the browser matches them", () => {
    const options: CookieSerializeOptions = { ...OPTIONS, domain: "example.com", path: "/app" }
    const jar = new CookieJar(header({ [`${NAME}.0`]: "a", [`${NAME}.1`]: "b" }))
    jar.setChunked(NAME, "short", options)
    const deletion = byName(jar).get(`${NAME}.1`)
    expect(deletion?.options.domain).toBe("example.com")
    expect(deletion?.options.path).toBe("/app")
  })

  it("leaves cookies whose names only start like the value's alone", () => {
    const before = {
      [`${NAME}-x`]: "1",
      [`${NAME}.x`]: "2",
      [`${NAME}x.0`]: "3",
      other: "4",
      [`${NAME}.0`]: "a",
    }
    const jar = new CookieJar(header(before))
    jar.setChunked(NAME, "short", OPTIONS)
    expect([...byName(jar).keys()].sort()).toEqual([NAME, `${NAME}.0`])
  })
})

describe("CookieJar: deleteChunked", () => {
  it("deletes the plain cookie and every chunk the browser sent", () => {
    const before = {
      [NAME]: "p",
      [`${NAME}.0`]: "a",
      [`${NAME}.1`]: "b",
      [`${NAME}.7`]: "h",
      other: "keep",
    }
    const jar = new CookieJar(header(before))
    jar.deleteChunked(NAME, OPTIONS)
    const cookies = byName(jar)
    expect([...cookies.keys()].sort()).toEqual([NAME, `${NAME}.0`, `${NAME}.1`, `${NAME}.7`])
    for (const cookie of cookies.values()) expect(isDeletion(cookie)).toBe(true)
    expect(browserAfter(before, jar)).toEqual({ other: "keep" })
  })

  it.each([null, "other=1", `${NAME}-x=1`])(
    "deletes the plain cookie when the browser sent none (Cookie: %j)",
    (cookieHeader) => {
      const jar = new CookieJar(cookieHeader)
      jar.deleteChunked(NAME, OPTIONS)
      const cookies = jar.toArray()
      expect(cookies.map((cookie) => cookie.name)).toEqual([NAME])
      expect(isDeletion(cookies[0])).toBe(true)
    },
  )

  it("deletes with the options given", () => {
    const jar = new CookieJar(header({ [`${NAME}.0`]: "a" }))
    jar.deleteChunked(NAME, { ...OPTIONS, secure: true, path: "/x" })
    const [cookie] = jar.toArray()
    expect(cookie?.options.secure).toBe(true)
    expect(cookie?.options.path).toBe("/x")
  })
})
