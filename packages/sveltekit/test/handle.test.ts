import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { SvelteKitAuth } from "../src/lib/index.js"
import { countingDecode, testConfig } from "./helpers/config.js"
import {
  Browser,
  CSRF_COOKIE,
  ORIGIN,
  SESSION_COOKIE,
  createEvent,
  createResolve,
  setCookies,
  type TestEvent,
} from "./helpers/event.js"
import { setBuilding } from "./stubs/app-environment.js"
import { setBase } from "./stubs/app-paths.js"
import { env } from "./stubs/env-dynamic-private.js"

/** A handle with a decode counter, and a browser signed in through it. */
async function signedIn(overrides: Parameters<typeof testConfig>[0] = {}) {
  const counter = countingDecode()
  const { handle } = SvelteKitAuth(testConfig({ jwt: { decode: counter.decode }, ...overrides }))
  const browser = new Browser(handle)
  const { response } = await browser.signIn()
  expect(response.status).toBe(302)
  expect([...browser.cookies.keys()].some((name) => name.startsWith(SESSION_COOKIE))).toBe(true)
  counter.calls = 0
  return { handle, browser, counter }
}

const sessionWrites = (event: TestEvent) =>
  event.cookies.writes.filter((write) => write.name.startsWith(SESSION_COOKIE))

const deletesSession = (response: Response) =>
  setCookies(response).some((cookie) => cookie.name === SESSION_COOKIE && cookie.deleted)

describe("handle: routing", () => {
  const { handle } = SvelteKitAuth(testConfig())

  async function run(path: string, init?: Parameters<typeof createEvent>[1]) {
    const event = createEvent(path, init)
    const resolve = createResolve()
    const response = await handle({ event, resolve })
    return { event, resolve, response }
  }

  it("answers /auth/providers with Auth, without resolve", async () => {
    const { resolve, response } = await run("/auth/providers")
    expect(resolve).not.toHaveBeenCalled()
    expect(response.status).toBe(200)
    const providers = (await response.json()) as Record<string, { id: string; type: string }>
    expect(providers.credentials).toMatchObject({ id: "credentials", type: "credentials" })
  })

  it("answers /auth/csrf with a token and its cookie", async () => {
    const { resolve, response } = await run("/auth/csrf")
    expect(resolve).not.toHaveBeenCalled()
    expect(response.status).toBe(200)
    const { csrfToken } = (await response.json()) as { csrfToken: string }
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/)
    expect(setCookies(response).map((cookie) => cookie.name)).toContain(CSRF_COOKIE)
  })

  it("answers /auth/session with null when signed out", async () => {
    const { resolve, response } = await run("/auth/session")
    expect(resolve).not.toHaveBeenCalled()
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
  })

  it("answers the base path itself (an unknown action, 400) rather than resolving", async () => {
    const { resolve, response } = await run("/auth")
    expect(resolve).not.toHaveBeenCalled()
    expect(response.status).toBe(400)
  })

  it("resolves other requests and sets locals.auth", async () => {
    const { event, resolve, response } = await run("/dashboard")
    expect(resolve).toHaveBeenCalledTimes(1)
    expect(resolve.mock.calls[0]![0]).toBe(event)
    expect(await response.text()).toBe("page")
    expect(typeof event.locals.auth).toBe("function")
    expect(await event.locals.auth()).toBeNull()
  })

  it.each(["/authx", "/auth-other", "/authx/session", "/auth-other/providers", "/x/auth/session"])(
    "does not treat %s as an auth path",
    async (path) => {
      const { event, resolve, response } = await run(path)
      expect(resolve).toHaveBeenCalledTimes(1)
      expect(await response.text()).toBe("page")
      expect(typeof event.locals.auth).toBe("function")
    },
  )
})

describe("handle: locals.auth()", () => {
  it("sets locals.getSession, Auth.js's deprecated name, to the same memoized function", async () => {
    const { browser, counter } = await signedIn()
    let sessions: unknown[] = []
    await browser.fetch("/", {}, async (event) => {
      expect(event.locals.getSession).toBe(event.locals.auth)
      sessions = [await event.locals.getSession(), await event.locals.auth()]
    })
    expect(sessions[0]).toMatchObject({ user: { name: "Alice" } })
    expect(sessions[1]).toBe(sessions[0])
    expect(counter.calls).toBe(1)
  })

  it("returns the session of a request signed in through the handle", async () => {
    const { browser } = await signedIn()
    let session: unknown
    await browser.fetch("/", {}, async (event) => {
      session = await event.locals.auth()
    })
    expect(session).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
  })

  it("decrypts once however many times it is called, concurrently or not", async () => {
    const { browser, counter } = await signedIn()
    const sessions: unknown[] = []
    await browser.fetch("/", {}, async (event) => {
      sessions.push(...(await Promise.all([1, 2, 3].map(() => event.locals.auth()))))
      sessions.push(await event.locals.auth())
      sessions.push(await event.locals.auth())
    })
    expect(sessions).toHaveLength(5)
    expect(counter.calls).toBe(1)
    for (const session of sessions) expect(session).toBe(sessions[0])
    expect(sessions[0]).toMatchObject({ user: { name: "Alice" } })
  })

  it("memoizes per request: a second request decrypts again", async () => {
    const { browser, counter } = await signedIn()
    const twice = async (event: TestEvent) => {
      await event.locals.auth()
      await event.locals.auth()
    }
    await browser.fetch("/a", {}, twice)
    await browser.fetch("/b", {}, twice)
    expect(counter.calls).toBe(2)
  })

  it("re-issues the cookie exactly once with updateAge 0, however many calls", async () => {
    const { browser, counter } = await signedIn({ session: { updateAge: 0 } })
    const before = browser.cookies.get(SESSION_COOKIE)
    const { event } = await browser.fetch("/", {}, async (event) => {
      await Promise.all([1, 2, 3].map(() => event.locals.auth()))
      await event.locals.auth()
      await event.locals.auth()
    })
    expect(counter.calls).toBe(1)
    const writes = sessionWrites(event)
    expect(writes).toHaveLength(1)
    expect(writes[0]).toMatchObject({ kind: "set", name: SESSION_COOKIE })
    expect(writes[0]!.value).not.toBe("")
    expect(writes[0]!.value).not.toBe(before)
    expect(writes[0]!.options).toMatchObject({ path: "/", httpOnly: true, sameSite: "lax" })
  })

  it("re-issues a session too large for one cookie as chunks, each set once", async () => {
    const big = "x".repeat(6000)
    const { browser, counter } = await signedIn({
      session: { updateAge: 0 },
      callbacks: {
        jwt: ({ token }) => ({ ...token, big }),
        session: ({ session, token }) => ({ ...session, big: token?.big }),
      },
    })
    const chunks = [...browser.cookies.keys()].filter((name) => name.startsWith(SESSION_COOKIE))
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks).not.toContain(SESSION_COOKIE)
    let session: unknown
    const { event } = await browser.fetch("/", {}, async (event) => {
      await Promise.all([1, 2].map(() => event.locals.auth()))
      session = await event.locals.auth()
    })
    expect(counter.calls).toBe(1)
    expect(session).toMatchObject({ user: { name: "Alice" }, big })
    const writes = sessionWrites(event)
    expect(writes.map((write) => write.name).sort()).toEqual(chunks.sort())
    for (const write of writes) expect(write.value.length).toBeLessThan(4000)
  })

  it("does not re-issue the cookie while updateAge is not due", async () => {
    const { browser } = await signedIn()
    const { event } = await browser.fetch("/", {}, (event) => event.locals.auth())
    expect(sessionWrites(event)).toHaveLength(0)
  })

  it("costs no decrypt for a request that never calls it", async () => {
    const { browser, counter } = await signedIn()
    const { resolve } = await browser.fetch("/")
    expect(resolve).toHaveBeenCalledTimes(1)
    expect(counter.calls).toBe(0)
  })

  it("reads a session callback's empty object as no session, as Auth.js does", async () => {
    const { browser } = await signedIn({ callbacks: { session: () => ({}) as never } })
    let session: unknown = "unread"
    await browser.fetch("/", {}, async (event) => {
      session = await event.locals.auth()
    })
    expect(session).toBeNull()
  })

  it("reads an invalid cookie as no session", async () => {
    const { handle } = SvelteKitAuth(testConfig())
    const browser = new Browser(handle)
    browser.cookies.set(SESSION_COOKIE, "not-a-jwe")
    let session: unknown = "unset"
    const { event } = await browser.fetch("/", {}, async (event) => {
      session = await event.locals.auth()
    })
    expect(session).toBeNull()
    expect(sessionWrites(event).every((write) => write.value === "")).toBe(true)
  })
})

describe("handle: during build and prerender", () => {
  afterEach(() => setBuilding(false))

  it("resolves locals.auth() to null and runs no auth code", async () => {
    const { browser, counter } = await signedIn()
    setBuilding(true)
    let session: unknown = "unset"
    const page = await browser.fetch("/", {}, async (event) => {
      session = await event.locals.auth()
    })
    expect(session).toBeNull()
    expect(page.resolve).toHaveBeenCalledTimes(1)
    expect(await page.event.locals.getSession()).toBeNull()
    // Even an auth path goes to resolve: Auth is not called.
    const auth = await browser.fetch("/auth/session")
    expect(auth.resolve).toHaveBeenCalledTimes(1)
    expect(await auth.response.text()).toBe("page")
    expect(counter.calls).toBe(0)
  })
})

describe("handle: CSRF on POSTs to the actions", () => {
  it("accepts a same-origin POST (Origin) without a token", async () => {
    const { browser } = await signedIn()
    const { response, resolve } = await browser.fetch("/auth/signout", {
      method: "POST",
      headers: { origin: ORIGIN },
      form: {},
    })
    expect(resolve).not.toHaveBeenCalled()
    expect(response.status).toBe(302)
    expect(deletesSession(response)).toBe(true)
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false)
  })

  it("accepts Sec-Fetch-Site: same-origin without Origin and without a token", async () => {
    const { browser } = await signedIn()
    const { response } = await browser.fetch("/auth/signout", {
      method: "POST",
      headers: { "sec-fetch-site": "same-origin" },
      form: {},
    })
    expect(response.status).toBe(302)
    expect(deletesSession(response)).toBe(true)
  })

  it("refuses a cross-site POST without a token with 403 JSON", async () => {
    const { browser } = await signedIn()
    const { response, resolve } = await browser.fetch("/auth/signout", {
      method: "POST",
      headers: { origin: "https://evil.example" },
      form: {},
    })
    expect(resolve).not.toHaveBeenCalled()
    expect(response.status).toBe(403)
    expect(response.headers.get("content-type")).toContain("application/json")
    expect(await response.json()).toMatchObject({ error: expect.any(String) })
    expect(setCookies(response)).toHaveLength(0)
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true)
  })

  it("refuses Sec-Fetch-Site: cross-site without a token", async () => {
    const { browser } = await signedIn()
    const { response } = await browser.fetch("/auth/signout", {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site" },
      form: {},
    })
    expect(response.status).toBe(403)
  })

  it("does not let Sec-Fetch-Site: same-origin override a foreign Origin", async () => {
    const { browser } = await signedIn()
    const { response } = await browser.fetch("/auth/signout", {
      method: "POST",
      headers: { origin: "https://evil.example", "sec-fetch-site": "same-origin" },
      form: {},
    })
    expect(response.status).toBe(403)
  })

  it("refuses a cross-site credentials sign-in without a token (login CSRF)", async () => {
    const { handle } = SvelteKitAuth(testConfig())
    const browser = new Browser(handle)
    const { response } = await browser.fetch("/auth/callback/credentials", {
      headers: { origin: "https://evil.example" },
      form: { username: "alice", password: "wonderland" },
    })
    expect(response.status).toBe(403)
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false)
  })

  it("refuses a cross-site session update without a token", async () => {
    const { browser } = await signedIn()
    const { response } = await browser.fetch("/auth/session", {
      headers: { origin: "https://evil.example" },
      json: { data: { name: "Mallory" } },
    })
    expect(response.status).toBe(403)
  })

  it("accepts a cross-site POST with a valid double-submit token", async () => {
    const { browser } = await signedIn()
    const csrfToken = await browser.csrfToken()
    const { response } = await browser.fetch("/auth/signout", {
      headers: { origin: "https://evil.example" },
      form: { csrfToken },
    })
    expect(response.status).toBe(302)
    expect(deletesSession(response)).toBe(true)
  })

  it("accepts a cross-site session update (JSON) with a valid token", async () => {
    const { browser } = await signedIn()
    const csrfToken = await browser.csrfToken()
    const { response } = await browser.fetch("/auth/session", {
      headers: { origin: "https://evil.example" },
      json: { csrfToken, data: {} },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ user: { name: "Alice" } })
  })

  it("answers a cross-site POST with a wrong token with MissingCSRF, session untouched", async () => {
    const { browser } = await signedIn()
    await browser.csrfToken()
    const { response } = await browser.fetch("/auth/signout", {
      headers: { origin: "https://evil.example" },
      form: { csrfToken: "0".repeat(64) },
    })
    expect(response.status).not.toBe(403)
    const location = response.headers.get("location") ?? ""
    const text = location || (await response.text())
    expect(text).toContain("MissingCSRF")
    expect(deletesSession(response)).toBe(false)
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true)
    let session: unknown
    await browser.fetch("/", {}, async (event) => {
      session = await event.locals.auth()
    })
    expect(session).toMatchObject({ user: { name: "Alice" } })
  })
})

describe("handle: paths", () => {
  afterEach(() => setBase(""))

  async function providersAt(handle: ReturnType<typeof SvelteKitAuth>["handle"], path: string) {
    const event = createEvent(path)
    const resolve = createResolve()
    const response = await handle({ event, resolve })
    return { response, resolve }
  }

  /** Actions answered at `authBase` (= paths.base + basePath), and not at `notAt`. */
  async function expectActionsAt(basePath: string | undefined, authBase: string, notAt: string[]) {
    const { handle } = SvelteKitAuth(testConfig(basePath ? { basePath } : {}))
    const { response, resolve } = await providersAt(handle, `${authBase}/providers`)
    expect(resolve).not.toHaveBeenCalled()
    expect(response.status).toBe(200)
    const providers = (await response.json()) as Record<
      string,
      { signinUrl: string; callbackUrl: string }
    >
    expect(providers.credentials).toMatchObject({
      signinUrl: `${ORIGIN}${authBase}/signin/credentials`,
      callbackUrl: `${ORIGIN}${authBase}/callback/credentials`,
    })
    for (const path of notAt) {
      const other = await providersAt(handle, `${path}/providers`)
      expect(other.resolve, path).toHaveBeenCalledTimes(1)
      expect(await other.response.text()).toBe("page")
    }
    // A whole sign-in works at the new place, and locals.auth() sees it.
    const browser = new Browser(handle)
    const signIn = await browser.signIn(authBase)
    expect(signIn.response.status).toBe(302)
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true)
    let session: unknown
    await browser.fetch("/app/page", {}, async (event) => {
      session = await event.locals.auth()
    })
    expect(session).toMatchObject({ user: { name: "Alice" } })
    const sessionResponse = await browser.fetch(`${authBase}/session`)
    expect(await sessionResponse.response.json()).toMatchObject({ user: { name: "Alice" } })
  }

  it("honours a custom basePath alone", async () => {
    await expectActionsAt("/api/auth", "/api/auth", ["/auth", "/api/authx"])
  })

  it("honours paths.base alone", async () => {
    setBase("/app")
    await expectActionsAt(undefined, "/app/auth", ["/auth", "/app/authx"])
  })

  it("honours paths.base and a custom basePath combined", async () => {
    setBase("/app")
    await expectActionsAt("/api/auth", "/app/api/auth", ["/auth", "/api/auth", "/app/auth"])
  })

  it("renders the sign-in page with actions under the full path", async () => {
    setBase("/app")
    const { handle } = SvelteKitAuth(testConfig({ basePath: "/api/auth" }))
    const browser = new Browser(handle)
    const { response } = await browser.fetch("/app/api/auth/signin", {})
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain("/app/api/auth/callback/credentials")
    expect(html).not.toMatch(/action="\/auth\//)
  })
})

describe("handle: configuration", () => {
  const saved = { ...env }
  beforeEach(() => {
    delete env.AUTH_URL
  })
  afterEach(() => {
    for (const key of Object.keys(env)) delete env[key]
    Object.assign(env, saved)
  })

  it("answers a configuration error (500) with AUTH_TRUST_HOST=false and no AUTH_URL", async () => {
    env.AUTH_TRUST_HOST = "false"
    const { handle } = SvelteKitAuth(testConfig())
    const event = createEvent("/auth/session")
    const response = await handle({ event, resolve: createResolve() })
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ error: "Configuration" })
    // A page asking who is signed in gets "nobody", not a crash.
    const page = createEvent("/")
    await handle({ event: page, resolve: createResolve() })
    await expect(page.locals.auth()).resolves.toBeNull()
  })

  it("treats AUTH_TRUST_HOST=0 as false too", async () => {
    env.AUTH_TRUST_HOST = "0"
    const { handle } = SvelteKitAuth(testConfig())
    const response = await handle({ event: createEvent("/auth/session"), resolve: createResolve() })
    expect(response.status).toBe(500)
  })

  // AUTH_URL is read from $env/dynamic/private like every other AUTH_* variable (in dev and on
  // platforms like Cloudflare it is not in process.env).
  it("works with AUTH_TRUST_HOST=false when AUTH_URL (in $env) names the origin", async () => {
    env.AUTH_TRUST_HOST = "false"
    env.AUTH_URL = "https://app.example"
    const { handle } = SvelteKitAuth(testConfig())
    const response = await handle({
      event: createEvent("/auth/providers"),
      resolve: createResolve(),
    })
    expect(response.status).toBe(200)
    const providers = (await response.json()) as Record<string, { signinUrl: string }>
    expect(providers.credentials!.signinUrl).toBe("https://app.example/auth/signin/credentials")
  })

  it("builds absolute URLs on AUTH_URL from $env/dynamic/private", async () => {
    env.AUTH_URL = "https://app.example"
    const { handle } = SvelteKitAuth(testConfig())
    const response = await handle({
      event: createEvent("/auth/providers"),
      resolve: createResolve(),
    })
    const providers = (await response.json()) as Record<string, { callbackUrl: string }>
    expect(providers.credentials!.callbackUrl).toBe("https://app.example/auth/callback/credentials")
  })

  it("answers under AUTH_URL's path when basePath is not set", async () => {
    env.AUTH_URL = "https://app.example/api/auth"
    const { handle } = SvelteKitAuth(testConfig())
    const browser = new Browser(handle)
    const providers = await browser.fetch("/api/auth/providers")
    expect(providers.resolve).not.toHaveBeenCalled()
    expect(await providers.response.json()).toMatchObject({
      credentials: { callbackUrl: "https://app.example/api/auth/callback/credentials" },
    })
    const elsewhere = await browser.fetch("/auth/providers")
    expect(elsewhere.resolve).toHaveBeenCalledTimes(1)
    const { response } = await browser.signIn("/api/auth")
    expect(response.status).toBe(302)
    let session: unknown
    await browser.fetch("/", {}, async (event) => {
      session = await event.locals.auth()
    })
    expect(session).toMatchObject({ user: { name: "Alice" } })
  })

  it("takes AUTH_URL's path whole, paths.base included; a set basePath wins", async () => {
    setBase("/app")
    try {
      env.AUTH_URL = "https://app.example/app/api/auth/"
      const fromEnv = SvelteKitAuth(testConfig()).handle
      const at = async (handle: typeof fromEnv, path: string) => {
        const resolve = createResolve()
        const response = await handle({ event: createEvent(path), resolve })
        return resolve.mock.calls.length ? "page" : response.status
      }
      expect(await at(fromEnv, "/app/api/auth/providers")).toBe(200)
      expect(await at(fromEnv, "/app/auth/providers")).toBe("page")
      const configured = SvelteKitAuth(testConfig({ basePath: "/login" })).handle
      expect(await at(configured, "/app/login/providers")).toBe(200)
      expect(await at(configured, "/app/api/auth/providers")).toBe("page")
      // An AUTH_URL without a path leaves the default: {paths.base}/auth.
      env.AUTH_URL = "https://app.example"
      expect(await at(SvelteKitAuth(testConfig()).handle, "/app/auth/providers")).toBe(200)
    } finally {
      setBase("")
    }
  })

  it("runs the form actions under AUTH_URL's path", async () => {
    env.AUTH_URL = "https://app.example/api/auth"
    const { signIn } = SvelteKitAuth(testConfig())
    const event = createEvent("/login", { form: {}, headers: { origin: ORIGIN } })
    const thrown = await signIn(event).catch((error: unknown) => error)
    expect(thrown).toMatchObject({ status: 303 })
    const location = new URL((thrown as { location: string }).location, ORIGIN)
    expect(location.pathname).toBe("/api/auth/signin")
  })

  it("lets trustHost: true in the configuration win over AUTH_TRUST_HOST=false", async () => {
    env.AUTH_TRUST_HOST = "false"
    const { handle } = SvelteKitAuth(testConfig({ trustHost: true }))
    const response = await handle({ event: createEvent("/auth/session"), resolve: createResolve() })
    expect(response.status).toBe(200)
  })

  it("normalizes a basePath without a leading or with a trailing slash", async () => {
    const { handle } = SvelteKitAuth(testConfig({ basePath: "api/auth/" }))
    const event = createEvent("/api/auth/session")
    const resolve = createResolve()
    const response = await handle({ event, resolve })
    expect(resolve).not.toHaveBeenCalled()
    expect(response.status).toBe(200)
  })

  it("takes the secret from AUTH_SECRET in $env/dynamic/private", async () => {
    const { secret: _secret, ...config } = testConfig()
    const { handle } = SvelteKitAuth(config)
    const browser = new Browser(handle)
    const { response } = await browser.signIn()
    expect(response.status).toBe(302)
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true)
  })

  it("accepts a lazy configuration: (event) => config", async () => {
    const config = testConfig()
    const factory = vi.fn((_event: unknown) => config)
    const { handle } = SvelteKitAuth(factory)
    const browser = new Browser(handle)
    const { response } = await browser.signIn()
    expect(response.status).toBe(302)
    expect(factory).toHaveBeenCalled()
    expect((factory.mock.calls[0]![0] as TestEvent).url.origin).toBe(ORIGIN)
    let session: unknown
    await browser.fetch("/", {}, async (event) => {
      session = await event.locals.auth()
    })
    expect(session).toMatchObject({ user: { name: "Alice" } })
  })

  it("accepts an async lazy configuration: async (event) => config", async () => {
    const config = testConfig()
    const { handle } = SvelteKitAuth(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1))
      return config
    })
    const browser = new Browser(handle)
    const { response } = await browser.signIn()
    expect(response.status).toBe(302)
    const providers = await browser.fetch("/auth/providers")
    expect(await providers.response.json()).toHaveProperty("credentials")
  })

  it("prepares a configuration object once, however many requests", async () => {
    const config = testConfig()
    let reads = 0
    const providers = config.providers
    Object.defineProperty(config, "providers", {
      enumerable: true,
      configurable: true,
      get() {
        reads++
        return providers
      },
    })
    const factory = vi.fn(() => config)
    const { handle } = SvelteKitAuth(factory)
    const browser = new Browser(handle)
    await browser.fetch("/auth/providers")
    const afterFirst = reads
    expect(afterFirst).toBeGreaterThan(0)
    await browser.signIn()
    await browser.fetch("/", {}, (event) => event.locals.auth())
    await browser.fetch("/auth/session")
    expect(factory.mock.calls.length).toBeGreaterThanOrEqual(4)
    expect(reads).toBe(afterFirst)
  })
})
