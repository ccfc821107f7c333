/**
 * Session tokens at rest (`session.hashTokens`, the default): the database holds the SHA-256 of
 * each cookie's token. Someone who reads the `sessions` table gets no way in; rows that hold the
 * token itself (written before hashing, or by Auth.js) keep working and are moved under the hash
 * on their first read.
 */
import { describe, expect, it, vi } from "vitest"
import { getSession } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { ALICE, Browser, ORIGIN, storedTokenOf, testConfig } from "../helpers/request.js"

const SESSION = "authjs.session-token"
const inADay = () => new Date(Date.now() + 24 * 3600 * 1000)

function setup(session: AuthConfig["session"] = {}) {
  const adapter = memoryAdapter()
  adapter.users.set(ALICE.id, { ...ALICE, emailVerified: null })
  const signOut = vi.fn()
  const config = testConfig({
    adapter,
    session: { strategy: "database", ...session },
    events: { signOut },
  })
  return { adapter, config, signOut }
}

/** A request carrying `token` as its session cookie. */
const withCookie = (token: string) =>
  new Request(`${ORIGIN}/`, { headers: { cookie: `${SESSION}=${token}` } })

describe("session tokens at rest", () => {
  it("stores the SHA-256 of the token, which does not work as a cookie", async () => {
    const { adapter, config } = setup()
    const browser = new Browser(config)
    await browser.signIn()
    const token = browser.cookies.get(SESSION)!
    const [stored] = [...adapter.sessions.keys()]
    expect(stored).toBe(storedTokenOf(token))
    expect(stored).not.toContain(token)
    expect((await getSession(withCookie(token), config)).session).not.toBeNull()
    // The leaked table's attacker: the stored value sent as a cookie is hashed again.
    const { session, cookies } = await getSession(withCookie(stored!), config)
    expect(session).toBeNull()
    expect(cookies.some((cookie) => cookie.name === SESSION && cookie.value === "")).toBe(true)
    expect(adapter.sessions.has(stored!)).toBe(true)
  })

  it("never looks a hash-shaped cookie up as it is (a stolen hash is no way in)", async () => {
    const { adapter, config } = setup()
    const lookups: string[] = []
    const read = adapter.getSessionAndUser!.bind(adapter)
    adapter.getSessionAndUser = (token) => {
      lookups.push(token)
      return read(token)
    }
    const stolen = storedTokenOf("someone's token")
    adapter.sessions.set(stolen, { sessionToken: stolen, userId: ALICE.id, expires: inADay() })
    expect((await getSession(withCookie(stolen), config)).session).toBeNull()
    expect(lookups).toEqual([storedTokenOf(stolen)])
  })

  it("finds a row that holds the token itself, and moves it under the hash", async () => {
    const { adapter, config } = setup()
    // Pushed a minute ago (30 days is the default maxAge): not due for another push.
    const expires = new Date(Date.now() + 30 * 24 * 3600 * 1000 - 60_000)
    adapter.sessions.set("written-before", {
      sessionToken: "written-before",
      userId: ALICE.id,
      expires,
    })
    const { session, cookies } = await getSession(withCookie("written-before"), config)
    expect(session).toMatchObject({ user: { email: ALICE.email }, expires: expires.toISOString() })
    // The cookie stays as it was: the browser notices nothing.
    expect(cookies).toEqual([])
    expect([...adapter.sessions.keys()]).toEqual([storedTokenOf("written-before")])
    expect(adapter.sessions.get(storedTokenOf("written-before"))).toMatchObject({
      userId: ALICE.id,
      expires,
    })
    expect((await getSession(withCookie("written-before"), config)).session).not.toBeNull()
  })

  it("signs out a row that holds the token itself", async () => {
    const { adapter, config, signOut } = setup()
    adapter.sessions.set("written-before", {
      sessionToken: "written-before",
      userId: ALICE.id,
      expires: inADay(),
    })
    const browser = new Browser(config)
    browser.cookies.set(SESSION, "written-before")
    const csrfToken = await browser.csrfToken()
    await browser.fetch("/auth/signout", { form: { csrfToken } })
    expect(adapter.sessions.size).toBe(0)
    expect(signOut).toHaveBeenCalledWith({
      session: expect.objectContaining({ userId: ALICE.id }),
    })
  })

  it("of two requests moving one row at once, both read the session", async () => {
    const { adapter, config } = setup()
    adapter.sessions.set("raced", { sessionToken: "raced", userId: ALICE.id, expires: inADay() })
    const create = adapter.createSession!.bind(adapter)
    adapter.createSession = async (session) => {
      // A unique key, as a database enforces: the second insert of one hash fails.
      if (adapter.sessions.has(session.sessionToken)) throw new Error("duplicate key")
      await new Promise((resolve) => setTimeout(resolve, 5))
      if (adapter.sessions.has(session.sessionToken)) throw new Error("duplicate key")
      return create(session)
    }
    const [one, two] = await Promise.all([
      getSession(withCookie("raced"), config),
      getSession(withCookie("raced"), config),
    ])
    expect(one.session).not.toBeNull()
    expect(two.session).not.toBeNull()
    expect([...adapter.sessions.keys()]).toEqual([storedTokenOf("raced")])
  })

  it("stores the token itself with hashTokens: false (to go back to Auth.js)", async () => {
    const { adapter, config } = setup({ hashTokens: false })
    const browser = new Browser(config)
    await browser.signIn()
    expect([...adapter.sessions.keys()]).toEqual([browser.cookies.get(SESSION)])
  })
})
