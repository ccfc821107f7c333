/**
 * Attack: account enumeration through `webauthn-options`.
 *
 * Anyone may call `GET {basePath}/webauthn-options/<provider>?email=…`. Were the answer to
 * depend on the address (`register` for a free one, `authenticate` or "already has an account"
 * for a taken one), a script could test a list of addresses for accounts, as fast as the server
 * answers.
 *
 * Safe outcome: to a visitor who is not signed in, the default answer is the same for an address
 * with an account and one without — same status, same body shape, same cookies — with or without
 * `action`. And where an app's own `getUserInfo` may tell addresses apart, anonymous requests
 * are limited per client address (the address the integration reports, never a header): over
 * the limit, 429 with `Retry-After` and a JSON code.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import Passkey from "../../src/providers/passkey.js"
import type { WebAuthnUserConfig } from "../../src/providers/webauthn.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { ALICE, Browser, ORIGIN, setCookies, testConfig } from "../helpers/request.js"

afterEach(() => vi.useRealTimers())

/**
 * Stops the clock a second into a window of `seconds` (windows are aligned to the clock), so
 * that a test's requests never straddle two windows.
 */
function freezeInWindow(seconds = 60) {
  const span = seconds * 1000
  vi.useFakeTimers({ toFake: ["Date"], now: Math.floor(Date.now() / span) * span + span + 1000 })
}

const CHALLENGE_COOKIE = "authjs.challenge"

function setup(
  passkey: WebAuthnUserConfig = {},
  strategy: "database" | "jwt" = "database",
): { adapter: MemoryAdapter; config: AuthConfig } {
  const adapter = memoryAdapter()
  adapter.createUser!({ ...ALICE, emailVerified: new Date() })
  const base = testConfig()
  const config = testConfig({
    adapter,
    session: { strategy },
    experimental: { enableWebAuthn: true },
    providers: [...base.providers, Passkey(passkey)],
  })
  return { adapter, config }
}

/** What an answer tells: its status, its body's shape and the cookies it sets. */
async function shape(response: Response) {
  const body = (await response.json()) as Record<string, any>
  return {
    status: response.status,
    keys: Object.keys(body).sort(),
    action: body.action,
    error: body.error,
    message: body.message,
    optionKeys: body.options ? Object.keys(body.options).sort() : undefined,
    user: body.options?.user,
    cookies: [...setCookies(response).keys()].sort(),
  }
}

/** An options request from a client address, as an integration reports it. */
function fromClient(config: AuthConfig, clientAddress: string, query = "", headers = {}) {
  const request = new Request(`${ORIGIN}/auth/webauthn-options/passkey${query}`, { headers })
  return Auth(request, config, { clientAddress })
}

describe("what webauthn-options tells an anonymous visitor", () => {
  it.each([
    ["no action", {}],
    ["action=register", { action: "register" }],
    ["action=authenticate", { action: "authenticate" }],
  ])("answers the same for an address with an account and one without (%s)", async (_, query) => {
    const { config } = setup()
    const ask = async (email: string) => {
      const browser = new Browser(config)
      return shape(
        await browser.fetch(
          `/auth/webauthn-options/passkey?${new URLSearchParams({ ...query, email })}`,
        ),
      )
    }
    const taken = await ask(ALICE.email)
    const free = await ask("nobody-here@example.com")
    expect(free).toEqual(taken)
    expect([200, 403]).toContain(taken.status)
  })

  it("tells a signed-in user nothing about other addresses either", async () => {
    for (const strategy of ["database", "jwt"] as const) {
      const { config } = setup({}, strategy)
      const browser = new Browser(config)
      await browser.signIn()
      const ask = async (email: string) =>
        shape(await browser.fetch(`/auth/webauthn-options/passkey?email=${email}`))
      // The signed-in user registers for their own account, whatever address is asked about.
      const taken = await ask("bob@example.com")
      const free = await ask("nobody-here@example.com")
      expect(free).toEqual(taken)
      expect(taken.user?.name).toBe(ALICE.email)
    }
  })
})

/**
 * An app's own `getUserInfo` that looks the address up: the kind that can tell addresses apart,
 * and so the kind whose requests are counted.
 */
const lookup: WebAuthnUserConfig["getUserInfo"] = async ({ adapter }, request) => {
  const email = request.query.email
  if (!email) return null
  const user = await adapter.getUserByEmail!(email)
  return { user: user ?? { email }, exists: user !== null }
}

/** A passkey provider with `lookup` and these options. */
const withLookup = (passkey: WebAuthnUserConfig = {}) => setup({ getUserInfo: lookup, ...passkey })

describe("the rate limit of anonymous webauthn-options requests", () => {
  it("answers 429 with Retry-After and a JSON code once a client address is over the limit", async () => {
    const { config } = withLookup({ rateLimit: { perClient: 3, window: 60 } })
    freezeInWindow()
    for (let i = 0; i < 3; i++) {
      expect((await fromClient(config, "203.0.113.5", `?email=u${i}@example.com`)).status).toBe(200)
    }
    const refused = await fromClient(config, "203.0.113.5", `?email=${ALICE.email}`)
    expect(refused.status).toBe(429)
    const retryAfter = Number(refused.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(refused.headers.get("cache-control")).toBe("no-store")
    expect(await refused.json()).toEqual({
      error: "WebAuthnRateLimited",
      message: `Too many passkey requests from your network. Try again in ${retryAfter} seconds.`,
    })
    expect(setCookies(refused).has(CHALLENGE_COOKIE)).toBe(false)
    // Another client is not limited by this one.
    expect((await fromClient(config, "203.0.113.6", "?email=x@example.com")).status).toBe(200)
    // Signing in with a passkey reveals nothing and is never limited.
    expect((await fromClient(config, "203.0.113.5", "?action=authenticate")).status).toBe(200)
  })

  it("counts the integration's client address, never X-Forwarded-For", async () => {
    const { config } = withLookup({ rateLimit: { perClient: 1 } })
    freezeInWindow()
    const forged = (n: number) => ({ "x-forwarded-for": `198.51.100.${n}` })
    const probe = "?email=probe@example.com"
    expect((await fromClient(config, "203.0.113.7", probe, forged(1))).status).toBe(200)
    expect((await fromClient(config, "203.0.113.7", probe, forged(2))).status).toBe(429)
    // Nor can a header put another client over its limit.
    expect((await fromClient(config, "203.0.113.8", probe, forged(1))).status).toBe(200)
  })

  it("opens again in the next window", async () => {
    const { config } = withLookup({ rateLimit: { perClient: 1, window: 30 } })
    freezeInWindow(30)
    const probe = "?email=probe@example.com"
    expect((await fromClient(config, "203.0.113.9", probe)).status).toBe(200)
    const refused = await fromClient(config, "203.0.113.9", probe)
    expect(refused.status).toBe(429)
    const wait = Number(refused.headers.get("retry-after"))
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + wait * 1000 })
    expect((await fromClient(config, "203.0.113.9", probe)).status).toBe(200)
  })

  it("limits by default, and keeps the counts in the adapter under keys that hide the address", async () => {
    const { adapter, config } = withLookup()
    freezeInWindow()
    const statuses: number[] = []
    for (let i = 0; i < 61; i++) {
      statuses.push((await fromClient(config, "192.0.2.44", `?email=u${i}@example.com`)).status)
    }
    expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true)
    expect(statuses[60]).toBe(429)
    const keys = [...adapter.counters.keys()].filter((key) => key.startsWith("webauthn:options:"))
    expect(keys).toHaveLength(1)
    expect(keys[0]).toMatch(/^webauthn:options:passkey:[0-9a-f]{64}$/)
    expect(keys[0]).not.toContain("192.0.2.44")
  })

  it("counts nothing with the default getUserInfo, which answers every address alike", async () => {
    // The built-in sign-in page asks for options on every view: no counter write for it.
    const { adapter, config } = setup({ rateLimit: { perClient: 1 } })
    for (const query of ["", "?email=a@example.com", "?action=authenticate", "?action=register"]) {
      expect((await fromClient(config, "203.0.113.20", query)).status).not.toBe(429)
    }
    expect([...adapter.counters.keys()].filter((key) => key.startsWith("webauthn:"))).toEqual([])
  })

  it("does not limit a signed-in user adding a passkey", async () => {
    freezeInWindow()
    const { config } = withLookup({ rateLimit: { perClient: 1 } })
    const browser = new Browser(config)
    await browser.signIn()
    for (let i = 0; i < 3; i++) {
      const request = new Request(`${ORIGIN}/auth/webauthn-options/passkey?action=register`, {
        headers: { cookie: browser.cookieHeader() },
      })
      expect((await Auth(request, config, { clientAddress: "203.0.113.10" })).status).toBe(200)
    }
  })

  it("can be turned off, and refuses a limit that is not a positive integer with a clear 500", async () => {
    const off = withLookup({ rateLimit: false }).config
    for (let i = 0; i < 70; i++) {
      expect((await fromClient(off, "203.0.113.11", "?email=x@example.com")).status).toBe(200)
    }

    const errors: Error[] = []
    const { config } = withLookup({ rateLimit: { perClient: 0 } })
    config.logger = { error: (error) => errors.push(error), warn() {}, debug() {} }
    const response = await fromClient(config, "203.0.113.12", "?email=x@example.com")
    expect(response.status).toBe(500)
    const body = (await response.json()) as { error: string; message: string }
    expect(body.error).toBe("Configuration")
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts/)
    expect(errors.map((error) => error.message)).toEqual([
      "The WebAuthn provider's rateLimit.perClient must be a positive integer",
    ])
  })
})
