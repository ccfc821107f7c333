import { EncryptJWT, jwtDecrypt } from "jose"
import { afterEach, describe, expect, it, vi } from "vitest"

import { decode, encode, getToken } from "../../src/jwt.js"
import { ALICE, Browser, SECRET, testConfig } from "../helpers/request.js"

const COOKIE = "authjs.session-token"
const SECURE_COOKIE = "__Secure-authjs.session-token"
const OTHER_SECRET = "another-secret-that-is-long-enough-000000"

/** The session key as Auth.js derives it, independently of Latch's code: HKDF-SHA-256, 64 bytes. */
async function deriveSessionKey(secret: string, salt: string): Promise<Uint8Array> {
  const encoder = new TextEncoder()
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, [
    "deriveBits",
  ])
  const bits = await crypto.subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: encoder.encode(salt),
      info: encoder.encode(`Auth.js Generated Encryption Key (${salt})`),
    },
    base,
    512,
  )
  return new Uint8Array(bits)
}

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllEnvs()
})

describe("session cookies are standard JWE", () => {
  it("decrypts a session cookie made by Latch with jose.jwtDecrypt", async () => {
    const browser = new Browser(testConfig())
    await browser.signIn()
    const cookie = browser.cookies.get(COOKIE)!
    const key = await deriveSessionKey(SECRET, COOKIE)
    const { payload, protectedHeader } = await jwtDecrypt(cookie, key, {
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: ["A256CBC-HS512"],
    })
    expect(protectedHeader).toMatchObject({ alg: "dir", enc: "A256CBC-HS512" })
    expect(payload).toMatchObject({
      name: ALICE.name,
      email: ALICE.email,
      picture: ALICE.image,
      sub: ALICE.id,
    })
    expect(typeof payload.iat).toBe("number")
    expect(payload.exp).toBe(payload.iat! + 30 * 24 * 60 * 60)
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("decrypts a __Secure- cookie with the key salted by its own name", async () => {
    const browser = new Browser(testConfig(), "https://example.com")
    await browser.signIn()
    const cookie = browser.cookies.get(SECURE_COOKIE)!
    const { payload } = await jwtDecrypt(cookie, await deriveSessionKey(SECRET, SECURE_COOKIE))
    expect(payload.email).toBe(ALICE.email)
    await expect(jwtDecrypt(cookie, await deriveSessionKey(SECRET, COOKIE))).rejects.toThrow()
  })

  it("accepts a token made by jose.EncryptJWT as a session", async () => {
    const key = await deriveSessionKey(SECRET, COOKIE)
    const token = await new EncryptJWT({
      name: "Jose",
      email: "jose@example.com",
      picture: null,
      sub: "j1",
    })
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .setJti(crypto.randomUUID())
      .encrypt(key)
    const browser = new Browser(testConfig())
    browser.cookies.set(COOKIE, token)
    expect(await browser.session()).toEqual({
      user: { name: "Jose", email: "jose@example.com", image: null },
      expires: expect.any(String),
    })
  })

  it("refuses an expired jose token", async () => {
    const key = await deriveSessionKey(SECRET, COOKIE)
    const token = await new EncryptJWT({ name: "Jose" })
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .encrypt(key)
    const browser = new Browser(testConfig())
    browser.cookies.set(COOKIE, token)
    expect(await browser.session()).toBeNull()
  })

  it("refuses a jose token with another algorithm", async () => {
    const key = (await deriveSessionKey(SECRET, COOKIE)).slice(0, 32)
    const token = await new EncryptJWT({ name: "Jose" })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setExpirationTime("1h")
      .encrypt(key)
    const browser = new Browser(testConfig())
    browser.cookies.set(COOKIE, token)
    const response = await browser.fetch("/auth/session")
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
  })

  it("encode produces what jose decrypts, and decode reads what jose encrypts", async () => {
    const key = await deriveSessionKey(SECRET, "salt")
    const encoded = await encode({ token: { hello: "world" }, secret: SECRET, salt: "salt" })
    expect((await jwtDecrypt(encoded, key)).payload.hello).toBe("world")

    const joseToken = await new EncryptJWT({ hello: "jose" })
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .setExpirationTime("1h")
      .encrypt(key)
    expect(await decode({ token: joseToken, secret: SECRET, salt: "salt" })).toMatchObject({
      hello: "jose",
    })
  })
})

describe("encode and decode", () => {
  it("round-trips a token, adding iat, exp and jti", async () => {
    const token = await encode({ token: { sub: "1", role: "admin" }, secret: SECRET, salt: COOKIE })
    expect(token.split(".")).toHaveLength(5)
    const decoded = await decode({ token, secret: SECRET, salt: COOKIE })
    expect(decoded).toMatchObject({ sub: "1", role: "admin" })
    expect(decoded!.exp! - decoded!.iat!).toBe(30 * 24 * 60 * 60)
    expect(typeof decoded!.jti).toBe("string")
  })

  it("honours maxAge", async () => {
    const token = await encode({ token: {}, secret: SECRET, salt: COOKIE, maxAge: 60 })
    const decoded = await decode({ token, secret: SECRET, salt: COOKIE })
    expect(decoded!.exp! - decoded!.iat!).toBe(60)
  })

  it("encrypts each token differently", async () => {
    const a = await encode({ token: { sub: "1" }, secret: SECRET, salt: COOKIE })
    const b = await encode({ token: { sub: "1" }, secret: SECRET, salt: COOKIE })
    expect(a).not.toBe(b)
  })

  it.each<[string, { secret: string | string[]; salt: string }]>([
    ["a wrong secret", { secret: OTHER_SECRET, salt: COOKIE }],
    ["a wrong salt", { secret: SECRET, salt: SECURE_COOKIE }],
  ])("answers null for %s", async (_case, params) => {
    const token = await encode({ token: { sub: "1" }, secret: SECRET, salt: COOKIE })
    expect(await decode({ token, ...params })).toBeNull()
  })

  it("decodes with any secret of a rotation list, and encodes with the first", async () => {
    const old = await encode({ token: { sub: "1" }, secret: OTHER_SECRET, salt: COOKIE })
    expect(
      await decode({ token: old, secret: [SECRET, OTHER_SECRET], salt: COOKIE }),
    ).toMatchObject({
      sub: "1",
    })
    const fresh = await encode({
      token: { sub: "2" },
      secret: [SECRET, OTHER_SECRET],
      salt: COOKIE,
    })
    expect(await decode({ token: fresh, secret: SECRET, salt: COOKIE })).toMatchObject({ sub: "2" })
    expect(await decode({ token: fresh, secret: OTHER_SECRET, salt: COOKIE })).toBeNull()
  })

  it("answers null for an expired token", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const token = await encode({ token: { sub: "1" }, secret: SECRET, salt: COOKIE, maxAge: 60 })
    expect(await decode({ token, secret: SECRET, salt: COOKIE })).not.toBeNull()
    vi.setSystemTime(new Date("2030-01-01T00:05:00Z"))
    expect(await decode({ token, secret: SECRET, salt: COOKIE })).toBeNull()
  })

  it.each(["", "garbage", "a.b.c.d.e", "....", "x".repeat(5000)])(
    "answers null for the token %j",
    async (token) => {
      expect(await decode({ token, secret: SECRET, salt: COOKIE })).toBeNull()
    },
  )
})

describe("tokens of earlier Latch releases", () => {
  /** The key earlier releases derived: the same HKDF with Latch's own info. */
  async function legacyKey(salt: string): Promise<Uint8Array> {
    const { hkdfSync } = await import("node:crypto")
    const info = `Latch Generated Encryption Key (${salt})`
    return new Uint8Array(hkdfSync("sha256", SECRET, salt, info, 64))
  }
  async function legacyToken(salt: string): Promise<string> {
    return new EncryptJWT({ sub: "old" })
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .encrypt(await legacyKey(salt))
  }

  it("decode reads them; encode writes only Auth.js's format", async () => {
    const salt = "latch.session-token"
    expect(await decode({ token: await legacyToken(salt), secret: SECRET, salt })).toMatchObject({
      sub: "old",
    })
    const fresh = await encode({ token: { sub: "new" }, secret: SECRET, salt })
    await expect(jwtDecrypt(fresh, await legacyKey(salt))).rejects.toThrow()
    expect((await jwtDecrypt(fresh, await deriveSessionKey(SECRET, salt))).payload.sub).toBe("new")
  })

  it("getToken finds the session cookie of an earlier release", async () => {
    const token = await legacyToken("latch.session-token")
    const request = new Request("http://localhost:3000/api", {
      headers: { cookie: `latch.session-token=${token}` },
    })
    expect(await getToken({ req: request, secret: SECRET })).toMatchObject({ sub: "old" })
  })
})

describe("getToken", () => {
  const requestWith = (headers: Record<string, string>) =>
    new Request("http://localhost:3000/api/data", { headers })

  it("finds the plain session cookie", async () => {
    const token = await encode({ token: { sub: "1" }, secret: SECRET, salt: COOKIE })
    const found = await getToken({
      req: requestWith({ cookie: `${COOKIE}=${token}` }),
      secret: SECRET,
    })
    expect(found).toMatchObject({ sub: "1" })
  })

  it("finds the __Secure- session cookie", async () => {
    const token = await encode({ token: { sub: "2" }, secret: SECRET, salt: SECURE_COOKIE })
    const found = await getToken({
      req: requestWith({ cookie: `other=1; ${SECURE_COOKIE}=${token}` }),
      secret: SECRET,
    })
    expect(found).toMatchObject({ sub: "2" })
  })

  it("reads a cookie set by Latch through Auth", async () => {
    const browser = new Browser(testConfig())
    await browser.signIn()
    const found = await getToken({
      req: requestWith({ cookie: browser.cookieHeader() }),
      secret: SECRET,
    })
    expect(found).toMatchObject({ email: ALICE.email, sub: ALICE.id })
  })

  it("reads a chunked session cookie", async () => {
    const blob = "y".repeat(10_000)
    const browser = new Browser(
      testConfig({ callbacks: { jwt: ({ token, user }) => (user ? { ...token, blob } : token) } }),
    )
    await browser.signIn()
    expect(browser.cookies.has(`${COOKIE}.1`)).toBe(true)
    const found = await getToken({
      req: requestWith({ cookie: browser.cookieHeader() }),
      secret: SECRET,
    })
    expect(found?.blob).toBe(blob)
  })

  it("reads an Authorization: Bearer token", async () => {
    const token = await encode({ token: { sub: "3" }, secret: SECRET, salt: COOKIE })
    const found = await getToken({
      req: requestWith({ authorization: `Bearer ${token}` }),
      secret: SECRET,
      salt: COOKIE,
    })
    expect(found).toMatchObject({ sub: "3" })
  })

  it("reads a Bearer token salted with the plain cookie name when secureCookie is false", async () => {
    const token = await encode({ token: { sub: "4" }, secret: SECRET, salt: COOKIE })
    const found = await getToken({
      req: requestWith({ authorization: `Bearer ${token}` }),
      secret: SECRET,
      secureCookie: false,
    })
    expect(found).toMatchObject({ sub: "4" })
  })

  it("prefers the cookie to the Authorization header", async () => {
    const cookie = await encode({ token: { sub: "cookie" }, secret: SECRET, salt: COOKIE })
    const bearer = await encode({ token: { sub: "bearer" }, secret: SECRET, salt: COOKIE })
    const found = await getToken({
      req: requestWith({ cookie: `${COOKIE}=${cookie}`, authorization: `Bearer ${bearer}` }),
      secret: SECRET,
    })
    expect(found).toMatchObject({ sub: "cookie" })
  })

  it("accepts plain header objects", async () => {
    const token = await encode({ token: { sub: "5" }, secret: SECRET, salt: COOKIE })
    const found = await getToken({
      req: { headers: { cookie: `${COOKIE}=${token}` } },
      secret: SECRET,
    })
    expect(found).toMatchObject({ sub: "5" })
  })

  it("returns the raw token with raw: true", async () => {
    const token = await encode({ token: { sub: "6" }, secret: SECRET, salt: COOKIE })
    const found = await getToken({
      req: requestWith({ cookie: `${COOKIE}=${token}` }),
      secret: SECRET,
      raw: true,
    })
    expect(found).toBe(token)
  })

  it("uses a custom cookie name as the salt", async () => {
    const token = await encode({ token: { sub: "7" }, secret: SECRET, salt: "my-session" })
    const found = await getToken({
      req: requestWith({ cookie: `my-session=${token}` }),
      secret: SECRET,
      cookieName: "my-session",
    })
    expect(found).toMatchObject({ sub: "7" })
  })

  it("reads the secret from AUTH_SECRET, a comma list included", async () => {
    vi.stubEnv("AUTH_SECRET", `${OTHER_SECRET},${SECRET}`)
    const token = await encode({ token: { sub: "8" }, secret: SECRET, salt: COOKIE })
    const found = await getToken({ req: requestWith({ cookie: `${COOKIE}=${token}` }) })
    expect(found).toMatchObject({ sub: "8" })
  })

  it.each<[string, Record<string, string>]>([
    ["no cookie", {}],
    ["an empty cookie", { cookie: `${COOKIE}=` }],
    ["a garbage cookie", { cookie: `${COOKIE}=garbage` }],
    ["a garbage bearer token", { authorization: "Bearer garbage" }],
    ["a non-bearer Authorization header", { authorization: "Basic dXNlcjpwYXNz" }],
  ])("answers null for %s", async (_case, headers) => {
    expect(await getToken({ req: requestWith(headers), secret: SECRET })).toBeNull()
  })

  it("answers null for a token made with another secret", async () => {
    const token = await encode({ token: { sub: "1" }, secret: OTHER_SECRET, salt: COOKIE })
    expect(
      await getToken({ req: requestWith({ cookie: `${COOKIE}=${token}` }), secret: SECRET }),
    ).toBeNull()
  })

  it("answers null for an expired token", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const token = await encode({ token: { sub: "1" }, secret: SECRET, salt: COOKIE, maxAge: 60 })
    vi.setSystemTime(new Date("2030-01-02T00:00:00Z"))
    expect(
      await getToken({ req: requestWith({ cookie: `${COOKIE}=${token}` }), secret: SECRET }),
    ).toBeNull()
  })
})
