/**
 * Redis stopped (killed, as a crash) under an app, feature by feature, through `Auth()`: what
 * each one answers while Redis is away — never a 500, never a code or challenge accepted that
 * could not be marked spent — and that each works again once Redis is back, on the same client,
 * store and configuration (nothing restarted). The per-limit decisions are the README's table.
 *
 * Two configurations share one database (core's memory adapter) and one node-redis client: one
 * with the default store (`failOpen: false`), one with `failOpen: true`.
 */
import { createClient } from "redis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AuthConfig } from "../../core/src/types.js"
import {
  addPasskey,
  app,
  codeAt,
  enrol,
  owner,
  passkeyOptions,
  post,
  signIn,
  type App,
} from "../../core/test/helpers/account-security.js"
import { login, startRotatingOP, type RotatingOP } from "../../core/test/helpers/oidc-provider.js"
import { Browser, ORIGIN } from "../../core/test/helpers/request.js"
import { RedisStore } from "../src/index.js"
import { sleep, until } from "./instances.js"
import { startRedis, type RedisServer } from "./redis-server.js"

let server: RedisServer
let redis: ReturnType<typeof createClient>
let op: RotatingOP
/** The default store's app, and the same app with `failOpen: true`. */
let closed: App
let open: AuthConfig
/** What `failOpen` let through, as its `onError` heard it. */
const letThrough: unknown[] = []

let secret: string
let passkey: Awaited<ReturnType<typeof addPasskey>>

beforeAll(async () => {
  ;[server, op] = await Promise.all([startRedis(), startRotatingOP(1)])
  redis = createClient({ url: server.url })
  redis.on("error", () => {})
  await redis.connect()
  const store = RedisStore(redis, { commandTimeoutMs: 300 })
  const openStore = RedisStore(redis, {
    commandTimeoutMs: 300,
    failOpen: true,
    onError: (error) => letThrough.push(error),
  })
  closed = app({ strategy: "database", op, extra: { counterStore: store.counters } })
  // Latch keeps the OP's tokens fresh (`refresh`), spending each refresh token under a lease.
  closed.config.providers = closed.config.providers.map((provider) =>
    (provider as { id?: string }).id === "op"
      ? ({ ...provider, refresh: { margin: 0 } } as typeof provider)
      : provider,
  )
  open = { ...closed.config, counterStore: openStore.counters }

  // Ada: a password, a passkey, and two-factor authentication on. Bob: a password only.
  await owner(closed.adapter)
  await owner(closed.adapter, "bob@example.com")
  const browser = new Browser(closed.config)
  expect((await signIn(browser)).location?.pathname).toBe("/home")
  passkey = await addPasskey(browser)
  expect(passkey.answer?.location?.pathname).toBe("/profile")
  ;({ secret } = await enrol(browser))
}, 60_000)

afterAll(async () => {
  redis?.destroy()
  await Promise.all([server?.destroy(), op?.stop()])
})

/** Stops Redis and waits until the client knows it. */
async function stopRedis() {
  await server.stop()
  await until(() => !redis.isReady, "the client to see Redis gone", 5_000)
}

/** Starts Redis again and waits until the client has reconnected by itself. */
async function startRedis_() {
  await server.start()
  await until(() => redis.isReady, "the client to reconnect", 10_000)
}

/** The answer of a page action that needed Redis: the error page with `code=unavailable`. */
function expectUnavailablePage(response: Response) {
  expect(response.status).toBe(302)
  const location = new URL(response.headers.get("location")!)
  expect(location.pathname).toBe("/auth/error")
  expect(location.searchParams.get("error")).toBe("Configuration")
  expect(location.searchParams.get("code")).toBe("unavailable")
}

const hasSession = async (browser: Browser) => (await browser.session()) !== null

/** A passkey sign-in's options (asked while Redis was up) and the assertion to post. */
async function passkeyAssertion(config: AuthConfig) {
  const browser = new Browser(config)
  const { body } = await passkeyOptions(browser, "authenticate")
  const assertion = passkey.authenticator!.get(passkey.credential!, {
    challenge: body.options.challenge,
    origin: ORIGIN,
    rpId: "localhost",
    flags: { userVerified: true },
  })
  return { browser, data: JSON.stringify(assertion) }
}

const postAssertion = (browser: Browser, data: string) =>
  post(browser, "/auth/callback/passkey", { action: "authenticate", data, callbackUrl: "/home" })

describe("Redis down, feature by feature", () => {
  it("a two-factor code is refused as unavailable, never accepted unspent, even with failOpen; it works once Redis is back", async () => {
    // The password step done while Redis answers; the code step while it does not.
    const [one, two] = [new Browser(closed.config), new Browser(open)]
    for (const browser of [one, two]) {
      const first = await signIn(browser)
      expect(first.location?.pathname).toBe("/auth/two-factor")
    }
    await stopRedis()
    try {
      const code = await codeAt(secret, 0)
      for (const browser of [one, two]) {
        const { response } = await post(browser, "/auth/two-factor", { code })
        expectUnavailablePage(response)
        expect(await hasSession(browser)).toBe(false)
      }
    } finally {
      await startRedis_()
    }
    // Back: a whole sign-in with a code goes through (a code of a step never spent).
    const browser = new Browser(open)
    const { location } = await signIn(browser, { secret, step: 1 })
    expect(location?.href).toBe(`${ORIGIN}/home`)
    expect(await hasSession(browser)).toBe(true)
  })

  it("a passkey challenge is never accepted unspent, even with failOpen; it works once Redis is back", async () => {
    const pending = [await passkeyAssertion(closed.config), await passkeyAssertion(open)]
    await stopRedis()
    try {
      // Sign-in options count nothing (their rate limit is for anonymous registrations that
      // ask the app's getUserInfo): they are answered while Redis is away.
      for (const config of [closed.config, open]) {
        const { response, body } = await passkeyOptions(new Browser(config), "authenticate")
        expect(response.status).toBe(200)
        expect(body.options.challenge).toEqual(expect.any(String))
      }
      // The assertion: its challenge cannot be marked spent, so it is not accepted at all.
      for (const { browser, data } of pending) {
        const { response } = await postAssertion(browser, data)
        expectUnavailablePage(response)
        expect(await hasSession(browser)).toBe(false)
      }
    } finally {
      await startRedis_()
    }
    const { browser, data } = await passkeyAssertion(closed.config)
    const { location } = await postAssertion(browser, data)
    expect(location?.pathname).toBe("/home")
    expect(await hasSession(browser)).toBe(true)
  })

  it("a credentials sign-in limit fails closed by default and open with failOpen", async () => {
    await stopRedis()
    try {
      const refused = new Browser(closed.config)
      expectUnavailablePage((await signIn(refused, { email: "bob@example.com" })).response)
      expect(await hasSession(refused)).toBe(false)

      const before = letThrough.length
      const allowed = new Browser(open)
      const { location } = await signIn(allowed, { email: "bob@example.com" })
      expect(location?.pathname).toBe("/home")
      expect(await hasSession(allowed)).toBe(true)
      expect(letThrough.length).toBeGreaterThan(before)
      // failOpen opens the limit, not the password: a wrong one is still refused.
      const wrong = await signIn(new Browser(open), {
        email: "bob@example.com",
        password: "not the password",
      })
      expect(wrong.location?.searchParams.get("code")).not.toBe("unavailable")
      expect(wrong.location?.searchParams.get("error")).toBe("CredentialsSignin")
    } finally {
      await startRedis_()
    }
    const browser = new Browser(closed.config)
    expect((await signIn(browser, { email: "bob@example.com" })).location?.pathname).toBe("/home")
  })

  it("the refresh lease: an expired token is not refreshed while Redis is away (no grant spent, no 500), and is once it is back", async () => {
    const browser = new Browser(closed.config)
    const start = await post(browser, "/auth/signin/op", { callbackUrl: "/home" })
    const back = new URL(await login(browser, start.location!.href))
    await browser.fetch(back.pathname + back.search)
    expect(await hasSession(browser)).toBe(true)
    op.grants.length = 0
    op.accessTokenTTL = 3600
    await sleep(1_100) // the first access token (1 s) has expired

    await stopRedis()
    try {
      for (const config of [closed.config, open]) {
        const reader = new Browser(config)
        reader.cookies = new Map(browser.cookies)
        const response = await reader.fetch("/auth/session")
        // The session carries on as it was: its user, its token as it was, no error.
        expect(response.status).toBe(200)
        const body = (await response.json()) as { user?: { email?: string }; error?: string }
        expect(body.user?.email).toBe("alice@example.com")
        expect(body.error).toBeUndefined()
      }
      expect(op.grants).toEqual([])
    } finally {
      await startRedis_()
    }
    const response = await browser.fetch("/auth/session")
    expect(response.status).toBe(200)
    const body = (await response.json()) as { user?: { email?: string }; error?: string }
    expect(body.error).toBeUndefined()
    expect(op.grants).toEqual(["ok"])
  })
})
