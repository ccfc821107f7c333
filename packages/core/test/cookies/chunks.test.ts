import { stringifySetCookie } from "cookie"
import { describe, expect, it } from "vitest"

import {
  MAX_COOKIE_SIZE,
  chunkIndex,
  chunkSize,
  joinChunks,
  splitValue,
} from "../../src/cookies/chunks.js"
import { defaultCookies } from "../../src/cookies/defaults.js"
import type { CookieSerializeOptions } from "../../src/types.js"

const NAME = "authjs.session-token"
const THIRTY_DAYS = 30 * 24 * 60 * 60

/** A deterministic value of `length` characters that is not one repeated character. */
function value(length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
  let text = ""
  for (let i = 0; i < length; i++) text += alphabet[(i * 7 + (i >> 6)) % alphabet.length]
  return text
}

/** The chunk cookies of a value, as a browser would send them back. */
function asCookies(chunks: string[], name = NAME): Record<string, string> {
  return Object.fromEntries(chunks.map((chunk, index) => [`${name}.${index}`, chunk]))
}

describe("splitValue", () => {
  it.each([
    { length: 0, size: 10, count: 1 },
    { length: 1, size: 10, count: 1 },
    { length: 9, size: 10, count: 1 },
    { length: 10, size: 10, count: 1 },
    { length: 11, size: 10, count: 2 },
    { length: 20, size: 10, count: 2 },
    { length: 21, size: 10, count: 3 },
    { length: 3999, size: 4000, count: 1 },
    { length: 4000, size: 4000, count: 1 },
    { length: 4001, size: 4000, count: 2 },
    { length: 12_000, size: 4000, count: 3 },
    { length: 12_001, size: 4000, count: 4 },
  ])(
    "splits $length characters into $count chunk(s) of at most $size",
    ({ length, size, count }) => {
      const input = value(length)
      const chunks = splitValue(input, size)
      expect(chunks).toHaveLength(count)
      for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(size)
      expect(chunks.join("")).toBe(input)
    },
  )

  it("fills every chunk but the last to the full size", () => {
    const chunks = splitValue(value(25), 10)
    expect(chunks.map((chunk) => chunk.length)).toEqual([10, 10, 5])
  })

  it("returns a value that fits unchanged, as the only chunk", () => {
    expect(splitValue("abc", 3)).toEqual(["abc"])
  })
})

describe("joinChunks", () => {
  it.each([1, 2, 3, 10, 11, 25])("joins %i chunk(s) of a long value back to the value", (count) => {
    const size = 100
    const input = value(size * count - 7)
    const chunks = splitValue(input, size)
    expect(chunks.length).toBe(count)
    const joined =
      count === 1 ? joinChunks({ [NAME]: input }, NAME) : joinChunks(asCookies(chunks), NAME)
    expect(joined).toBe(input)
  })

  it("joins chunks whatever order the browser sends them in", () => {
    const chunks = ["aaa", "bbb", "ccc", "ddd", "eee", "fff", "ggg", "hhh", "iii", "jjj", "kkk"]
    const reversed = Object.fromEntries(Object.entries(asCookies(chunks)).reverse())
    expect(joinChunks(reversed, NAME)).toBe(chunks.join(""))
  })

  it("falls back to the plain cookie when there are no chunks", () => {
    expect(joinChunks({ [NAME]: "plain", other: "x" }, NAME)).toBe("plain")
  })

  it("returns undefined when neither the cookie nor a chunk is present", () => {
    expect(joinChunks({ other: "x", [`${NAME}-x`]: "y" }, NAME)).toBeUndefined()
  })

  it("prefers the chunks over a plain cookie of the same name", () => {
    expect(joinChunks({ [NAME]: "stale", [`${NAME}.0`]: "new", [`${NAME}.1`]: "er" }, NAME)).toBe(
      "newer",
    )
  })

  it.each([
    { missing: "the first chunk", cookies: { [`${NAME}.1`]: "b", [`${NAME}.2`]: "c" } },
    { missing: "a middle chunk", cookies: { [`${NAME}.0`]: "a", [`${NAME}.2`]: "c" } },
    {
      missing: "several chunks",
      cookies: { [`${NAME}.0`]: "a", [`${NAME}.1`]: "b", [`${NAME}.5`]: "f" },
    },
    { missing: "every chunk before .999", cookies: { [`${NAME}.999`]: "z" } },
    {
      missing: "a chunk, even with a plain cookie present",
      cookies: { [NAME]: "plain", [`${NAME}.0`]: "a", [`${NAME}.2`]: "c" },
    },
  ])("returns undefined when $missing is missing", ({ cookies }) => {
    expect(joinChunks(cookies, NAME)).toBeUndefined()
  })

  it.each([
    `${NAME}.x`,
    `${NAME}.`,
    `${NAME}.-1`,
    `${NAME}.1a`,
    `${NAME}.a1`,
    `${NAME}.1.2`,
    `${NAME}.+1`,
    `${NAME}. 1`,
    `${NAME}.1e2`,
    `${NAME}.0x1`,
    `${NAME}.1000`,
  ])("ignores %s, whose suffix is not a chunk number", (cookieName) => {
    const cookies = { [`${NAME}.0`]: "a", [`${NAME}.1`]: "b", [cookieName]: "EVIL" }
    expect(joinChunks(cookies, NAME)).toBe("ab")
  })

  it.each([
    `${NAME}-x`,
    `${NAME}-x.0`,
    `${NAME}x.0`,
    `${NAME}.0x`,
    `x${NAME}.0`,
    `__Secure-${NAME}.0`,
    `latch.session.0`,
  ])("does not take %s for a chunk of the name", (cookieName) => {
    expect(joinChunks({ [cookieName]: "EVIL" }, NAME)).toBeUndefined()
    expect(joinChunks({ [NAME]: "plain", [cookieName]: "EVIL" }, NAME)).toBe("plain")
  })

  it("skips chunks whose value is undefined, then finds the gap", () => {
    expect(
      joinChunks({ [`${NAME}.0`]: "a", [`${NAME}.1`]: undefined, [`${NAME}.2`]: "c" }, NAME),
    ).toBeUndefined()
  })

  it("joins empty chunks as empty strings", () => {
    expect(joinChunks({ [`${NAME}.0`]: "a", [`${NAME}.1`]: "" }, NAME)).toBe("a")
  })
})

describe("chunkIndex", () => {
  it.each([
    [`${NAME}.0`, 0],
    [`${NAME}.1`, 1],
    [`${NAME}.9`, 9],
    [`${NAME}.10`, 10],
    [`${NAME}.99`, 99],
    [`${NAME}.999`, 999],
  ])("reads %s as chunk %i", (cookieName, index) => {
    expect(chunkIndex(cookieName, NAME)).toBe(index)
  })

  it.each([
    NAME,
    `${NAME}.`,
    `${NAME}.x`,
    `${NAME}.-1`,
    `${NAME}.1a`,
    `${NAME}.1.2`,
    `${NAME}.1000`,
    `${NAME}-x`,
    `${NAME}-x.0`,
    `${NAME}x0`,
    `${NAME}_0`,
    "latch.session.0",
    "other.0",
    "",
  ])("answers -1 for %j", (cookieName) => {
    expect(chunkIndex(cookieName, NAME)).toBe(-1)
  })

  it("works for names that contain dots themselves", () => {
    expect(chunkIndex("authjs.pkce.code_verifier.3", "authjs.pkce.code_verifier")).toBe(3)
    expect(chunkIndex("authjs.pkce.code_verifier", "authjs.pkce")).toBe(-1)
  })
})

describe("chunkSize", () => {
  const variants = [false, true].flatMap((secure) => {
    const { name, options } = defaultCookies(secure).sessionToken
    return [
      { label: `${name}, Expires and Max-Age`, name, secure, extra: { maxAge: THIRTY_DAYS } },
      { label: `${name}, Expires only`, name, secure, extra: {} },
      {
        label: `${name}, a year's Max-Age and a Domain`,
        name,
        secure,
        extra: { maxAge: 365 * 24 * 60 * 60, domain: "auth.example.com" },
      },
    ].map((variant) => ({
      ...variant,
      options: {
        ...options,
        expires: new Date(Date.now() + THIRTY_DAYS * 1000),
        ...variant.extra,
      } as CookieSerializeOptions,
    }))
  })

  it("uses the __Secure- name on https and the plain name on http", () => {
    expect(variants.map((variant) => variant.name)).toContain("__Secure-authjs.session-token")
    expect(variants.map((variant) => variant.name)).toContain("authjs.session-token")
  })

  it.each(variants)("a full chunk of $label fits in one cookie", ({ name, options, secure }) => {
    const size = chunkSize(name, options)
    for (const suffix of [0, 9, 10, 99]) {
      const line = stringifySetCookie(`${name}.${suffix}`, "x".repeat(size), options)
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(MAX_COOKIE_SIZE)
      expect(line.includes("; Secure")).toBe(secure)
      expect(line).toContain("; Expires=")
    }
  })

  it.each(variants)("a chunk of $label wastes little space", ({ name, options }) => {
    expect(chunkSize(name, options)).toBeGreaterThan(3800)
  })

  it("counts every byte: one more character than the chunk size overflows a two-digit chunk", () => {
    const { name, options } = defaultCookies(true).sessionToken
    const withAge = { ...options, expires: new Date(), maxAge: THIRTY_DAYS }
    const size = chunkSize(name, withAge)
    const line = stringifySetCookie(`${name}.99`, "x".repeat(size + 1), withAge)
    expect(line.length).toBeGreaterThan(MAX_COOKIE_SIZE)
  })

  it("shrinks with longer names and attributes", () => {
    const { options } = defaultCookies(false).sessionToken
    expect(chunkSize("a-much-longer-cookie-name", options)).toBeLessThan(chunkSize("n", options))
    expect(chunkSize("n", { ...options, domain: "example.com" })).toBeLessThan(
      chunkSize("n", options),
    )
  })

  it("splits a long session value into chunks that each fit in a Set-Cookie line", () => {
    const { name, options: defaults } = defaultCookies(true).sessionToken
    const options = { ...defaults, expires: new Date(), maxAge: THIRTY_DAYS }
    const input = value(50_000)
    const chunks = splitValue(input, chunkSize(name, options))
    expect(chunks.length).toBe(13)
    chunks.forEach((chunk, index) => {
      const line = stringifySetCookie(`${name}.${index}`, chunk, options)
      expect(line.length).toBeLessThanOrEqual(MAX_COOKIE_SIZE)
    })
    expect(joinChunks(asCookies(chunks, name), name)).toBe(input)
  })
})
