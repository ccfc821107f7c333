/**
 * `migrateSessions`: a browser that holds an Auth.js session cookie and no Latch session gets a
 * Latch session for the same user, once. The Auth.js tokens here are made as Auth.js makes them
 * (JWE dir + A256CBC-HS512 with its HKDF info); compat/runtime proves it with Auth.js itself.
 */
import { hkdfSync, randomUUID } from "node:crypto"
import { EncryptJWT } from "jose"
import { describe, expect, it, vi } from "vitest"
import { getSession } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import {
  ALICE,
  Browser,
  ORIGIN,
  SECRET,
  deletedCookies,
  storedTokenOf,
  testConfig,
  writtenCookies,
} from "../helpers/request.js"

const AUTHJS = "authjs.session-token"
const SECURE_AUTHJS = "__Secure-authjs.session-token"
const LATCH = "latch.session-token"

/** A session cookie value as Auth.js encrypts it. */
async function authjsToken(
  claims: Record<string, unknown>,
  { salt = AUTHJS, secret = SECRET, maxAge = 3600 } = {},
): Promise<string> {
  const info = `Auth.js Generated Encryption Key (${salt})`
  const key = new Uint8Array(hkdfSync("sha256", secret, salt, info, 64))
  const now = Math.floor(Date.now() / 1000)
  return new EncryptJWT(claims)
    .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
    .setIssuedAt(now)
    .setExpirationTime(now + maxAge)
    .setJti(randomUUID())
    .encrypt(key)
}

const claims = {
  name: ALICE.name,
  email: ALICE.email,
  picture: ALICE.image,
  sub: ALICE.id,
  role: "admin",
}

/** The config of an app that put `role` and the user id on the session, as Auth.js apps do. */
function jwtConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return testConfig({
    migrateSessions: true,
    callbacks: {
      session: ({ session, token }) => ({
        ...session,
        user: { ...session.user, id: token.sub, role: token.role },
      }),
    },
    ...overrides,
  })
}

describe("migrateSessions with JWT sessions", () => {
  it("turns a valid Auth.js cookie into a Latch session and deletes it, once", async () => {
    const browser = new Browser(jwtConfig())
    browser.cookies.set(AUTHJS, await authjsToken(claims))
    const response = await browser.fetch("/auth/session")
    expect(await response.json()).toMatchObject({
      user: {
        name: ALICE.name,
        email: ALICE.email,
        image: ALICE.image,
        id: ALICE.id,
        role: "admin",
      },
    })
    expect(deletedCookies(response)).toEqual([AUTHJS])
    expect(writtenCookies(response)).toEqual([LATCH])
    expect([...browser.cookies.keys()]).toEqual([LATCH])

    // The next request reads Latch's own cookie, and has nothing left to migrate.
    const again = await browser.fetch("/auth/session")
    expect(await again.json()).toMatchObject({ user: { id: ALICE.id, role: "admin" } })
    expect(again.headers.getSetCookie()).toEqual([])
  })

  it("ignores Auth.js cookies when it is off (the default)", async () => {
    const browser = new Browser(jwtConfig({ migrateSessions: undefined }))
    browser.cookies.set(AUTHJS, await authjsToken(claims))
    const response = await browser.fetch("/auth/session")
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("reads the chunked __Secure- cookie of an https site", async () => {
    const browser = new Browser(jwtConfig(), "https://app.example")
    const value = await authjsToken(
      { ...claims, groups: Array.from({ length: 300 }, (_, i) => `group-${i}`) },
      { salt: SECURE_AUTHJS },
    )
    expect(value.length).toBeGreaterThan(4000)
    browser.cookies.set(`${SECURE_AUTHJS}.0`, value.slice(0, 3000))
    browser.cookies.set(`${SECURE_AUTHJS}.1`, value.slice(3000))
    const response = await browser.fetch("/auth/session")
    expect(await response.json()).toMatchObject({ user: { id: ALICE.id } })
    expect(deletedCookies(response).sort()).toEqual([`${SECURE_AUTHJS}.0`, `${SECURE_AUTHJS}.1`])
    const deletion = response.headers.getSetCookie().find((line) => line.includes(SECURE_AUTHJS))
    expect(deletion).toMatch(/; Secure/i)
    expect([...browser.cookies.keys()].every((name) => name.startsWith("__Secure-latch."))).toBe(
      true,
    )
  })

  it("deletes and ignores an Auth.js cookie of another secret, or expired", async () => {
    for (const value of [
      await authjsToken(claims, { secret: "another-secret-another-secret-another" }),
      await authjsToken(claims, { maxAge: -60 }),
      "not-a-token",
    ]) {
      const browser = new Browser(jwtConfig())
      browser.cookies.set(AUTHJS, value)
      const response = await browser.fetch("/auth/session")
      expect(await response.json()).toBeNull()
      expect(deletedCookies(response)).toEqual([AUTHJS])
      expect(browser.cookies.size).toBe(0)
    }
  })

  it("keeps a valid Latch session and deletes a stale Auth.js cookie beside it", async () => {
    const browser = new Browser(jwtConfig())
    await browser.signIn()
    browser.cookies.set(AUTHJS, await authjsToken({ ...claims, sub: "someone-else" }))
    const response = await browser.fetch("/auth/session")
    expect(await response.json()).toMatchObject({ user: { id: ALICE.id } })
    expect(deletedCookies(response)).toEqual([AUTHJS])
  })

  it("applies to getSession, as integrations read the session", async () => {
    const config = jwtConfig()
    const request = new Request(`${ORIGIN}/dashboard`, {
      headers: { cookie: `${AUTHJS}=${await authjsToken(claims)}` },
    })
    const { session, cookies } = await getSession(request, config)
    expect(session).toMatchObject({ user: { id: ALICE.id, role: "admin" } })
    expect(cookies.map((c) => [c.name, c.value === ""])).toEqual([
      [AUTHJS, true],
      [LATCH, false],
    ])
  })

  it("reads the configured session cookie name under Auth.js's keys when Latch's fail", async () => {
    const name = "app.session"
    const browser = new Browser(jwtConfig({ cookies: { sessionToken: { name } } }))
    browser.cookies.set(name, await authjsToken(claims, { salt: name }))
    const response = await browser.fetch("/auth/session")
    expect(await response.json()).toMatchObject({ user: { id: ALICE.id } })
    expect(writtenCookies(response)).toEqual([name])
    expect(await browser.session()).toMatchObject({ user: { id: ALICE.id } })
  })

  it("signs out a session still under its Auth.js cookie", async () => {
    const signOut = vi.fn()
    const browser = new Browser(jwtConfig({ events: { signOut } }))
    browser.cookies.set(AUTHJS, await authjsToken(claims))
    const csrfToken = await browser.csrfToken()
    await browser.fetch("/auth/signout", { form: { csrfToken } })
    expect(browser.cookies.has(AUTHJS)).toBe(false)
    expect(browser.cookies.has(LATCH)).toBe(false)
    expect(signOut).toHaveBeenCalledWith({ token: expect.objectContaining({ sub: ALICE.id }) })
    expect(await browser.session()).toBeNull()
  })
})

describe("migrateSessions with database sessions", () => {
  function setup(migrateSessions = true) {
    const adapter = memoryAdapter()
    adapter.createUser!({ ...ALICE, emailVerified: null })
    // Pushed a minute ago (30 days is the default maxAge): not due for another push.
    const expires = new Date(Date.now() + 30 * 24 * 3600 * 1000 - 60_000)
    adapter.createSession!({ sessionToken: "authjs-row", userId: ALICE.id, expires })
    const signOut = vi.fn()
    const config = testConfig({ adapter, migrateSessions, events: { signOut } })
    return { adapter, browser: new Browser(config), expires, signOut }
  }

  it("carries the Auth.js session row on under Latch's cookie", async () => {
    const { adapter, browser, expires } = setup()
    browser.cookies.set(AUTHJS, "authjs-row")
    const response = await browser.fetch("/auth/session")
    expect(await response.json()).toEqual({
      user: { name: ALICE.name, email: ALICE.email, image: ALICE.image },
      expires: expires.toISOString(),
    })
    expect(deletedCookies(response)).toEqual([AUTHJS])
    expect([...browser.cookies]).toEqual([[LATCH, "authjs-row"]])
    // The row Auth.js wrote, under the token itself, now lies under the token's hash.
    expect([...adapter.sessions.keys()]).toEqual([storedTokenOf("authjs-row")])
    const again = await browser.fetch("/auth/session")
    expect(await again.json()).toMatchObject({ user: { email: ALICE.email } })
    expect(again.headers.getSetCookie()).toEqual([])
  })

  it("ignores the cookie when off; deletes an unknown or expired one when on", async () => {
    const off = setup(false)
    off.browser.cookies.set(AUTHJS, "authjs-row")
    const ignored = await off.browser.fetch("/auth/session")
    expect(await ignored.json()).toBeNull()
    expect(ignored.headers.getSetCookie()).toEqual([])

    const on = setup()
    on.adapter.createSession!({
      sessionToken: "expired-row",
      userId: ALICE.id,
      expires: new Date(Date.now() - 1000),
    })
    for (const token of ["unknown-row", "expired-row"]) {
      on.browser.cookies.set(AUTHJS, token)
      const response = await on.browser.fetch("/auth/session")
      expect(await response.json()).toBeNull()
      expect(deletedCookies(response)).toEqual([AUTHJS])
    }
    expect(on.adapter.sessions.has("expired-row")).toBe(false)
  })

  it("signs out a session still under its Auth.js cookie: the row and the cookie go", async () => {
    const { adapter, browser, signOut } = setup()
    browser.cookies.set(AUTHJS, "authjs-row")
    const csrfToken = await browser.csrfToken()
    await browser.fetch("/auth/signout", { form: { csrfToken } })
    expect(browser.cookies.has(AUTHJS)).toBe(false)
    expect(adapter.sessions.size).toBe(0)
    expect(signOut).toHaveBeenCalledWith({ session: expect.objectContaining({ userId: ALICE.id }) })
  })
})
