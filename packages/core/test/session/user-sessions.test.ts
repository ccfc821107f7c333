/**
 * Sessions users can manage: each database session has an id (not its token), the device it
 * signed in on (a user agent summary, the platform's client address) and when it was created
 * and last seen; a signed-in page lists them with its own marked `current`, ends one by id, or
 * every other one.
 */
import { describe, expect, it } from "vitest"
import { getUserSessions, revokeOtherSessions, revokeUserSession } from "../../src/index.js"
import { describeUserAgent } from "../../src/session/device.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { ALICE, Browser, ORIGIN, storedTokenOf, testConfig } from "../helpers/request.js"
import { sharedDatabase } from "../helpers/watched-adapter.js"

const SESSION = "authjs.session-token"
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
const SAFARI_IOS =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"

function setup() {
  const db = sharedDatabase()
  db.store.users.set(ALICE.id, { ...ALICE, emailVerified: null })
  db.store.users.set("bob", { id: "bob", email: "bob@example.com", emailVerified: null })
  const adapter = db.instance()
  const config = testConfig({ adapter, session: { strategy: "database" } })
  return { db, adapter, config }
}

/** Signs Alice in from a device. */
async function signInFrom(
  config: ReturnType<typeof setup>["config"],
  userAgent: string,
  address: string,
) {
  const browser = new Browser(config)
  browser.clientAddress = address
  const csrfToken = await browser.csrfToken()
  await browser.fetch("/auth/callback/credentials", {
    form: { csrfToken, username: "alice", password: "wonderland" },
    headers: { "user-agent": userAgent },
  })
  return browser
}

const requestOf = (browser: Browser) =>
  new Request(`${ORIGIN}/account`, { headers: { cookie: browser.cookieHeader() } })

describe("the signed-in user's sessions", () => {
  it("lists them with the device, the times and `current`, never a token", async () => {
    const { config } = setup()
    const laptop = await signInFrom(config, FIREFOX, "203.0.113.9")
    const phone = await signInFrom(config, SAFARI_IOS, "2001:db8::7")
    const sessions = (await getUserSessions(requestOf(laptop), config))!
    expect(sessions).toHaveLength(2)
    const current = sessions.find((s) => s.current)!
    expect(current).toMatchObject({ userAgent: "Firefox on Linux", clientAddress: "203.0.113.9" })
    expect(sessions.find((s) => !s.current)).toMatchObject({
      userAgent: "Safari on iOS",
      clientAddress: "2001:db8::7",
    })
    for (const session of sessions) {
      expect(session.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(session.createdAt).toBeInstanceOf(Date)
      expect(session.lastSeenAt).toBeInstanceOf(Date)
      expect(JSON.stringify(session)).not.toContain(laptop.cookies.get(SESSION))
      expect(JSON.stringify(session)).not.toContain(storedTokenOf(phone.cookies.get(SESSION)!))
    }
    expect((await getUserSessions(requestOf(phone), config))!.find((s) => s.current)).toMatchObject(
      {
        userAgent: "Safari on iOS",
      },
    )
  })

  it("records the platform's address and a summary, never what the client's headers claim", async () => {
    const { db, config } = setup()
    const browser = new Browser(config)
    browser.clientAddress = "203.0.113.9"
    const csrfToken = await browser.csrfToken()
    await browser.fetch("/auth/callback/credentials", {
      form: { csrfToken, username: "alice", password: "wonderland" },
      headers: {
        "x-forwarded-for": "198.51.100.66",
        forwarded: "for=198.51.100.67",
        "x-real-ip": "198.51.100.68",
        "user-agent": `<img src=x onerror=alert(1)> ${"A".repeat(20_000)}`,
      },
    })
    const [stored] = [...db.store.sessions.values()]
    expect(stored).toMatchObject({ clientAddress: "203.0.113.9", userAgent: null })
    const [listed] = (await getUserSessions(requestOf(browser), config))!
    expect(listed).toMatchObject({ clientAddress: "203.0.113.9", userAgent: null })
  })

  it("keeps the id and device fields out of the session the client reads", async () => {
    const { config } = setup()
    const laptop = await signInFrom(config, FIREFOX, "203.0.113.9")
    const session = await laptop.session()
    expect(Object.keys(session!).sort()).toEqual(["expires", "user"])
  })

  it("is null without a session", async () => {
    const { config } = setup()
    expect(await getUserSessions(new Request(`${ORIGIN}/account`), config)).toBeNull()
    expect(await revokeOtherSessions(new Request(`${ORIGIN}/account`), config)).toBe(0)
  })

  it("ends one of them by id, and only the user's own", async () => {
    const { db, config } = setup()
    const laptop = await signInFrom(config, FIREFOX, "203.0.113.9")
    const phone = await signInFrom(config, SAFARI_IOS, "203.0.113.10")
    const bobs = db.store.sessions.size
    db.store.sessions.set("bob-session", {
      sessionToken: "bob-session",
      id: "bob-session-id",
      userId: "bob",
      expires: new Date(Date.now() + 3600_000),
    })
    const phoneId = (await getUserSessions(requestOf(phone), config))!.find((s) => s.current)!.id
    // Someone else's id: nothing happens.
    expect(await revokeUserSession(requestOf(laptop), config, "bob-session-id")).toBe(false)
    expect(db.store.sessions.size).toBe(bobs + 1)
    expect(await revokeUserSession(requestOf(laptop), config, phoneId)).toBe(true)
    expect(
      await new Browser(config)
        .fetch("/auth/session", {
          headers: { cookie: phone.cookieHeader() },
        })
        .then((r) => r.json()),
    ).toBeNull()
    expect(await laptop.session()).not.toBeNull()
    expect(await revokeUserSession(requestOf(laptop), config, phoneId)).toBe(false)
  })

  it("lists rows written before hashing under their hash first, so a shown id still ends its session", async () => {
    // Two sessions of Alice stored under their tokens themselves (by an earlier version, or by
    // Auth.js), with the ids the upgrade gave them.
    const { db, config } = setup()
    const expires = new Date(Date.now() + 3600_000)
    for (const [token, id] of [
      ["laptop-token-written-before", "laptop-id"],
      ["phone-token-written-before", "phone-id"],
    ] as const) {
      db.store.sessions.set(token, { sessionToken: token, id, userId: ALICE.id, expires })
    }
    const laptop = new Browser(config)
    laptop.cookies.set(SESSION, "laptop-token-written-before")
    const phone = new Browser(config)
    phone.cookies.set(SESSION, "phone-token-written-before")

    const listed = (await getUserSessions(requestOf(laptop), config))!
    expect(listed).toHaveLength(2)
    // Every row is under its hash now: no token the table holds works as a cookie.
    expect([...db.store.sessions.keys()].sort()).toEqual(
      [
        storedTokenOf("laptop-token-written-before"),
        storedTokenOf("phone-token-written-before"),
      ].sort(),
    )
    const phoneId = listed.find((s) => !s.current)!.id
    // The phone's first request since: still signed in, under the same id.
    expect(await phone.session()).not.toBeNull()
    expect((await getUserSessions(requestOf(phone), config))!.find((s) => s.current)!.id).toBe(
      phoneId,
    )
    // The id the laptop was shown ends the phone's session.
    expect(await revokeUserSession(requestOf(laptop), config, phoneId)).toBe(true)
    expect(await phone.session()).toBeNull()
    expect(await laptop.session()).not.toBeNull()
  })

  it("ends every other one, keeping the request's", async () => {
    const { config } = setup()
    const laptop = await signInFrom(config, FIREFOX, "203.0.113.9")
    const others = [
      await signInFrom(config, SAFARI_IOS, "203.0.113.10"),
      await signInFrom(config, FIREFOX, "203.0.113.11"),
    ]
    expect(await revokeOtherSessions(requestOf(laptop), config)).toBe(2)
    expect(await laptop.session()).not.toBeNull()
    for (const other of others) expect(await other.session()).toBeNull()
    expect((await getUserSessions(requestOf(laptop), config))!).toHaveLength(1)
  })

  it("needs an adapter with the session fields, and says so", async () => {
    const adapter = memoryAdapter()
    adapter.users.set(ALICE.id, { ...ALICE, emailVerified: null })
    const config = testConfig({ adapter, session: { strategy: "database" } })
    const browser = new Browser(config)
    await browser.signIn()
    await expect(getUserSessions(requestOf(browser), config)).rejects.toThrow(/deleteSessionById/)
    // Nothing of Latch's session fields reaches an adapter that did not ask for them.
    expect(Object.keys([...adapter.sessions.values()][0]!).sort()).toEqual([
      "expires",
      "sessionToken",
      "userId",
    ])
  })
})

describe("describeUserAgent", () => {
  it.each([
    [FIREFOX, "Firefox on Linux"],
    [SAFARI_IOS, "Safari on iOS"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "Edge on Windows",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      "Chrome on macOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
      "Chrome on Linux",
    ],
    ["curl/8.5.0", null],
    ["", null],
    [`<script>alert(1)</script> Firefox/1 ${"x".repeat(10_000)}`, "Firefox"],
  ])("%s → %s", (header, expected) => {
    expect(describeUserAgent(header)).toBe(expected)
  })
})
