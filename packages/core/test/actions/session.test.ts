import { afterEach, describe, expect, it, vi } from "vitest"

import { setEnvDefaults } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import { encode, type JWT } from "../../src/jwt.js"
import type { AuthConfig, JWTCallbackParams } from "../../src/types.js"
import {
  ALICE,
  Browser,
  deletedCookies,
  SECRET,
  setCookies,
  testConfig,
  writtenCookies,
} from "../helpers/request.js"

const COOKIE = "authjs.session-token"
const SECRET_A = "secret-a-that-is-long-enough-for-production-0001"
const SECRET_B = "secret-b-that-is-long-enough-for-production-0002"

async function signedIn(config: AuthConfig = testConfig(), origin?: string): Promise<Browser> {
  const browser = new Browser(config, origin)
  const response = await browser.signIn()
  expect(response.status).toBe(302)
  expect(browser.cookies.has(COOKIE) || browser.cookies.has(`${COOKIE}.0`)).toBe(true)
  return browser
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("")
}

afterEach(() => {
  vi.useRealTimers()
})

describe("GET /auth/session", () => {
  it("answers null without a session cookie, and sets no cookie", async () => {
    const response = await new Browser(testConfig()).fetch("/auth/session")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("application/json")
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("answers the user's name, email and image and the expiry after sign-in", async () => {
    const browser = await signedIn()
    const response = await browser.fetch("/auth/session")
    expect(response.status).toBe(200)
    const session = (await response.json()) as Record<string, any>
    expect(session).toEqual({
      user: { name: ALICE.name, email: ALICE.email, image: ALICE.image },
      expires: expect.any(String),
    })
    const expires = new Date(session.expires).getTime()
    const thirtyDays = 30 * 24 * 60 * 60 * 1000
    expect(Math.abs(expires - (Date.now() + thirtyDays))).toBeLessThan(60_000)
  })

  it("leaves out the user fields it has no value for, as Auth.js answers them", async () => {
    const config = testConfig({
      providers: [
        Credentials({ credentials: {}, authorize: () => ({ id: "u2", email: "bob@example.com" }) }),
      ],
    })
    const browser = new Browser(config)
    expect((await browser.signIn()).status).toBe(302)
    const text = await (await browser.fetch("/auth/session")).text()
    expect(JSON.parse(text)).toEqual({
      user: { email: "bob@example.com" },
      expires: expect.any(String),
    })
    expect(text).not.toContain("null")
  })

  it("is never cached", async () => {
    const browser = await signedIn()
    const response = await browser.fetch("/auth/session")
    expect(response.headers.get("cache-control")).toMatch(/no-store/)
  })

  it("sets the session cookie HttpOnly, SameSite=Lax, Path=/ with an expiry", async () => {
    const browser = new Browser(testConfig())
    const response = await browser.signIn()
    const set = setCookies(response).get(COOKIE)!
    expect(set.cookie.httpOnly).toBe(true)
    expect(set.cookie.sameSite).toMatch(/^lax$/i)
    expect(set.cookie.path).toBe("/")
    expect(set.cookie.secure).toBeFalsy()
    expect(set.cookie.expires!.getTime()).toBeGreaterThan(Date.now())
  })

  it("uses __Secure-authjs.session-token with Secure on https", async () => {
    const browser = new Browser(testConfig(), "https://example.com")
    const response = await browser.signIn()
    const set = setCookies(response).get(`__Secure-${COOKIE}`)
    expect(set).toBeDefined()
    expect(set!.cookie.secure).toBe(true)
    expect(setCookies(response).has(COOKIE)).toBe(false)
    expect((await browser.session())?.user?.name).toBe("Alice")
  })

  it("does not re-issue the cookie on a read before updateAge", async () => {
    const browser = await signedIn()
    const response = await browser.fetch("/auth/session")
    expect(((await response.json()) as any).user.name).toBe("Alice")
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("re-issues the cookie on every read with updateAge: 0", async () => {
    const browser = await signedIn(testConfig({ session: { updateAge: 0 } }))
    const before = browser.cookies.get(COOKIE)
    const response = await browser.fetch("/auth/session")
    expect(writtenCookies(response)).toEqual([COOKIE])
    expect(browser.cookies.get(COOKIE)).not.toBe(before)
    expect((await browser.session())?.user?.name).toBe("Alice")
  })

  it("re-issues the cookie once updateAge has passed", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const start = new Date("2030-01-01T00:00:00Z")
    vi.setSystemTime(start)
    const browser = await signedIn(testConfig({ session: { updateAge: 60, maxAge: 3600 } }))
    vi.setSystemTime(start.getTime() + 30_000)
    expect((await browser.fetch("/auth/session")).headers.getSetCookie()).toEqual([])
    vi.setSystemTime(start.getTime() + 61_000)
    const response = await browser.fetch("/auth/session")
    expect(writtenCookies(response)).toEqual([COOKIE])
    const session = (await response.json()) as Record<string, string>
    expect(new Date(session.expires!).getTime()).toBe(start.getTime() + 61_000 + 3600_000)
  })

  it("re-issues the cookie when a jwt callback changes the token", async () => {
    let reads = 0
    const browser = await signedIn(
      testConfig({
        callbacks: {
          jwt: ({ token, trigger }) => (trigger ? token : { ...token, reads: ++reads }),
        },
      }),
    )
    const response = await browser.fetch("/auth/session")
    expect(writtenCookies(response)).toEqual([COOKIE])
  })

  it("does not re-issue the cookie when a jwt callback returns the token unchanged", async () => {
    const browser = await signedIn(
      testConfig({ callbacks: { jwt: ({ token }) => ({ ...token }) } }),
    )
    const response = await browser.fetch("/auth/session")
    expect(response.headers.getSetCookie()).toEqual([])
    expect((await response.json()) as unknown).not.toBeNull()
  })

  it("answers null and deletes the cookie once the session has expired", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const start = new Date("2030-01-01T00:00:00Z")
    vi.setSystemTime(start)
    const browser = await signedIn(testConfig({ session: { maxAge: 60 } }))
    const cookie = browser.cookies.get(COOKIE)!
    vi.setSystemTime(start.getTime() + 5 * 60_000)
    // A browser would drop the expired cookie itself; a replayed one must fail too.
    browser.cookies.set(COOKIE, cookie)
    const response = await browser.fetch("/auth/session")
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    expect(deletedCookies(response)).toContain(COOKIE)
  })

  const otherSecretToken = () =>
    encode({
      token: { name: "Mallory" },
      secret: "another-secret-that-is-long-enough-000000",
      salt: COOKIE,
    })
  const validToken = () => encode({ token: { name: "Alice" }, secret: SECRET, salt: COOKIE })
  const b64 = (text: string) => Buffer.from(text).toString("base64url")
  it.each<[string, () => Promise<string> | string]>([
    ["a malformed value", () => "not-a-token"],
    ["a truncated JWE", async () => (await validToken()).slice(0, -20)],
    [
      "a JWE with a part cut off",
      async () => (await validToken()).split(".").slice(0, 4).join("."),
    ],
    ["a JWE made with another secret", otherSecretToken],
    ["a JWE made for another cookie name", () => encode({ token: {}, secret: SECRET, salt: "x" })],
    [
      "random base64",
      () => Buffer.from(crypto.getRandomValues(new Uint8Array(300))).toString("base64"),
    ],
    ["five empty parts", () => "...."],
    [
      "an unsigned token (alg none)",
      () => `${b64('{"alg":"none"}')}.${b64('{"name":"Mallory"}')}.`,
    ],
    [
      "a JWE with a non-JSON header",
      async () => `${b64("nope")}${(await validToken()).slice((await validToken()).indexOf("."))}`,
    ],
    ["percent garbage", () => "%%%"],
    ["a very long value", () => "a".repeat(3000)],
  ])("answers null, deletes the cookie and never fails for %s", async (_case, make) => {
    const browser = new Browser(testConfig())
    browser.cookies.set(COOKIE, await make())
    const response = await browser.fetch("/auth/session")
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    expect(deletedCookies(response)).toContain(COOKIE)
  })

  it("answers null when a chunk of a split session is missing", async () => {
    const browser = await signedIn(largeConfig())
    expect(browser.cookies.has(`${COOKIE}.1`)).toBe(true)
    browser.cookies.delete(`${COOKIE}.1`)
    const response = await browser.fetch("/auth/session")
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
  })
})

describe("secret rotation", () => {
  it("reads a session made under secret A with secret: [B, A]", async () => {
    const old = await signedIn(testConfig({ secret: SECRET_A }))
    const rotated = new Browser(testConfig({ secret: [SECRET_B, SECRET_A] }))
    rotated.cookies = new Map(old.cookies)
    expect((await rotated.session())?.user?.name).toBe("Alice")
  })

  it("re-issues the session under the newest secret, readable by [B] alone", async () => {
    const old = await signedIn(testConfig({ secret: SECRET_A }))
    const onlyB = new Browser(testConfig({ secret: SECRET_B }))
    onlyB.cookies = new Map(old.cookies)
    expect(await onlyB.session()).toBeNull()

    const rotated = new Browser(
      testConfig({ secret: [SECRET_B, SECRET_A], session: { updateAge: 0 } }),
    )
    rotated.cookies = new Map(old.cookies)
    const response = await rotated.fetch("/auth/session")
    expect(writtenCookies(response)).toContain(COOKIE)

    const next = new Browser(testConfig({ secret: SECRET_B }))
    next.cookies = new Map(rotated.cookies)
    expect((await next.session())?.user?.name).toBe("Alice")
  })

  it("takes a comma-separated AUTH_SECRET, newest first, through setEnvDefaults", async () => {
    const old = await signedIn(testConfig({ secret: SECRET_A }))
    const config = testConfig({ secret: undefined, session: { updateAge: 0 } })
    setEnvDefaults({ AUTH_SECRET: `${SECRET_B},${SECRET_A}` }, config)
    expect(config.secret).toEqual([SECRET_B, SECRET_A])

    const rotated = new Browser(config)
    rotated.cookies = new Map(old.cookies)
    expect((await rotated.session())?.user?.name).toBe("Alice")

    const next = new Browser(testConfig({ secret: SECRET_B }))
    next.cookies = new Map(rotated.cookies)
    expect((await next.session())?.user?.name).toBe("Alice")
  })
})

describe("POST /auth/session (update)", () => {
  function updatingConfig(calls: Partial<JWTCallbackParams>[] = []) {
    return testConfig({
      callbacks: {
        jwt: ({ token, trigger, session }) => {
          calls.push({ trigger, session })
          if (trigger === "update" && typeof session?.name === "string") {
            return { ...token, name: session.name }
          }
          return token
        },
      },
    })
  }

  it("runs the jwt callback with trigger update and the data, and answers the new session", async () => {
    const calls: Partial<JWTCallbackParams>[] = []
    const browser = await signedIn(updatingConfig(calls))
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/session", {
      json: { csrfToken, data: { name: "Bob" } },
    })
    expect(response.status).toBe(200)
    expect(((await response.json()) as any).user.name).toBe("Bob")
    expect(writtenCookies(response)).toContain(COOKIE)
    expect(calls.at(-1)).toEqual({ trigger: "update", session: { name: "Bob" } })
    expect((await browser.session())?.user?.name).toBe("Bob")
  })

  it("passes trigger update and newSession to the session callback", async () => {
    const seen: unknown[] = []
    const config = updatingConfig()
    config.callbacks!.session = (params) => {
      seen.push({ trigger: params.trigger, newSession: params.newSession })
      return params.session
    }
    const browser = await signedIn(config)
    const csrfToken = await browser.csrfToken()
    await browser.fetch("/auth/session", { json: { csrfToken, data: { name: "Bob" } } })
    expect(seen.at(-1)).toEqual({ trigger: "update", newSession: { name: "Bob" } })
  })

  it("answers null to an update without a session", async () => {
    const browser = new Browser(updatingConfig())
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/session", {
      json: { csrfToken, data: { name: "Bob" } },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
  })

  it.each<[string, (token: string) => Record<string, unknown>]>([
    ["without a CSRF token", () => ({ data: { name: "Bob" } })],
    ["with a wrong CSRF token", () => ({ csrfToken: "0".repeat(64), data: { name: "Bob" } })],
    [
      "with a CSRF token of the wrong length",
      (t) => ({ csrfToken: `${t}0`, data: { name: "Bob" } }),
    ],
    ["with a non-string CSRF token", () => ({ csrfToken: ["x"], data: { name: "Bob" } })],
  ])("answers 400 MissingCSRF %s and leaves the session unchanged", async (_case, body) => {
    const calls: Partial<JWTCallbackParams>[] = []
    const browser = await signedIn(updatingConfig(calls))
    const token = await browser.csrfToken()
    const cookie = browser.cookies.get(COOKIE)
    const response = await browser.fetch("/auth/session", { json: body(token) })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: "MissingCSRF" })
    expect(setCookies(response).has(COOKIE)).toBe(false)
    expect(browser.cookies.get(COOKIE)).toBe(cookie)
    expect(calls.some((call) => call.trigger === "update")).toBe(false)
    expect((await browser.session())?.user?.name).toBe("Alice")
  })

  it("refuses a CSRF token whose cookie is missing", async () => {
    const browser = await signedIn(updatingConfig())
    const csrfToken = await browser.csrfToken()
    browser.cookies.delete("authjs.csrf-token")
    const response = await browser.fetch("/auth/session", {
      json: { csrfToken, data: { name: "Bob" } },
    })
    expect(response.status).toBe(400)
    expect((await browser.session())?.user?.name).toBe("Alice")
  })
})

describe("callbacks and events on a session read", () => {
  it("answers null and deletes the cookie when the jwt callback returns null", async () => {
    const browser = await signedIn(
      testConfig({
        callbacks: { jwt: ({ token, trigger }) => (trigger === "signIn" ? token : null) },
      }),
    )
    const response = await browser.fetch("/auth/session")
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    expect(deletedCookies(response)).toContain(COOKIE)
  })

  it("answers null but keeps the cookie when the jwt callback throws", async () => {
    const errors: Error[] = []
    const browser = await signedIn(
      testConfig({
        logger: { error: (e) => errors.push(e), warn: () => {}, debug: () => {} },
        callbacks: {
          jwt: ({ token, trigger }) => {
            if (trigger === "signIn") return token
            throw new Error("database is down")
          },
        },
      }),
    )
    const response = await browser.fetch("/auth/session")
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie()).toEqual([])
    expect(browser.cookies.has(COOKIE)).toBe(true)
    expect(errors.length).toBeGreaterThan(0)
  })

  it("answers null when the session callback throws, and says nothing of the error", async () => {
    const browser = await signedIn(
      testConfig({
        callbacks: {
          session: () => {
            throw new Error("secret detail")
          },
        },
      }),
    )
    const response = await browser.fetch("/auth/session")
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).toBe("null")
  })

  it("exposes what the session callback returns", async () => {
    const browser = await signedIn(
      testConfig({
        callbacks: { session: ({ session, token }) => ({ ...session, userId: token?.sub }) },
      }),
    )
    expect((await browser.session())?.userId).toBe(ALICE.id)
  })

  it("fires the session event with the session and the token", async () => {
    const session = vi.fn()
    const browser = await signedIn(testConfig({ events: { session } }))
    const body = await browser.session()
    expect(session).toHaveBeenCalledTimes(1)
    const message = session.mock.calls[0]![0] as { session: unknown; token: JWT }
    expect(message.session).toEqual(body)
    expect(message.token).toMatchObject({
      name: ALICE.name,
      email: ALICE.email,
      picture: ALICE.image,
      sub: ALICE.id,
    })
  })

  it("does not fire the session event without a session", async () => {
    const session = vi.fn()
    await new Browser(testConfig({ events: { session } })).session()
    expect(session).not.toHaveBeenCalled()
  })
})

/** A configuration whose jwt callback adds ~10 KB to the token, and drops it on `shrink`. */
function largeConfig(blob = randomHex(5000)): AuthConfig {
  return testConfig({
    callbacks: {
      jwt: ({ token, trigger, session }) => {
        if (trigger === "signIn") return { ...token, blob }
        if (trigger === "update" && session?.shrink) {
          const { blob: _blob, ...rest } = token
          return rest
        }
        if (trigger === "update" && session?.grow) return { ...token, blob }
        return token
      },
      session: ({ session, token }) => ({
        ...session,
        blob: typeof token?.blob === "string" ? token.blob : null,
      }),
    },
  })
}

describe("large sessions", () => {
  it("splits the cookie into chunks under 4096 bytes and reads them back whole", async () => {
    const blob = randomHex(5000)
    const browser = new Browser(largeConfig(blob))
    const response = await browser.signIn()
    const lines = [...setCookies(response).values()].filter(({ cookie }) =>
      cookie.name.startsWith(COOKIE),
    )
    const names = lines.map(({ cookie }) => cookie.name)
    expect(names.length).toBeGreaterThanOrEqual(3)
    expect(names).toEqual(names.map((_, i) => `${COOKIE}.${i}`))
    for (const { line } of lines) expect(new TextEncoder().encode(line).length).toBeLessThan(4096)

    const session = await browser.session()
    expect(session?.blob).toBe(blob)
    expect(session?.user?.name).toBe("Alice")
  })

  it("keeps chunks under 4096 bytes on https with prefixed names", async () => {
    const browser = new Browser(largeConfig(), "https://example.com")
    const response = await browser.signIn()
    const lines = [...setCookies(response).values()].filter(({ cookie }) =>
      cookie.name.startsWith(`__Secure-${COOKIE}.`),
    )
    expect(lines.length).toBeGreaterThanOrEqual(3)
    for (const { line } of lines) expect(new TextEncoder().encode(line).length).toBeLessThan(4096)
    expect((await browser.session())?.blob).toHaveLength(10_000)
  })

  it("deletes the stale chunks when the session shrinks back", async () => {
    const browser = await signedIn(largeConfig())
    const chunks = [...browser.cookies.keys()].filter((name) => name.startsWith(`${COOKIE}.`))
    expect(chunks.length).toBeGreaterThanOrEqual(3)

    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/session", {
      json: { csrfToken, data: { shrink: true } },
    })
    expect(response.status).toBe(200)
    expect(deletedCookies(response).sort()).toEqual([...chunks].sort())
    expect(writtenCookies(response)).toContain(COOKIE)
    expect([...browser.cookies.keys()].filter((name) => name.startsWith(COOKIE))).toEqual([COOKIE])

    const session = await browser.session()
    expect(session?.blob).toBeNull()
    expect(session?.user?.name).toBe("Alice")
  })

  it("deletes the plain cookie when the session grows into chunks", async () => {
    const browser = await signedIn(largeConfig())
    let csrfToken = await browser.csrfToken()
    await browser.fetch("/auth/session", { json: { csrfToken, data: { shrink: true } } })
    expect(browser.cookies.has(COOKIE)).toBe(true)

    csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/session", {
      json: { csrfToken, data: { grow: true } },
    })
    expect(deletedCookies(response)).toContain(COOKIE)
    expect(browser.cookies.has(COOKIE)).toBe(false)
    expect((await browser.session())?.blob).toHaveLength(10_000)
  })
})
