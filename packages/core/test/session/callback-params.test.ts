/**
 * What the `jwt` and `session` callbacks get, and what the session JSON holds, as in Auth.js:
 * a database session's callback gets the stored session with the whole stored user (`expires` a
 * `Date`), and the client gets whatever the callback returns but the session token; a JWT
 * session's `jwt` callback gets `{ token, session }` on a read, and no `profile` on a
 * credentials sign-in. (`compat/runtime/test/callbacks.test.ts` runs the same apps on Auth.js.)
 */
import { afterEach, describe, expect, it } from "vitest"
import { closeSessionCache, getSession } from "../../src/index.js"
import type { AuthConfig, CallbacksOptions } from "../../src/types.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { ALICE, Browser, ORIGIN, testConfig } from "../helpers/request.js"
import { sharedDatabase, type WatchedAdapter } from "../helpers/watched-adapter.js"

type Params = Record<string, any>

/** Alice, stored with a column of the app's own. */
const STORED_ALICE = {
  ...ALICE,
  emailVerified: new Date("2026-01-02T03:04:05.000Z"),
  role: "admin",
}

function databaseApp(callbacks: Partial<CallbacksOptions> = {}, events: AuthConfig["events"] = {}) {
  const adapter = memoryAdapter()
  adapter.users.set(ALICE.id, { ...STORED_ALICE })
  const config = testConfig({ adapter, session: { strategy: "database" }, callbacks, events })
  return { adapter, config, browser: new Browser(config) }
}

/** A `session` callback that records what it gets and returns the whole stored session. */
function spreadingSession(seen: Params[]): CallbacksOptions["session"] {
  return (params) => {
    seen.push(params)
    const { session, user, trigger, newSession } = params as Params
    return {
      ...session,
      role: user.role,
      ...(trigger === "update" ? { theme: newSession.theme } : {}),
    }
  }
}

async function update(browser: Browser, data: unknown) {
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch("/auth/session", { json: { csrfToken, data } })
  return (await response.json()) as Params
}

const cached: WatchedAdapter[] = []
afterEach(async () => {
  await Promise.all(cached.splice(0).map((adapter) => closeSessionCache(adapter)))
})

describe("the session callback of a database session", () => {
  it("gets the stored session with the whole stored user, its expiry a Date", async () => {
    const seen: Params[] = []
    const { adapter, browser } = databaseApp({ session: spreadingSession(seen) })
    await browser.signIn()
    await browser.session()
    const [stored] = [...adapter.sessions.values()]
    expect(Object.keys(seen[0]!).sort()).toEqual(["newSession", "session", "user"])
    expect(seen[0]!.newSession).toBeUndefined()
    expect(seen[0]!.user).toEqual(STORED_ALICE)
    expect(seen[0]!.session).toEqual({ ...stored, user: STORED_ALICE })
    expect(seen[0]!.session.user.role).toBe("admin")
    expect(seen[0]!.session.expires).toBeInstanceOf(Date)
  })

  it("gets trigger update and the client's data on an update", async () => {
    const seen: Params[] = []
    const { browser } = databaseApp({ session: spreadingSession(seen) })
    await browser.signIn()
    const body = await update(browser, { theme: "dark" })
    expect(seen.at(-1)).toMatchObject({ trigger: "update", newSession: { theme: "dark" } })
    expect(body).toMatchObject({ theme: "dark", role: "admin" })
  })

  it("answers what the callback returns, as JSON, without the session token", async () => {
    const { browser, config } = databaseApp({ session: spreadingSession([]) })
    await browser.signIn()
    const body = await browser.session()
    expect(body).not.toHaveProperty("sessionToken")
    expect(body).toEqual({
      userId: ALICE.id,
      expires: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      role: "admin",
      user: { ...STORED_ALICE, emailVerified: "2026-01-02T03:04:05.000Z" },
    })
    // A page's read answers the same JSON.
    const request = new Request(`${ORIGIN}/`, { headers: { cookie: browser.cookieHeader() } })
    const { session } = await getSession(request, config)
    expect(session).toEqual(body)
  })

  it("answers name, email, image and the expiry string by default", async () => {
    const { browser } = databaseApp()
    await browser.signIn()
    const body = await browser.session()
    expect(body).toEqual({
      user: { name: ALICE.name, email: ALICE.email, image: ALICE.image },
      expires: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })
  })

  it("gives copies: a callback that changes the user changes no cached read", async () => {
    const db = sharedDatabase()
    db.store.users.set(ALICE.id, { ...STORED_ALICE })
    const adapter = db.instance()
    cached.push(adapter)
    const names: unknown[] = []
    const config = testConfig({
      adapter,
      session: { strategy: "database", cache: true },
      callbacks: {
        session: ({ session, user }) => {
          names.push(user.name)
          expect(session.user).toBe(user)
          user.name = "Mallory"
          return session
        },
      },
    })
    const browser = new Browser(config)
    await browser.signIn()
    await browser.session()
    await browser.session()
    expect(names).toEqual([ALICE.name, ALICE.name])
  })

  it("emits the session event with what the callback returned, and nothing else", async () => {
    const messages: Params[] = []
    const { browser } = databaseApp(
      { session: spreadingSession([]) },
      { session: (message) => void messages.push(message) },
    )
    await browser.signIn()
    await browser.session()
    expect(Object.keys(messages[0]!)).toEqual(["session"])
    expect(messages[0]!.session).toMatchObject({
      sessionToken: expect.any(String),
      expires: expect.any(Date),
      role: "admin",
    })
  })
})

describe("the jwt callback of a JWT session", () => {
  function jwtApp() {
    const seen: Params[] = []
    const config = testConfig({
      callbacks: {
        jwt: (params) => {
          seen.push(params)
          return params.trigger === "update"
            ? { ...params.token, theme: params.session.theme }
            : params.token
        },
      },
    })
    return { seen, browser: new Browser(config) }
  }

  it("gets user, account, isNewUser and trigger on a credentials sign-in, no profile", async () => {
    const { seen, browser } = jwtApp()
    await browser.signIn()
    expect(Object.keys(seen[0]!)).toEqual(["token", "user", "account", "isNewUser", "trigger"])
    expect(seen[0]).toMatchObject({ isNewUser: false, trigger: "signIn" })
  })

  it("gets { token, session } on a read, and trigger update with the data on an update", async () => {
    const { seen, browser } = jwtApp()
    await browser.signIn()
    await browser.session()
    expect(Object.keys(seen[1]!)).toEqual(["token", "session"])
    expect(seen[1]!.session).toBeUndefined()
    expect((await update(browser, { theme: "dark" })).user).toMatchObject({ name: ALICE.name })
    expect(Object.keys(seen[2]!).sort()).toEqual(["session", "token", "trigger"])
    expect(seen[2]).toMatchObject({ trigger: "update", session: { theme: "dark" } })
  })
})
