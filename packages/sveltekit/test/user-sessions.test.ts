/**
 * `getUserSessions(event)`, `revokeUserSession(event, id)` and `revokeOtherSessions(event)`: the
 * handle remembers the request's configuration, and the helpers act for the user whose session
 * cookie the request carries — never on another user's sessions. Core's tests cover the rest
 * (test/session/user-sessions.test.ts).
 */
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import {
  getUserSessions,
  revokeOtherSessions,
  revokeUserSession,
  SvelteKitAuth,
} from "../src/lib/index.js"
import { sharedDatabase } from "../../core/test/helpers/watched-adapter.js"
import { ALICE, testConfig } from "./helpers/config.js"
import { createEvent, createResolve, SESSION_COOKIE } from "./helpers/event.js"

const hash = (token: string) => createHash("sha256").update(token).digest("hex")

function setup() {
  const db = sharedDatabase()
  db.store.users.set(ALICE.id, { ...ALICE, emailVerified: null })
  db.store.users.set("bob", { id: "bob", email: "bob@example.com", emailVerified: null })
  const inAnHour = new Date(Date.now() + 3_600_000)
  for (const [token, id, userId] of [
    ["laptop-token", "laptop", ALICE.id],
    ["phone-token", "phone", ALICE.id],
    ["tablet-token", "tablet", ALICE.id],
    ["bob-token", "bob-session", "bob"],
  ] as const) {
    db.store.sessions.set(hash(token), {
      sessionToken: hash(token),
      id,
      userId,
      expires: inAnHour,
      userAgent: `${id} browser`,
    })
  }
  const { handle } = SvelteKitAuth(
    testConfig({ adapter: db.instance(), session: { strategy: "database" } }),
  )
  /** An event of the app carrying `token`, through the handle. */
  const event = async (token: string) => {
    const e = createEvent("/account", { cookies: { [SESSION_COOKIE]: token } })
    await handle({ event: e, resolve: createResolve() })
    return e
  }
  return { db, event }
}

describe("the signed-in user's sessions in SvelteKit", () => {
  it("lists them, the request's marked current", async () => {
    const { event } = setup()
    const sessions = (await getUserSessions(await event("laptop-token")))!
    expect(sessions.map((s) => [s.id, s.current, s.userAgent]).sort()).toEqual([
      ["laptop", true, "laptop browser"],
      ["phone", false, "phone browser"],
      ["tablet", false, "tablet browser"],
    ])
    expect(await getUserSessions(await event("no-such-token"))).toBeNull()
  })

  it("ends one of the user's own, never another user's", async () => {
    const { db, event } = setup()
    const laptop = await event("laptop-token")
    expect(await revokeUserSession(laptop, "bob-session")).toBe(false)
    expect(db.store.sessions.has(hash("bob-token"))).toBe(true)
    expect(await revokeUserSession(laptop, "phone")).toBe(true)
    expect(db.store.sessions.has(hash("phone-token"))).toBe(false)
    expect(await (await event("phone-token")).locals.auth()).toBeNull()
  })

  it("ends all the others, keeping the request's", async () => {
    const { db, event } = setup()
    expect(await revokeOtherSessions(await event("laptop-token"))).toBe(2)
    expect([...db.store.sessions.keys()].sort()).toEqual(
      [hash("bob-token"), hash("laptop-token")].sort(),
    )
    expect(await (await event("laptop-token")).locals.auth()).not.toBeNull()
  })

  it("needs the handle to have run for the request", async () => {
    await expect(getUserSessions(createEvent("/account"))).rejects.toThrow(/hooks\.server/)
  })
})
