/**
 * The PostgreSQL triggers (`installSessionTriggers`) put no session token that could be a cookie
 * on the `NOTIFY` channel, which every role that can connect may `LISTEN` to: read here by such
 * a listener on PGlite. With `hashTokens: false`, and for a row Auth.js stored raw (moved under
 * its hash on its first read), a change names the session's user — and the other instance still
 * refuses the revoked session at once. Triggers installed by an earlier version are refused by
 * the watch until installed again.
 */
import { randomUUID } from "node:crypto"
import type { PGlite } from "@electric-sql/pglite"
import { sql } from "drizzle-orm"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getSession, revokeSessions, revokeUserSession } from "../../core/src/index.js"
import { getUserSessions } from "../../core/src/index.js"
import { closeSessionCache, existingSessionCache } from "../../core/src/session/cache.js"
import type { AuthConfig } from "../../core/src/types.js"
import { ALICE, Browser, ORIGIN, testConfig } from "../../core/test/helpers/request.js"
import { DrizzleAdapter, installSessionTriggers } from "../src/index.js"
import { createTables, openPGlite, type TestDatabase } from "./databases.js"

/**
 * How long a revocation may take to reach the other instance before the test calls it lost: a
 * bound for correctness (it arrives), not a measure of speed — bench/ measures the delay
 * (p99 of a few tens of milliseconds), and a loaded machine must not fail a correct run.
 */
const ARRIVAL_MS = 1_000

let database: TestDatabase
const payloads: string[] = []
let unlisten: () => Promise<void>
const adapters: ReturnType<typeof DrizzleAdapter>[] = []

beforeAll(async () => {
  database = await openPGlite()
  await createTables(database)
  await installSessionTriggers(database.db)
  const client = database.db.$client as PGlite
  unlisten = await client.listen("latch_sessions", (payload) => payloads.push(payload))
  await DrizzleAdapter(database.db).createUser!({ ...ALICE, emailVerified: null })
})

afterAll(async () => {
  for (const adapter of adapters) await closeSessionCache(adapter)
  await unlisten?.()
  await database?.close()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5_000) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(5)
  }
}

const heard = () => payloads.map((payload) => JSON.parse(payload) as Record<string, string>)

const withCookie = (token: string) =>
  new Request(`${ORIGIN}/`, { headers: { cookie: `authjs.session-token=${token}` } })

/** One instance of the app: its own adapter object, and so its own cache. */
function instance(session: Partial<AuthConfig["session"]> = {}) {
  const adapter = DrizzleAdapter(database.db)
  adapters.push(adapter)
  const config = testConfig({ adapter, session: { strategy: "database", cache: true, ...session } })
  return { adapter, config }
}
type Instance = ReturnType<typeof instance>

const readOn = async (on: Instance, token: string) =>
  (await getSession(withCookie(token), on.config)).session

async function signIn(on: Instance) {
  const browser = new Browser(on.config)
  await browser.signIn()
  return browser.cookies.get("authjs.session-token")!
}

async function signOut(on: Instance, token: string) {
  const browser = new Browser(on.config)
  browser.cookies.set("authjs.session-token", token)
  await browser.fetch("/auth/signout", { form: { csrfToken: await browser.csrfToken() } })
}

async function cached(on: Instance, token: string) {
  expect(await readOn(on, token)).not.toBeNull()
  await until(() => existingSessionCache(on.adapter)?.serving === true, "the cache to serve")
  await readOn(on, token)
}

async function refusedWithin(on: Instance, token: string) {
  const from = Date.now()
  await until(async () => (await readOn(on, token)) === null, "the refusal", ARRIVAL_MS)
  return Date.now() - from
}

function expectNoneOf(tokens: string[]) {
  expect(payloads.length).toBeGreaterThan(0)
  for (const payload of payloads) for (const token of tokens) expect(payload).not.toContain(token)
}

describe("the change channel of the PostgreSQL triggers", () => {
  it("with hashTokens: false, a sign-out, a revocation of one and a sign-out everywhere put the user on it, never a token", async () => {
    payloads.length = 0
    const raw = { hashTokens: false }
    const [a, b] = [instance(raw), instance(raw)]
    const tokens = [await signIn(a), await signIn(a), await signIn(a)]
    for (const token of tokens) await cached(b, token)

    await signOut(a, tokens[0]!)
    expect(await refusedWithin(b, tokens[0]!)).toBeLessThanOrEqual(ARRIVAL_MS)
    const listed = await getUserSessions(withCookie(tokens[1]!), a.config)
    const other = listed!.find((session) => !session.current)!
    expect(await revokeUserSession(withCookie(tokens[1]!), a.config, other.id)).toBe(true)
    expect(await refusedWithin(b, tokens[2]!)).toBeLessThanOrEqual(ARRIVAL_MS)
    await cached(b, tokens[1]!)
    expect(await revokeSessions(a.config, ALICE.id)).toBe(1)
    expect(await refusedWithin(b, tokens[1]!)).toBeLessThanOrEqual(ARRIVAL_MS)

    expectNoneOf(tokens)
    expect(heard()).toContainEqual({ userId: ALICE.id })
  })

  it("a row Auth.js stored raw is moved under its hash with its user on the channel, and its hash after", async () => {
    payloads.length = 0
    const [a, b] = [instance(), instance()]
    const legacy = randomUUID()
    await database.db.execute(
      sql`insert into "session" ("sessionToken", "userId", "expires")
          values (${legacy}, ${ALICE.id}, now() + interval '1 day')`,
    )
    expect(await readOn(a, legacy)).not.toBeNull()
    await until(() => payloads.length > 0, "the move's notification")
    await cached(b, legacy)
    await signOut(a, legacy)
    expect(await refusedWithin(b, legacy)).toBeLessThanOrEqual(ARRIVAL_MS)
    expectNoneOf([legacy])
    expect(heard()).toContainEqual({ userId: ALICE.id })
    expect(heard()).toContainEqual({ sessionToken: expect.stringMatching(/^[0-9a-f]{64}$/) })
  })

  it("triggers of an earlier version are refused by the watch until installed again", async () => {
    // The sessions trigger as earlier versions installed it: every stored token on the channel.
    await database.db.execute(sql.raw(`drop trigger latch_session_changed on "session"`))
    await database.db.execute(
      sql.raw(`create trigger latch_session_changed after update or delete on "session"
  for each row execute function latch_drizzle_row_changed('latch_sessions', 'sessionToken', 'sessionToken')`),
    )
    const adapter = DrizzleAdapter(database.db)
    await expect(adapter.watchSessions!({ changed: () => {}, live: () => {} })).rejects.toThrow(
      /earlier version.*installSessionTriggers\(db\)/s,
    )
    await installSessionTriggers(database.db)
    const watch = await adapter.watchSessions!({ changed: () => {}, live: () => {} })
    await watch.close()
    payloads.length = 0
    const token = randomUUID()
    await adapter.createSession!({ sessionToken: token, userId: ALICE.id, expires: new Date() })
    await adapter.deleteSession!(token)
    await until(() => payloads.length > 0, "the delete's notification")
    expectNoneOf([token])
  })
})
