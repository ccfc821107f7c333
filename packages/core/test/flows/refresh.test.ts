/**
 * Providers with `refresh` on, against a real OpenID Provider (oidc-provider on 127.0.0.1) that
 * rotates refresh tokens — a spent refresh token is refused, and spending it again revokes the
 * grant — and issues access tokens that expire in a second: each refresh token is spent once
 * however many requests read the session at that moment, failures never sign the user out, and
 * the new access token works at the provider's API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"

import { decode } from "../../src/jwt.js"
import { getAccessToken } from "../../src/session/access-token.js"
import { customFetch } from "../../src/markers.js"
import type { OAuthConfig, ProviderFetch } from "../../src/providers/index.js"
import type { AuthConfig, JWTCallbackParams } from "../../src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { CLIENTS, login, startRotatingOP, type RotatingOP } from "../helpers/oidc-provider.js"
import { Browser, ORIGIN, SECRET, testConfig } from "../helpers/request.js"

const SESSION = "authjs.session-token"

let op: RotatingOP

beforeAll(async () => {
  op = await startRotatingOP()
})
afterAll(() => op?.stop())
beforeEach(() => {
  op.grants.length = 0
  op.accessTokenTTL = 1
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The test OpenID provider, refreshing (its tokens due once expired). */
function oidc(extra: Partial<OAuthConfig> = {}): OAuthConfig {
  return {
    id: "op",
    name: "Test OP",
    type: "oidc",
    issuer: op.issuer,
    ...CLIENTS.basic,
    refresh: { margin: 0 },
    ...extra,
  } as OAuthConfig
}

/** The same server as a plain OAuth 2.0 provider: explicit endpoints, no ID token checks. */
function plain(): OAuthConfig {
  return {
    id: "oauth",
    name: "Plain OAuth",
    type: "oauth",
    authorization: { url: op.endpoints.authorization, params: { scope: "openid profile email" } },
    token: op.endpoints.token,
    userinfo: op.endpoints.userinfo,
    ...CLIENTS.basic,
    refresh: { margin: 0 },
  }
}

interface Setup {
  config: AuthConfig
  adapter: MemoryAdapter
  events: Array<Record<string, unknown>>
  jwtCalls: JWTCallbackParams[]
}

function setup(
  providers: OAuthConfig[],
  strategy: "jwt" | "database",
  extra: Partial<AuthConfig> = {},
): Setup {
  const adapter = memoryAdapter()
  const events: Array<Record<string, unknown>> = []
  const jwtCalls: JWTCallbackParams[] = []
  const config = testConfig({
    providers,
    adapter,
    session: { strategy },
    logger: {
      error: (e) => process.env.DEBUG_REFRESH && console.log(e),
      warn: () => {},
      debug: () => {},
    },
    events: { refreshToken: (message) => void events.push(message) },
    callbacks: {
      jwt: (params) => {
        jwtCalls.push(params)
        return params.token
      },
    },
    ...extra,
  })
  return { config, adapter, events, jwtCalls }
}

/** Alice signs in with the provider; returns her browser. */
async function signIn(config: AuthConfig, provider = "op"): Promise<Browser> {
  const browser = new Browser(config)
  const csrfToken = await browser.csrfToken()
  const start = await browser.fetch(`/auth/signin/${provider}`, {
    form: { csrfToken, callbackUrl: "/dashboard" },
  })
  const back = new URL(await login(browser, start.headers.get("location")!))
  const callback = await browser.fetch(back.pathname + back.search)
  expect(callback.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
  return browser
}

/** The session cookie's claims. */
async function claimsOf(browser: Browser) {
  const token = await decode({ token: browser.cookies.get(SESSION), secret: SECRET, salt: SESSION })
  return token!
}

/** Whether the provider's API accepts the access token. */
async function works(accessToken: string | null | undefined): Promise<boolean> {
  const response = await fetch(op.endpoints.api, {
    headers: { authorization: `Bearer ${accessToken}` },
  })
  return response.ok
}

/** 20 reads of the session at once, all with the browser's current cookie. */
async function readsAtOnce(browser: Browser, count = 20) {
  const cookie = browser.cookieHeader()
  const responses = await Promise.all(
    Array.from({ length: count }, () => browser.fetch("/auth/session", { headers: { cookie } })),
  )
  return Promise.all(
    responses.map(async (response) => ({ status: response.status, body: await response.json() })),
  )
}

describe.each(["jwt", "database"] as const)("with %s sessions", (strategy) => {
  it("20 concurrent reads of an expired token make one refresh grant, and all answer the session", async () => {
    const { config, adapter, events } = setup([oidc()], strategy)
    const browser = await signIn(config)
    const before =
      strategy === "jwt"
        ? (await claimsOf(browser)).oauth
        : [...adapter.accounts.values()].find((a) => a.provider === "op")
    expect(before?.refresh_token).toEqual(expect.any(String))
    op.accessTokenTTL = 3600
    await sleep(1100)

    const answers = await readsAtOnce(browser)
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200))
    for (const { body } of answers) expect(body.user.email).toBe("alice@example.com")
    expect(op.grants).toEqual(["ok"])
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ provider: "op", providerAccountId: "alice" })
    expect(events[0]!.error).toBeUndefined()

    // The next read uses the new tokens: no grant, and the access token works at the API.
    const { accessToken, cookies } = await getAccessToken(
      new Request(`${ORIGIN}/api`, { headers: { cookie: browser.cookieHeader() } }),
      config,
      "op",
    )
    expect(op.grants).toEqual(["ok"])
    expect(accessToken).not.toBe(before?.access_token)
    expect(await works(accessToken)).toBe(true)
    expect(cookies.filter((c) => c.name === SESSION && c.value !== "")).toEqual([])
    if (strategy === "database") {
      const stored = [...adapter.accounts.values()].find((a) => a.provider === "op")!
      expect(stored.access_token).toBe(accessToken)
      expect(stored.refresh_token).not.toBe(before?.refresh_token)
      expect(stored.expires_at).toBeGreaterThan(Date.now() / 1000 + 3000)
    } else {
      const claims = await claimsOf(browser)
      expect(claims.oauth?.access_token).toBe(accessToken)
      expect(claims.oauth?.refresh_token).not.toBe(before?.refresh_token)
    }
  })

  it("marks the session when the provider refuses the refresh token, and keeps the user signed in", async () => {
    const { config, adapter, events } = setup([oidc()], strategy)
    const browser = await signIn(config)
    const held =
      strategy === "jwt"
        ? (await claimsOf(browser)).oauth!
        : [...adapter.accounts.values()].find((a) => a.provider === "op")!
    // The user revokes the app at the provider: its refresh token is gone.
    await (await op.provider.RefreshToken.find(held.refresh_token!))!.destroy()
    await sleep(1100)

    const session = await browser.session()
    expect(session?.user?.email).toBe("alice@example.com")
    expect(session?.error).toBe("RefreshTokenError")
    expect(op.grants).toEqual(["invalid_grant"])
    expect(events).toEqual([
      expect.objectContaining({ provider: "op", refused: true, error: expect.any(Error) }),
    ])

    // The dead token is not spent again; the session stays marked and signed in.
    const again = await browser.session()
    expect(again?.error).toBe("RefreshTokenError")
    expect(again?.user?.email).toBe("alice@example.com")
    expect(op.grants).toEqual(["invalid_grant"])
    const { accessToken } = await getAccessToken(
      new Request(`${ORIGIN}/api`, { headers: { cookie: browser.cookieHeader() } }),
      config,
      "op",
    )
    expect(accessToken).toBeNull()
  })

  it("keeps the session as it was when the provider cannot be reached, and refreshes at the next read", async () => {
    let down = true
    const flaky: ProviderFetch = (input, init) =>
      down && input.startsWith(op.endpoints.token)
        ? Promise.reject(new TypeError("fetch failed"))
        : fetch(input, init)
    // A timeout of 1 s: a refresh's lease (2 timeouts and 5 s) runs out in 7 s.
    const { config, events } = setup([oidc({ [customFetch]: flaky, timeout: 1 })], strategy)
    down = false
    const browser = await signIn(config)
    down = true
    op.accessTokenTTL = 3600
    await sleep(1100)

    const session = await browser.session()
    expect(session?.user?.email).toBe("alice@example.com")
    expect(session?.error).toBeUndefined()
    expect(op.grants).toEqual([])
    expect(events).toEqual([expect.objectContaining({ refused: false })])

    // JWT sessions try again at the next read; database sessions once the lease has run out
    // (another instance may hold it, refreshing).
    down = false
    if (strategy === "database") {
      expect((await browser.session())?.user?.email).toBe("alice@example.com")
      expect(op.grants).toEqual([])
      await sleep(7000)
    }
    const next = await browser.session()
    expect(next?.error).toBeUndefined()
    expect(op.grants).toEqual(["ok"])
  }, 20_000)
})

describe("with JWT sessions", () => {
  it("passes the new tokens to the jwt callback with trigger refresh", async () => {
    const { config, jwtCalls } = setup([oidc()], "jwt")
    const browser = await signIn(config)
    op.accessTokenTTL = 3600
    await sleep(1100)
    jwtCalls.length = 0
    await browser.session()
    expect(jwtCalls).toHaveLength(1)
    expect(jwtCalls[0]!.trigger).toBe("refresh")
    expect(jwtCalls[0]!.account).toMatchObject({
      provider: "op",
      providerAccountId: "alice",
      type: "oidc",
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    })
    expect(jwtCalls[0]!.token.oauth?.access_token).toBe(jwtCalls[0]!.account!.access_token)
    expect(await works(jwtCalls[0]!.account!.access_token)).toBe(true)
  })

  it("refreshes a plain OAuth 2.0 provider's tokens", async () => {
    const { config } = setup([plain()], "jwt")
    const browser = await signIn(config, "oauth")
    const before = (await claimsOf(browser)).oauth!
    op.accessTokenTTL = 3600
    await sleep(1100)
    await readsAtOnce(browser, 5)
    expect(op.grants).toEqual(["ok"])
    const after = (await claimsOf(browser)).oauth!
    expect(after.access_token).not.toBe(before.access_token)
    expect(await works(after.access_token)).toBe(true)
  })

  it("keeps no provider tokens, and refreshes nothing, for a provider without refresh", async () => {
    const { config } = setup([oidc({ refresh: false })], "jwt")
    const browser = await signIn(config)
    expect((await claimsOf(browser)).oauth).toBeUndefined()
    await sleep(1100)
    expect((await browser.session())?.error).toBeUndefined()
    expect(op.grants).toEqual([])
  })
})

describe("getAccessToken", () => {
  it("answers null without a session, and for a provider the user did not sign in with", async () => {
    const { config } = setup([oidc(), plain()], "jwt")
    const anonymous = await getAccessToken(new Request(`${ORIGIN}/api`), config, "op")
    expect(anonymous).toEqual({ accessToken: null, cookies: [] })
    const browser = await signIn(config)
    const request = () =>
      new Request(`${ORIGIN}/api`, { headers: { cookie: browser.cookieHeader() } })
    expect((await getAccessToken(request(), config, "oauth")).accessToken).toBeNull()
    const { accessToken } = await getAccessToken(request(), config, "op")
    expect(await works(accessToken)).toBe(true)
  })
})

it("refuses database sessions with refresh when the adapter cannot update accounts", async () => {
  const adapter = memoryAdapter()
  const { updateAccount: _update, ...partial } = adapter
  const error = vi.fn()
  const config = testConfig({
    providers: [oidc()],
    adapter: partial,
    session: { strategy: "database" },
    logger: { error, warn: () => {}, debug: () => {} },
  })
  const response = await new Browser(config).fetch("/auth/session")
  expect(response.status).toBe(500)
  expect(await response.json()).toMatchObject({ error: "Configuration" })
  expect(String(error.mock.calls[0]?.[0]?.message)).toContain("updateAccount")
})
