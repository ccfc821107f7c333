/**
 * The database strategy's session cache (`session.cache`): a known session costs no database
 * read, and a session ended or changed on one instance — or by hand in the database — is refused
 * or re-read on every other at once; a watcher that may have missed a change stops the cache
 * until it listens again, and then it starts empty.
 *
 * Instances are adapter objects over one in-memory database that reports its changes
 * (helpers/watched-adapter.ts); `@latch/pg-adapter`'s tests run the same against PostgreSQL.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { closeSessionCache, revokeSessions, sessionCacheStatus } from "../../src/index.js"
import { existingSessionCache } from "../../src/session/cache.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { ALICE, Browser, storedTokenOf, testConfig } from "../helpers/request.js"
import {
  sharedDatabase,
  type SharedDatabase,
  type WatchedAdapter,
} from "../helpers/watched-adapter.js"

const SESSION = "authjs.session-token"
const DAY = 24 * 60 * 60
const opened: WatchedAdapter[] = []

afterEach(async () => {
  vi.useRealTimers()
  await Promise.all(opened.splice(0).map((adapter) => closeSessionCache(adapter)))
})

/** One instance of the app on the shared database. */
function instance(db: SharedDatabase, session: AuthConfig["session"] = {}) {
  const adapter = db.instance()
  opened.push(adapter)
  const config = testConfig({ adapter, session: { strategy: "database", cache: true, ...session } })
  return { adapter, config }
}

function setup(session: AuthConfig["session"] = {}) {
  const db = sharedDatabase()
  db.store.users.set(ALICE.id, { ...ALICE, emailVerified: null })
  return { db, a: instance(db, session), b: instance(db, session) }
}

/** The same browser as seen by another instance (a load balancer between them). */
function sameBrowserOn(browser: Browser, config: AuthConfig): Browser {
  const other = new Browser(config)
  other.cookies = browser.cookies
  return other
}

/** Lets the watcher's `live(true)` arrive (it is sent on a microtask). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe("session cache", () => {
  it("reads a known session without a database read", async () => {
    const { db, a } = setup()
    const browser = new Browser(a.config)
    await browser.signIn()
    await browser.session()
    await settle()
    db.reads.length = 0
    for (let i = 0; i < 5; i++) {
      expect(await browser.session()).toMatchObject({ user: { email: ALICE.email } })
    }
    // The first read fills the cache; the four after it read nothing.
    expect(db.reads).toHaveLength(1)
    expect(existingSessionCache(a.adapter)?.size).toBe(1)
  })

  it("tells its state through sessionCacheStatus: serving, entries, hits and misses", async () => {
    const { a } = setup()
    // No request has used the adapter yet: no cache.
    expect(sessionCacheStatus(a.adapter)).toBeUndefined()
    const browser = new Browser(a.config)
    await browser.signIn()
    await browser.session()
    await settle()
    const before = sessionCacheStatus(a.adapter)!
    expect(before.serving).toBe(true)
    for (let i = 0; i < 3; i++) await browser.session()
    const after = sessionCacheStatus(a.adapter)!
    // The first of them fills the cache (a miss), the others are hits.
    expect(after.hits - before.hits).toBe(2)
    expect(after.misses - before.misses).toBe(1)
    expect(after.entries).toBe(1)
    await closeSessionCache(a.adapter)
    // Closed: no cache any more (the next request would start a new one).
    expect(sessionCacheStatus(a.adapter)).toBeUndefined()
  })

  it("refuses on another instance, at once, a session signed out on one", async () => {
    const { db, a, b } = setup()
    const onA = new Browser(a.config)
    await onA.signIn()
    const token = onA.cookies.get(SESSION)!
    const onB = sameBrowserOn(onA, b.config)
    await onB.session()
    await settle()
    expect(await onB.session()).not.toBeNull()
    db.reads.length = 0
    expect(await onB.session()).not.toBeNull()
    expect(db.reads).toEqual([])

    const csrfToken = await onA.csrfToken()
    await onA.fetch("/auth/signout", { form: { csrfToken } })
    db.reads.length = 0
    // B still holds the cookie (another tab's copy of it): refused, after a database read.
    const stale = new Browser(b.config)
    stale.cookies.set(SESSION, token)
    expect(await stale.session()).toBeNull()
    // Its hash, then the token itself (a row written before hashing would be under it).
    expect(db.reads).toEqual([storedTokenOf(token), token])
  })

  it("shows on every instance, at once, a user changed on one", async () => {
    const { a, b } = setup()
    const onA = new Browser(a.config)
    await onA.signIn()
    const onB = sameBrowserOn(onA, b.config)
    await onB.session()
    await settle()
    await onB.session()
    await a.adapter.updateUser({ id: ALICE.id, name: "Alice Liddell" })
    expect((await onB.session())?.user?.name).toBe("Alice Liddell")
  })

  it("refuses everywhere sessions revoked with revokeSessions, or deleted by hand", async () => {
    const { db, a, b } = setup()
    const first = new Browser(a.config)
    await first.signIn()
    const second = new Browser(a.config)
    await second.signIn()
    for (const browser of [first, second]) {
      await sameBrowserOn(browser, b.config).session()
      await settle()
      await sameBrowserOn(browser, b.config).session()
    }
    expect(await revokeSessions(a.config, ALICE.id)).toBe(2)
    expect(await sameBrowserOn(first, b.config).session()).toBeNull()
    expect(await sameBrowserOn(second, b.config).session()).toBeNull()

    // An admin deletes a row by hand; the database's trigger reports it.
    const third = new Browser(a.config)
    await third.signIn()
    await sameBrowserOn(third, b.config).session()
    await sameBrowserOn(third, b.config).session()
    const key = storedTokenOf(third.cookies.get(SESSION)!)
    db.store.sessions.delete(key)
    db.notify({ sessionToken: key })
    expect(await sameBrowserOn(third, b.config).session()).toBeNull()
  })

  it("stops trusting the cache while the watcher may miss changes, and starts empty after", async () => {
    const { db, a, b } = setup()
    const onA = new Browser(a.config)
    await onA.signIn()
    const onB = sameBrowserOn(onA, b.config)
    await onB.session()
    await settle()
    await onB.session()
    expect(existingSessionCache(b.adapter)?.size).toBe(1)

    // The connection drops: the watchers hear it, and a change made meanwhile is lost.
    db.setLive(false)
    db.deliver = false
    db.reads.length = 0
    expect(await onB.session()).not.toBeNull()
    expect(await onB.session()).not.toBeNull()
    expect(db.reads).toHaveLength(2)
    await a.adapter.updateUser({ id: ALICE.id, name: "Changed while nobody listened" })
    expect((await onB.session())?.user?.name).toBe("Changed while nobody listened")
    const csrfToken = await onA.csrfToken()
    await onA.fetch("/auth/signout", { form: { csrfToken } })

    // Listening again: nothing from before is served.
    db.deliver = true
    db.setLive(true)
    const stale = new Browser(b.config)
    stale.cookies.set(SESSION, onB.cookies.get(SESSION) ?? "")
    expect(await stale.session()).toBeNull()
  })

  it("does not keep a read that a change overtook", async () => {
    const { db, a, b } = setup()
    const onA = new Browser(a.config)
    await onA.signIn()
    const onB = sameBrowserOn(onA, b.config)
    await onB.session()
    await settle()
    // B's next read is slow; the user changes while it is in flight.
    const read = b.adapter.getSessionAndUser.bind(b.adapter)
    let release!: () => void
    let entered!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const inFlight = new Promise<void>((resolve) => (entered = resolve))
    b.adapter.getSessionAndUser = async (token) => {
      const found = await read(token)
      entered()
      await gate
      return found
    }
    const slow = onB.session()
    await inFlight
    await a.adapter.updateUser({ id: ALICE.id, name: "Renamed meanwhile" })
    release()
    expect((await slow)?.user?.name).toBe(ALICE.name)
    b.adapter.getSessionAndUser = read
    db.reads.length = 0
    // Not cached: read again, and right.
    expect((await onB.session())?.user?.name).toBe("Renamed meanwhile")
    expect(db.reads).toHaveLength(1)
  })

  it("reads a session again after maxAge, and never serves it past its expiry", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const { db, a } = setup({ cache: { maxAge: 30 }, maxAge: 3600, updateAge: 3600 })
    const browser = new Browser(a.config)
    await browser.signIn()
    await browser.session()
    await settle()
    await browser.session()
    db.reads.length = 0
    await browser.session()
    expect(db.reads).toHaveLength(0)
    vi.setSystemTime(Date.now() + 31_000)
    await browser.session()
    expect(db.reads).toHaveLength(1)
    await browser.session()
    expect(db.reads).toHaveLength(1)
    vi.setSystemTime(Date.now() + 3600_000)
    expect(await browser.session()).toBeNull()
  })

  it("keeps at most maxEntries sessions, the oldest leaving first", async () => {
    const { a } = setup({ cache: { maxEntries: 2 } })
    const browsers = [new Browser(a.config), new Browser(a.config), new Browser(a.config)]
    for (const browser of browsers) await browser.signIn()
    await browsers[0]!.session()
    await settle()
    for (const browser of browsers) await browser.session()
    expect(existingSessionCache(a.adapter)?.size).toBe(2)
  })

  it("still pushes the expiry once per updateAge, not per request and not never", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const { db, a, b } = setup({ updateAge: DAY })
    const updates: string[] = []
    for (const { adapter } of [a, b]) {
      const update = adapter.updateSession.bind(adapter)
      adapter.updateSession = (session) => {
        updates.push(session.sessionToken)
        return update(session)
      }
    }
    const onA = new Browser(a.config)
    await onA.signIn()
    const onB = sameBrowserOn(onA, b.config)
    await settle()
    for (let i = 0; i < 10; i++) await (i % 2 ? onA : onB).session()
    expect(updates).toHaveLength(0)
    vi.setSystemTime(Date.now() + DAY * 1000 + 1000)
    for (let i = 0; i < 10; i++) await (i % 2 ? onA : onB).session()
    expect(updates).toHaveLength(1)
    const key = storedTokenOf(onA.cookies.get(SESSION)!)
    expect(db.store.sessions.get(key)!.expires.getTime()).toBeGreaterThan(
      Date.now() + 29 * DAY * 1000,
    )
  })

  it("needs an adapter that reports changes, and says so", async () => {
    const adapter = memoryAdapter()
    const error = vi.fn()
    const config = testConfig({
      adapter,
      session: { strategy: "database", cache: true },
      logger: { error, warn: () => {}, debug: () => {} },
    })
    const response = await new Browser(config).fetch("/auth/session")
    expect(response.status).toBe(500)
    expect(error.mock.calls[0]![0].message).toMatch(/watchSessions.*session\.cache/)
  })
})

describe("session cache: an adapter that cannot watch", () => {
  it("reads from the database, tries again every second, and logs one failure once", async () => {
    const db = sharedDatabase()
    db.store.users.set(ALICE.id, { ...ALICE, emailVerified: null })
    const adapter = db.instance()
    let attempts = 0
    adapter.watchSessions = () => {
      attempts++
      throw new Error("cannot listen on a plain client")
    }
    const error = vi.fn()
    const config = testConfig({
      adapter,
      session: { strategy: "database", cache: true },
      logger: { error, warn: () => {}, debug: () => {} },
    })
    const browser = new Browser(config)
    await browser.signIn()
    vi.useFakeTimers({ toFake: ["Date"] })
    for (let i = 0; i < 5; i++) {
      expect(await browser.session()).not.toBeNull()
      await settle()
      vi.setSystemTime(Date.now() + 1_100)
    }
    expect(attempts).toBeGreaterThanOrEqual(4)
    expect(error).toHaveBeenCalledTimes(1)
    await closeSessionCache(adapter)
  })
})
