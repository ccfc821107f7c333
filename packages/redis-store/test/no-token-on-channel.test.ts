/**
 * No session token that could be a cookie goes on the change channel, which every client of the
 * Redis can subscribe to: read here by such a client, a raw `SUBSCRIBE`. A change names a
 * session by its stored token only when that is a SHA-256 hash (`session.hashTokens`, on by
 * default); with `hashTokens: false`, or for a row written raw by Auth.js and moved under its
 * hash on first read, it names the session's user, or resets every cache — and the other
 * instance still refuses the revoked session at once.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { getSession, revokeSessions } from "../../core/src/index.js"
import { memoryAdapter, type MemoryAdapter } from "../../core/test/helpers/memory-adapter.js"
import { ALICE } from "../../core/test/helpers/request.js"
import {
  cluster,
  eavesdrop,
  readOn,
  refusedWithin,
  serving,
  signIn,
  signOut,
  until,
  withCookie,
  type Cluster,
  type Instance,
} from "./instances.js"
import { startRedis, type RedisServer } from "./redis-server.js"

/** How long a revocation may take to reach the other instance (as in two-instances.test.ts). */
const ARRIVAL_MS = 50
const CHANNEL = "latch:sessions"

let server: RedisServer
let apps: Cluster
let channel: Awaited<ReturnType<typeof eavesdrop>>

beforeAll(async () => {
  server = await startRedis()
  apps = cluster(server.url)
  const spy = await apps.instance(memoryAdapter())
  channel = await eavesdrop(apps.clients[0]!, spy.store.channel)
  expect(spy.store.channel).toBe(CHANNEL)
})

afterAll(async () => {
  channel?.close()
  await apps?.close()
  await server?.destroy()
})

beforeEach(() => {
  channel.payloads.length = 0
})

/** Fails when any payload heard on the channel holds one of `tokens`. */
function expectNoneOf(tokens: string[]) {
  expect(channel.changes().length).toBeGreaterThan(0)
  for (const payload of channel.payloads) {
    for (const token of tokens) expect(payload).not.toContain(token)
  }
}

async function withAlice(): Promise<MemoryAdapter> {
  const db = memoryAdapter()
  await db.createUser!({ ...ALICE, emailVerified: null })
  return db
}

/** A and B on one database, B's cache serving `token`. */
async function cachedOnB(b: Instance<any>, token: string) {
  expect(await readOn(b, token)).not.toBeNull()
  await until(() => serving(b), "b's cache to serve")
  await readOn(b, token)
  const before = b.reads()
  expect(await readOn(b, token)).not.toBeNull()
  expect(b.reads()).toBe(before)
}

describe("with hashTokens: false (the cookie's token is what is stored)", () => {
  const raw = { session: { strategy: "database" as const, hashTokens: false } }

  it("a sign-out publishes the session's user, never its token; B refuses it at once", async () => {
    const db = await withAlice()
    const a = await apps.instance(db, { config: raw })
    const b = await apps.instance(db, { config: raw })
    const [token, other] = [await signIn(a), await signIn(a)]
    expect(db.sessions.has(token)).toBe(true)
    await cachedOnB(b, token)
    await cachedOnB(b, other)

    const response = await signOut(a, token)
    expect(response.headers.get("location")).not.toMatch(/error=/)
    expect(await refusedWithin(b, token, ARRIVAL_MS)).toBeLessThanOrEqual(ARRIVAL_MS)
    expectNoneOf([token, other])
    expect(channel.changes()).toContain(JSON.stringify({ userId: ALICE.id }))
    // The user's other session is read again (evicted with the user), not refused.
    expect(await readOn(b, other)).not.toBeNull()
  })

  it("an expiry pushed and a sign-out everywhere publish no token", async () => {
    const db = await withAlice()
    const a = await apps.instance(db, { config: raw })
    const b = await apps.instance(db, { config: raw })
    const tokens = [await signIn(a), await signIn(a)]
    for (const token of tokens) await cachedOnB(b, token)
    // A read on A that pushes the expiry (updateAge 0: every read does).
    const pushing = { ...a.config, session: { ...a.config.session, updateAge: 0 } }
    expect((await getSession(withCookie(tokens[0]!), pushing)).session).not.toBeNull()
    await until(() => channel.changes().length > 0, "the expiry's change")
    expectNoneOf(tokens)

    expect(await revokeSessions(a.config, ALICE.id)).toBe(2)
    for (const token of tokens) {
      expect(await refusedWithin(b, token, ARRIVAL_MS)).toBeLessThanOrEqual(ARRIVAL_MS)
    }
    expectNoneOf(tokens)
  })

  it("with an adapter whose deleteSession returns nothing (as Auth.js allows), a reset goes out", async () => {
    const db = await withAlice()
    const silent = {
      ...db,
      async deleteSession(token: string) {
        await db.deleteSession!(token)
      },
    }
    const a = await apps.instance(silent, { config: raw })
    const b = await apps.instance(silent, { config: raw })
    const token = await signIn(a)
    await cachedOnB(b, token)
    await signOut(a, token)
    expect(await refusedWithin(b, token, ARRIVAL_MS)).toBeLessThanOrEqual(ARRIVAL_MS)
    expectNoneOf([token])
    expect(channel.changes()).toContain(JSON.stringify({ reset: true }))
  })
})

describe("with hashed tokens (the default)", () => {
  it("a sign-out publishes the stored hash, which is no cookie", async () => {
    const db = await withAlice()
    const a = await apps.instance(db)
    const b = await apps.instance(db)
    const token = await signIn(a)
    const [stored] = [...db.sessions.keys()]
    expect(stored).toMatch(/^[0-9a-f]{64}$/)
    await cachedOnB(b, token)
    await signOut(a, token)
    expect(await refusedWithin(b, token, ARRIVAL_MS)).toBeLessThanOrEqual(ARRIVAL_MS)
    expectNoneOf([token])
    expect(channel.changes()).toContain(JSON.stringify({ sessionToken: stored }))
  })

  it("a row Auth.js stored raw, moved under its hash on first read, never puts its token on the channel", async () => {
    const db = await withAlice()
    const a = await apps.instance(db)
    const b = await apps.instance(db)
    const legacy = [randomUUID(), randomUUID()]
    for (const sessionToken of legacy) {
      await db.createSession!({
        sessionToken,
        userId: ALICE.id,
        expires: new Date(Date.now() + 6e5),
      })
    }
    // The first read moves each row under its hash (a create, then a delete of the raw row).
    for (const token of legacy) expect(await readOn(a, token)).not.toBeNull()
    for (const token of legacy) expect(db.sessions.has(token)).toBe(false)
    await until(() => channel.changes().length >= 2, "the moves' changes")
    expectNoneOf(legacy)

    for (const token of legacy) await cachedOnB(b, token)
    await signOut(a, legacy[0]!)
    expect(await refusedWithin(b, legacy[0]!, ARRIVAL_MS)).toBeLessThanOrEqual(ARRIVAL_MS)
    expect(await readOn(b, legacy[1]!)).not.toBeNull()
    expectNoneOf(legacy)
  })

  it("store.publish of a token that is not a hash sends a reset instead", async () => {
    const db = await withAlice()
    const a = await apps.instance(db)
    const secret = randomUUID()
    await a.store.publish({ sessionToken: secret })
    await a.store.publish({ sessionToken: "A".repeat(64) })
    await until(() => channel.changes().length >= 2, "the two messages")
    expectNoneOf([secret, "A".repeat(64)])
    expect(channel.changes()).toEqual([
      JSON.stringify({ reset: true }),
      JSON.stringify({ reset: true }),
    ])
  })
})
