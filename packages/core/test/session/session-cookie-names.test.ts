/**
 * The session cookie is Auth.js's: same names, same encryption, so a cookie Auth.js issued reads
 * as a session with no option set, and one Latch issued opens with Auth.js's derivation (a switch
 * back). A session under another name it may have been kept under — `latch.session-token` of an
 * earlier Latch release, or Auth.js's default for an app that renamed its cookie — is moved to
 * the configured name, once. The tokens here are made as each side makes them, independently of
 * Latch's code (node:crypto's HKDF, jose); compat/runtime proves it with Auth.js itself.
 */
import { createHash, hkdfSync, randomUUID } from "node:crypto"
import { EncryptJWT, calculateJwkThumbprint, decodeProtectedHeader, jwtDecrypt } from "jose"
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
const SECURE_LATCH = "__Secure-latch.session-token"

type Format = "Auth.js" | "Latch"

function keyOf(format: Format, salt: string, secret = SECRET): Uint8Array {
  const info = `${format} Generated Encryption Key (${salt})`
  return new Uint8Array(hkdfSync("sha256", secret, salt, info, 64))
}

/**
 * A session cookie value as Auth.js encrypts it (`Auth.js`, `kid` = SHA-512 thumbprint) or as
 * earlier Latch releases did (`Latch`, `kid` = SHA-256 thumbprint).
 */
async function sessionToken(
  claims: Record<string, unknown>,
  { format = "Auth.js" as Format, salt = AUTHJS, secret = SECRET, maxAge = 3600 } = {},
): Promise<string> {
  const key = keyOf(format, salt, secret)
  const kid = createHash(format === "Auth.js" ? "sha512" : "sha256")
    .update(`{"k":"${Buffer.from(key).toString("base64url")}","kty":"oct"}`)
    .digest("base64url")
  const now = Math.floor(Date.now() / 1000)
  return new EncryptJWT(claims)
    .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512", kid })
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
    callbacks: {
      session: ({ session, token }) => ({
        ...session,
        user: { ...session.user, id: token.sub, role: token.role },
      }),
    },
    ...overrides,
  })
}

describe("JWT sessions under Auth.js's names and format", () => {
  it("reads a cookie Auth.js issued, with no option set, and leaves it where it is", async () => {
    const browser = new Browser(jwtConfig())
    browser.cookies.set(AUTHJS, await sessionToken(claims))
    const response = await browser.fetch("/auth/session")
    expect(await response.json()).toMatchObject({
      user: { name: ALICE.name, email: ALICE.email, image: ALICE.image, id: ALICE.id },
    })
    expect(deletedCookies(response)).toEqual([])
    expect([...browser.cookies.keys()]).toEqual([AUTHJS])
  })

  it("issues a cookie Auth.js opens: its name, its key derivation, its kid", async () => {
    for (const [origin, name] of [
      [ORIGIN, AUTHJS],
      ["https://app.example", SECURE_AUTHJS],
    ] as const) {
      const browser = new Browser(testConfig(), origin)
      await browser.signIn()
      const value = browser.cookies.get(name)!
      expect(value, name).toBeTruthy()
      const key = keyOf("Auth.js", name)
      const { payload } = await jwtDecrypt(value, key, {
        keyManagementAlgorithms: ["dir"],
        contentEncryptionAlgorithms: ["A256CBC-HS512"],
      })
      expect(payload).toMatchObject({ email: ALICE.email, sub: ALICE.id })
      // Auth.js picks the secret of a token by its kid: the key's SHA-512 JWK thumbprint.
      const kid = await calculateJwkThumbprint(
        { kty: "oct", k: Buffer.from(key).toString("base64url") },
        "sha512",
      )
      expect(decodeProtectedHeader(value).kid).toBe(kid)
    }
  })

  it("moves a session of an earlier release (latch.session-token) to the current name, once", async () => {
    const browser = new Browser(jwtConfig())
    browser.cookies.set(LATCH, await sessionToken(claims, { format: "Latch", salt: LATCH }))
    const response = await browser.fetch("/auth/session")
    expect(await response.json()).toMatchObject({ user: { id: ALICE.id, role: "admin" } })
    expect(deletedCookies(response)).toEqual([LATCH])
    expect(writtenCookies(response)).toEqual([AUTHJS])
    expect([...browser.cookies.keys()]).toEqual([AUTHJS])
    // What it was moved to is in Auth.js's format.
    const { payload } = await jwtDecrypt(browser.cookies.get(AUTHJS)!, keyOf("Auth.js", AUTHJS))
    expect(payload).toMatchObject({ sub: ALICE.id, role: "admin" })

    const again = await browser.fetch("/auth/session")
    expect(await again.json()).toMatchObject({ user: { id: ALICE.id, role: "admin" } })
    expect(again.headers.getSetCookie()).toEqual([])
  })

  it("moves the chunked __Secure- cookie of an earlier release on an https site", async () => {
    const browser = new Browser(jwtConfig(), "https://app.example")
    const value = await sessionToken(
      { ...claims, groups: Array.from({ length: 300 }, (_, i) => `group-${i}`) },
      { format: "Latch", salt: SECURE_LATCH },
    )
    expect(value.length).toBeGreaterThan(4000)
    browser.cookies.set(`${SECURE_LATCH}.0`, value.slice(0, 3000))
    browser.cookies.set(`${SECURE_LATCH}.1`, value.slice(3000))
    const response = await browser.fetch("/auth/session")
    expect(await response.json()).toMatchObject({ user: { id: ALICE.id } })
    expect(deletedCookies(response).sort()).toEqual([`${SECURE_LATCH}.0`, `${SECURE_LATCH}.1`])
    const deletion = response.headers.getSetCookie().find((line) => line.includes(SECURE_LATCH))
    expect(deletion).toMatch(/; Secure/i)
    expect([...browser.cookies.keys()].every((name) => name.startsWith(SECURE_AUTHJS))).toBe(true)
  })

  it("never reads a plain cookie on https: one planted over http or by a sibling subdomain", async () => {
    // The attacker's own valid session, planted under names a plain-http cookie may carry.
    for (const [name, format] of [
      [AUTHJS, "Auth.js"],
      [LATCH, "Latch"],
    ] as const) {
      const browser = new Browser(jwtConfig(), "https://app.example")
      browser.cookies.set(name, await sessionToken(claims, { format, salt: name }))
      const response = await browser.fetch("/auth/session")
      expect(await response.json(), name).toBeNull()
      expect(writtenCookies(response), name).toEqual([])
    }
  })

  it("deletes and ignores an old cookie of another secret, expired, or not a token", async () => {
    for (const value of [
      await sessionToken(claims, {
        format: "Latch",
        salt: LATCH,
        secret: "another-secret-another-secret-another",
      }),
      await sessionToken(claims, { format: "Latch", salt: LATCH, maxAge: -60 }),
      "not-a-token",
    ]) {
      const browser = new Browser(jwtConfig())
      browser.cookies.set(LATCH, value)
      const response = await browser.fetch("/auth/session")
      expect(await response.json()).toBeNull()
      expect(deletedCookies(response)).toEqual([LATCH])
      expect(browser.cookies.size).toBe(0)
    }
  })

  it("keeps the current session and deletes a stale old cookie beside it", async () => {
    const browser = new Browser(jwtConfig())
    await browser.signIn()
    browser.cookies.set(
      LATCH,
      await sessionToken({ ...claims, sub: "someone-else" }, { format: "Latch", salt: LATCH }),
    )
    const response = await browser.fetch("/auth/session")
    expect(await response.json()).toMatchObject({ user: { id: ALICE.id } })
    expect(deletedCookies(response)).toEqual([LATCH])
  })

  it("applies to getSession, as integrations read the session", async () => {
    const config = jwtConfig()
    const request = new Request(`${ORIGIN}/dashboard`, {
      headers: {
        cookie: `${LATCH}=${await sessionToken(claims, { format: "Latch", salt: LATCH })}`,
      },
    })
    const { session, cookies } = await getSession(request, config)
    expect(session).toMatchObject({ user: { id: ALICE.id, role: "admin" } })
    expect(cookies.map((c) => [c.name, c.value === ""])).toEqual([
      [LATCH, true],
      [AUTHJS, false],
    ])
  })

  it("with a configured name: reads Auth.js's default cookie, and the name's earlier format", async () => {
    const name = "app.session"
    const moved = new Browser(jwtConfig({ cookies: { sessionToken: { name } } }))
    moved.cookies.set(AUTHJS, await sessionToken(claims))
    const response = await moved.fetch("/auth/session")
    expect(await response.json()).toMatchObject({ user: { id: ALICE.id } })
    expect(writtenCookies(response)).toEqual([name])
    expect(deletedCookies(response)).toEqual([AUTHJS])

    const earlier = new Browser(jwtConfig({ cookies: { sessionToken: { name } } }))
    earlier.cookies.set(name, await sessionToken(claims, { format: "Latch", salt: name }))
    expect(await earlier.session()).toMatchObject({ user: { id: ALICE.id } })
  })

  it("signs out a session still under an old name", async () => {
    const signOut = vi.fn()
    const browser = new Browser(jwtConfig({ events: { signOut } }))
    browser.cookies.set(LATCH, await sessionToken(claims, { format: "Latch", salt: LATCH }))
    const csrfToken = await browser.csrfToken()
    await browser.fetch("/auth/signout", { form: { csrfToken } })
    expect(browser.cookies.has(AUTHJS)).toBe(false)
    expect(browser.cookies.has(LATCH)).toBe(false)
    expect(signOut).toHaveBeenCalledWith({ token: expect.objectContaining({ sub: ALICE.id }) })
    expect(await browser.session()).toBeNull()
  })

  it("migrateSessions, kept for configurations that set it, changes nothing", async () => {
    for (const migrateSessions of [true, false]) {
      const browser = new Browser(jwtConfig({ migrateSessions }))
      browser.cookies.set(LATCH, await sessionToken(claims, { format: "Latch", salt: LATCH }))
      expect(await browser.session(), String(migrateSessions)).toMatchObject({
        user: { id: ALICE.id },
      })
    }
  })
})

describe("database sessions under Auth.js's names", () => {
  function setup() {
    const adapter = memoryAdapter()
    adapter.createUser!({ ...ALICE, emailVerified: null })
    // Pushed a minute ago (30 days is the default maxAge): not due for another push.
    const expires = new Date(Date.now() + 30 * 24 * 3600 * 1000 - 60_000)
    adapter.createSession!({ sessionToken: "authjs-row", userId: ALICE.id, expires })
    const signOut = vi.fn()
    const config = testConfig({ adapter, events: { signOut } })
    return { adapter, browser: new Browser(config), expires, signOut }
  }

  it("reads the row of an Auth.js cookie with no option set, under the same cookie", async () => {
    const { adapter, browser, expires } = setup()
    browser.cookies.set(AUTHJS, "authjs-row")
    const response = await browser.fetch("/auth/session")
    expect(await response.json()).toEqual({
      user: { name: ALICE.name, email: ALICE.email, image: ALICE.image },
      expires: expires.toISOString(),
    })
    expect(deletedCookies(response)).toEqual([])
    expect([...browser.cookies]).toEqual([[AUTHJS, "authjs-row"]])
    // The row Auth.js wrote, under the token itself, now lies under the token's hash.
    expect([...adapter.sessions.keys()]).toEqual([storedTokenOf("authjs-row")])
  })

  it("carries the row of an earlier release's cookie on under the current name", async () => {
    const { browser } = setup()
    browser.cookies.set(LATCH, "authjs-row")
    const response = await browser.fetch("/auth/session")
    expect(await response.json()).toMatchObject({ user: { email: ALICE.email } })
    expect(deletedCookies(response)).toEqual([LATCH])
    expect([...browser.cookies]).toEqual([[AUTHJS, "authjs-row"]])
    const again = await browser.fetch("/auth/session")
    expect(await again.json()).toMatchObject({ user: { email: ALICE.email } })
    expect(again.headers.getSetCookie()).toEqual([])
  })

  it("never reads a plain cookie on https: the attacker's own session row, planted", async () => {
    const { adapter } = setup()
    for (const name of [AUTHJS, LATCH]) {
      const browser = new Browser(testConfig({ adapter }), "https://app.example")
      browser.cookies.set(name, "authjs-row")
      const response = await browser.fetch("/auth/session")
      expect(await response.json(), name).toBeNull()
      expect(writtenCookies(response), name).toEqual([])
    }
  })

  it("deletes an old cookie whose row is unknown or expired", async () => {
    const { adapter, browser } = setup()
    adapter.createSession!({
      sessionToken: "expired-row",
      userId: ALICE.id,
      expires: new Date(Date.now() - 1000),
    })
    for (const token of ["unknown-row", "expired-row"]) {
      browser.cookies.set(LATCH, token)
      const response = await browser.fetch("/auth/session")
      expect(await response.json()).toBeNull()
      expect(deletedCookies(response)).toEqual([LATCH])
    }
    expect(adapter.sessions.has("expired-row")).toBe(false)
  })

  it("signs out a session still under an old name: the row and the cookie go", async () => {
    const { adapter, browser, signOut } = setup()
    browser.cookies.set(LATCH, "authjs-row")
    const csrfToken = await browser.csrfToken()
    await browser.fetch("/auth/signout", { form: { csrfToken } })
    expect(browser.cookies.has(LATCH)).toBe(false)
    expect(browser.cookies.has(AUTHJS)).toBe(false)
    expect(adapter.sessions.size).toBe(0)
    expect(signOut).toHaveBeenCalledWith({ session: expect.objectContaining({ userId: ALICE.id }) })
  })
})
