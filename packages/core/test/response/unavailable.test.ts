/**
 * The database down: a request that needed the adapter answers 503 with `Retry-After` (API
 * actions) or a redirect to the error page with `code=unavailable` and `Retry-After` (page
 * actions), never a 500 or a stack, never deleting the session cookie; the operator gets one log
 * line per kind of failure, not one per request.
 */
import { describe, expect, it, vi } from "vitest"
import { getSession } from "../../src/index.js"
import { AdapterError } from "../../src/errors.js"
import { createLogger } from "../../src/lib/logger.js"
import { logUnavailable, RETRY_AFTER_SECONDS } from "../../src/response/unavailable.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { ALICE, Browser, ORIGIN, setCookies, testConfig } from "../helpers/request.js"

const SESSION = "authjs.session-token"

function setup(extra: Partial<AuthConfig> = {}) {
  const adapter = memoryAdapter()
  adapter.users.set(ALICE.id, { ...ALICE, emailVerified: null })
  const error = vi.fn()
  const config = testConfig({
    adapter,
    logger: { error, warn: () => {}, debug: () => {} },
    ...extra,
  })
  const browser = new Browser(config)
  /** Every adapter method throws, as pg does with the server stopped. */
  const takeDown = () => {
    for (const key of Object.keys(adapter) as (keyof typeof adapter)[]) {
      if (typeof adapter[key] !== "function") continue
      ;(adapter as unknown as Record<string, unknown>)[key] = () => {
        const cause = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
          code: "ECONNREFUSED",
        })
        throw cause
      }
    }
  }
  return { adapter, config, browser, error, takeDown }
}

describe("the database down", () => {
  it("answers a session read 503 JSON with Retry-After, keeps the cookie, hides the cause", async () => {
    const { browser, takeDown } = setup()
    await browser.signIn()
    const token = browser.cookies.get(SESSION)
    expect(token).toBeTruthy()
    takeDown()
    const response = await browser.fetch("/auth/session")
    expect(response.status).toBe(503)
    expect(response.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS))
    const text = await response.text()
    expect(JSON.parse(text)).toEqual({ error: "AdapterError", message: expect.any(String) })
    expect(text).not.toMatch(/ECONNREFUSED|5432|at .+:\d+|getSessionAndUser/)
    expect(setCookies(response).has(SESSION)).toBe(false)
    expect(browser.cookies.get(SESSION)).toBe(token)
  })

  it("keeps the session cookie when signing out fails, and says when to retry", async () => {
    const { adapter, browser, takeDown } = setup()
    await browser.signIn()
    const token = browser.cookies.get(SESSION)
    const csrfToken = await browser.csrfToken()
    const sessions = adapter.sessions.size
    takeDown()
    const response = await browser.fetch("/auth/signout", { form: { csrfToken } })
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/auth/error")
    expect(location.searchParams.get("code")).toBe("unavailable")
    expect(response.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS))
    // The row is still in the database: deleting the cookie would leave a live session the user
    // believes ended.
    expect(setCookies(response).has(SESSION)).toBe(false)
    expect(browser.cookies.get(SESSION)).toBe(token)
    expect(adapter.sessions.size).toBe(sessions)
  })

  it("sends a sign-in to the error page with code=unavailable, not a 5xx", async () => {
    const { browser, takeDown } = setup()
    takeDown()
    const response = await browser.signIn()
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/auth/error")
    expect(location.searchParams.get("error")).toBe("Configuration")
    expect(location.searchParams.get("code")).toBe("unavailable")
    expect(response.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS))
  })

  it("throws from getSession (never null for a signed-in user), logged once", async () => {
    const { browser, config, error, takeDown } = setup()
    await browser.signIn()
    takeDown()
    const request = () => new Request(`${ORIGIN}/`, { headers: { cookie: browser.cookieHeader() } })
    for (let i = 0; i < 5; i++) {
      await expect(getSession(request(), config)).rejects.toMatchObject({ type: "AdapterError" })
    }
    expect(error).toHaveBeenCalledTimes(1)
  })

  it("logs a flood of the same failure once, and the next one with a count", () => {
    const error = vi.fn()
    const logger = createLogger({ debug: false, overrides: { error } })
    const failure = (method: string, code: string) =>
      new AdapterError(`adapter.${method} failed`, {
        cause: Object.assign(new Error(`${code} happened`), { code }),
      })
    const t = 1_000_000
    for (let i = 0; i < 100; i++)
      logUnavailable(logger, failure("getSessionAndUser", "ECONNREFUSED"), t + i)
    // Another kind of failure is logged on its own.
    logUnavailable(logger, failure("getSessionAndUser", "57P01"), t + 200)
    logUnavailable(logger, failure("createSession", "ECONNREFUSED"), t + 300)
    expect(error).toHaveBeenCalledTimes(3)
    // A minute later the first kind is logged again, saying how many were left out.
    logUnavailable(logger, failure("getSessionAndUser", "ECONNREFUSED"), t + 61_000)
    expect(error).toHaveBeenCalledTimes(4)
    expect((error.mock.calls[3]![0] as Error).message).toMatch(/and 99 more like it/)
  })

  it("leaves other API failures alone: a broken session callback still reads as no session", async () => {
    const { browser, error } = setup({
      callbacks: {
        session: () => {
          throw new Error("a bug in the app's callback")
        },
      },
    })
    await browser.signIn()
    const response = await browser.fetch("/auth/session")
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    expect(error).toHaveBeenCalled()
  })
})
