/**
 * The cases of Latch's own session methods, for the adapters that have them: the session fields
 * (`id`, `userAgent`, `clientAddress`, `createdAt`, `lastSeenAt`) that an adapter implementing
 * `deleteSessionById` stores, per-session revocation scoped to its user, and `watchSessions`,
 * which the session cache trusts to report every change. An adapter without the method skips
 * the case (with vitest; other runners see it pass).
 */
import { randomBytes } from "node:crypto"
import type { SessionChange } from "@latch/core/adapters"
import type { DefineCase, Full } from "./case.js"
import { fromNow, newLatchSession, newUser, randomId } from "./fixtures.js"
import type { TestApi } from "./test-api.js"

const storedHash = () => randomBytes(32).toString("hex")

/** How long a reported change may take to arrive. */
const DELIVERY_TIMEOUT_MS = 5_000

/** Waits until `ready()`, polling; rejects with `what` after the delivery timeout. */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${DELIVERY_TIMEOUT_MS} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export function defineSessionFieldCases(t: TestApi, it: DefineCase): void {
  const { expect } = t
  const storesFields = (a: Full, skip: (why: string) => void) => {
    if (typeof a.deleteSessionById === "function") return true
    skip("the adapter does not implement deleteSessionById")
    return false
  }

  it("session fields round-trip through createSession, getSessionAndUser and listSessionsByUserId", async (a, skip) => {
    if (!storesFields(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    const session = newLatchSession(user.id)
    const bare = newLatchSession(user.id, { userAgent: null, clientAddress: null })
    expect(await a.createSession(session)).toEqual(session)
    expect(await a.createSession(bare)).toEqual(bare)

    const found = await a.getSessionAndUser(session.sessionToken)
    expect(found).toEqual({ session, user })
    expect(found!.session.createdAt).toBeInstanceOf(Date)
    expect((await a.getSessionAndUser(bare.sessionToken))!.session).toEqual(bare)

    const byId = (x: { id?: string }, y: { id?: string }) => (x.id! < y.id! ? -1 : 1)
    const listed = await a.listSessionsByUserId(user.id)
    expect([...listed].sort(byId)).toEqual([session, bare].sort(byId))
  })

  it("updateSession sets lastSeenAt and keeps the other fields", async (a, skip) => {
    if (!storesFields(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    const session = newLatchSession(user.id)
    await a.createSession(session)

    const lastSeenAt = fromNow(0)
    const seen = { ...session, lastSeenAt }
    const updated = await a.updateSession({ sessionToken: session.sessionToken, lastSeenAt })
    if (updated) expect(updated).toEqual(seen)
    expect((await a.getSessionAndUser(session.sessionToken))!.session).toEqual(seen)

    // Moving the expiry alone leaves lastSeenAt as it was.
    const expires = fromNow(60 * 24 * 3_600_000)
    await a.updateSession({ sessionToken: session.sessionToken, expires })
    expect(await a.listSessionsByUserId(user.id)).toEqual([{ ...seen, expires }])
  })

  it("deleteSessionById deletes the session of that user only", async (a, skip) => {
    if (!storesFields(a, skip)) return
    const user = newUser()
    const other = newUser()
    await a.createUser(user)
    await a.createUser(other)
    const target = newLatchSession(user.id)
    const kept = newLatchSession(user.id)
    const theirs = newLatchSession(other.id)
    for (const session of [target, kept, theirs]) await a.createSession(session)

    // Another user naming the session's id ends nothing.
    expect(await a.deleteSessionById(other.id, target.id!)).toBeNull()
    expect((await a.getSessionAndUser(target.sessionToken))!.session).toEqual(target)

    expect(await a.deleteSessionById(user.id, target.id!)).toEqual(target)
    expect(await a.getSessionAndUser(target.sessionToken)).toBeNull()
    expect(await a.listSessionsByUserId(user.id)).toEqual([kept])
    expect(await a.listSessionsByUserId(other.id)).toEqual([theirs])

    expect(await a.deleteSessionById(user.id, target.id!)).toBeNull()
    expect(await a.deleteSessionById(user.id, randomId("no-session"))).toBeNull()
  })

  it("watchSessions reports a deleteSession, and nothing after close", async (a, skip) => {
    if (typeof a.watchSessions !== "function") {
      skip("the adapter does not implement watchSessions")
      return
    }
    const user = newUser()
    await a.createUser(user)
    // Stored tokens as core stores them (SHA-256 in hex): a token of another shape is a cookie's
    // value, which an adapter whose changes travel over a shared channel names by its user.
    const session = newLatchSession(user.id, { sessionToken: storedHash() })
    const later = newLatchSession(user.id, { sessionToken: storedHash() })
    await a.createSession(session)
    await a.createSession(later)

    const changes: SessionChange[] = []
    let live = false
    const watch = await a.watchSessions({
      changed: (change) => changes.push(change),
      live: (value) => (live = value),
    })
    const mentions = (token: string) =>
      changes.some((change) => "sessionToken" in change && change.sessionToken === token)
    try {
      await until(() => live, "live(true)")
      await a.deleteSession(session.sessionToken)
      await until(() => mentions(session.sessionToken), "the deleteSession to be reported")
    } finally {
      await watch.close()
    }
    await a.deleteSession(later.sessionToken)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(mentions(later.sessionToken)).toBe(false)
  })
}
