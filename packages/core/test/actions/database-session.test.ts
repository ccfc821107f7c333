/**
 * Database sessions (an adapter, `session.strategy: "database"`): the cookie holds only a
 * random token, the session lives in the adapter — credentials included.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { listSessions, revokeSessions } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { ALICE, Browser, storedTokenOf, testConfig } from "../helpers/request.js"

const SESSION = "authjs.session-token"
const DAY = 24 * 60 * 60

afterEach(() => {
  vi.useRealTimers()
})

function setup(extra: Partial<AuthConfig> = {}) {
  const adapter = memoryAdapter()
  adapter.users.set(ALICE.id, { ...ALICE, emailVerified: null })
  const error = vi.fn()
  const signOut = vi.fn()
  const config = testConfig({
    adapter,
    logger: { error, warn: () => {}, debug: () => {} },
    events: { signOut },
    ...extra,
  })
  return { adapter, config, browser: new Browser(config), error, signOut }
}

function onlySession(adapter: MemoryAdapter) {
  expect(adapter.sessions.size).toBe(1)
  return [...adapter.sessions.values()][0]!
}

describe("database sessions", () => {
  it("treats a cookie with a control character as no session, without asking the adapter", async () => {
    // PostgreSQL refuses NUL in text: looking such a token up would fail like a database that
    // is down (a 503 for everyone sending `%00` in the cookie).
    const { adapter, browser } = setup()
    await browser.signIn()
    const token = browser.cookies.get(SESSION)!
    const lookups = vi.spyOn(adapter, "getSessionAndUser")
    const deletes = vi.spyOn(adapter, "deleteSession")
    for (const bad of [`${token}%00`, "%00", `${token}%0A`, "a".repeat(5000)]) {
      const response = await browser.fetch("/session", { headers: { cookie: `${SESSION}=${bad}` } })
      // No session: `null`, or a 400 for a cookie header core refuses to read.
      expect(response.status).toBeLessThan(500)
      if (response.status === 200) expect(await response.json()).toBeNull()
    }
    const signOut = await browser.fetch("/signout", {
      method: "POST",
      headers: { cookie: `${SESSION}=%00` },
      form: { csrfToken: await browser.csrfToken() },
    })
    expect(signOut.status).toBeLessThan(500)
    expect(lookups).not.toHaveBeenCalled()
    expect(deletes.mock.calls.flat().some((key) => String(key).includes("\0"))).toBe(false)
    expect(adapter.sessions.size).toBe(1)
  })

  it("is the default strategy with an adapter, and credentials get a database session", async () => {
    const { adapter, browser } = setup()
    const response = await browser.signIn()
    expect(response.status).toBe(302)
    const stored = onlySession(adapter)
    expect(stored.userId).toBe(ALICE.id)
    // The cookie is the session token, not an encrypted JWT; the database holds its hash.
    const token = browser.cookies.get(SESSION)!
    expect(token).toMatch(/^[0-9a-f-]{36}$/)
    expect(stored.sessionToken).toBe(storedTokenOf(token))
    const session = await browser.session()
    expect(session).toEqual({
      user: { name: ALICE.name, email: ALICE.email, image: ALICE.image },
      expires: stored.expires.toISOString(),
    })
  })

  it("refuses a credentials user the adapter does not have, with no session", async () => {
    const { adapter, browser } = setup()
    adapter.users.clear()
    const response = await browser.signIn()
    const url = new URL(response.headers.get("location")!)
    expect(url.pathname).toBe("/auth/error")
    expect(url.searchParams.get("error")).toBe("Configuration")
    expect(adapter.sessions.size).toBe(0)
    expect(browser.cookies.has(SESSION)).toBe(false)
  })

  it("uses generateSessionToken", async () => {
    const { adapter, browser } = setup({ session: { generateSessionToken: () => "token-1" } })
    await browser.signIn()
    expect(browser.cookies.get(SESSION)).toBe("token-1")
    expect(onlySession(adapter).sessionToken).toBe(storedTokenOf("token-1"))
  })

  it("stores the token itself with hashTokens: false, as Auth.js does", async () => {
    const { adapter, browser } = setup({ session: { hashTokens: false } })
    await browser.signIn()
    expect(onlySession(adapter).sessionToken).toBe(browser.cookies.get(SESSION))
    expect(await browser.session()).toMatchObject({ user: { email: ALICE.email } })
  })

  it("slides the expiry once updateAge has passed, not before", async () => {
    vi.useFakeTimers({ now: new Date("2026-01-01T00:00:00Z"), toFake: ["Date"] })
    const { adapter, browser } = setup()
    await browser.signIn()
    const first = onlySession(adapter).expires.getTime()

    vi.setSystemTime(new Date("2026-01-01T12:00:00Z"))
    const early = await browser.fetch("/auth/session")
    expect(early.headers.getSetCookie()).toEqual([])
    expect(onlySession(adapter).expires.getTime()).toBe(first)

    vi.setSystemTime(new Date("2026-01-02T00:00:01Z"))
    const due = await browser.fetch("/auth/session")
    const later = onlySession(adapter).expires.getTime()
    expect(later - first).toBe((DAY + 1) * 1000)
    expect(due.headers.getSetCookie().join()).toContain(`${SESSION}=`)
    expect((await due.json()).expires).toBe(new Date(later).toISOString())
  })

  it("deletes an expired session and reads it as none", async () => {
    vi.useFakeTimers({ now: new Date("2026-01-01T00:00:00Z"), toFake: ["Date"] })
    const { adapter, browser } = setup()
    await browser.signIn()
    vi.setSystemTime(new Date("2026-03-01T00:00:00Z"))
    expect(await browser.session()).toBeNull()
    expect(adapter.sessions.size).toBe(0)
    expect(browser.cookies.has(SESSION)).toBe(false)
  })

  it("reads an unknown token as no session and deletes its cookie", async () => {
    const { browser } = setup()
    browser.cookies.set(SESSION, "not-a-session")
    expect(await browser.session()).toBeNull()
    expect(browser.cookies.has(SESSION)).toBe(false)
  })

  it("signs out: deletes the row and emits signOut with the session", async () => {
    const { adapter, browser, signOut } = setup()
    await browser.signIn()
    const stored = onlySession(adapter)
    await browser.fetch("/auth/signout", { form: { csrfToken: await browser.csrfToken() } })
    expect(adapter.sessions.size).toBe(0)
    expect(browser.cookies.has(SESSION)).toBe(false)
    expect(signOut).toHaveBeenCalledWith({ session: stored })
  })

  it("updates through the session callback with trigger update", async () => {
    const session = vi.fn(({ session, newSession, trigger }) =>
      trigger === "update"
        ? { ...session, user: { ...session.user, name: newSession.name } }
        : session,
    )
    const { browser } = setup({ callbacks: { session } })
    await browser.signIn()
    const response = await browser.fetch("/auth/session", {
      json: { csrfToken: await browser.csrfToken(), data: { name: "Alice L." } },
    })
    expect((await response.json()).user.name).toBe("Alice L.")
    expect(session).toHaveBeenLastCalledWith(
      expect.objectContaining({ trigger: "update", newSession: { name: "Alice L." } }),
    )
  })

  it("never sends the session token or user id to the client", async () => {
    const { browser } = setup()
    await browser.signIn()
    const body = JSON.stringify(await browser.session())
    expect(body).not.toContain(browser.cookies.get(SESSION)!)
    expect(body).not.toContain("userId")
  })

  it("answers a failing database with a 503 and Retry-After, logged, the cookie kept", async () => {
    const { adapter, browser, error } = setup()
    await browser.signIn()
    adapter.getSessionAndUser = () => {
      throw new Error("connection refused")
    }
    const response = await browser.fetch("/auth/session")
    // Not `null` with a 200: that would show a signed-in user as signed out.
    expect(response.status).toBe(503)
    expect(response.headers.get("retry-after")).toBe("5")
    const body = await response.text()
    expect(JSON.parse(body)).toMatchObject({ error: "AdapterError" })
    expect(body).not.toContain("connection refused")
    expect(browser.cookies.has(SESSION)).toBe(true)
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ type: "AdapterError" }))
  })

  it("lists and revokes a user's sessions everywhere", async () => {
    const { adapter, config } = setup()
    const phone = new Browser(config)
    const laptop = new Browser(config)
    await phone.signIn()
    await laptop.signIn()
    expect(await listSessions(config, ALICE.id)).toHaveLength(2)
    expect(await revokeSessions(config, ALICE.id)).toBe(2)
    expect(adapter.sessions.size).toBe(0)
    expect(await phone.session()).toBeNull()
    expect(await laptop.session()).toBeNull()
  })

  it("names what an adapter lacks", async () => {
    const { adapter, config } = setup()
    delete adapter.listSessionsByUserId
    await expect(listSessions(config, ALICE.id)).rejects.toMatchObject({
      type: "MissingAdapterMethods",
    })
  })
})
