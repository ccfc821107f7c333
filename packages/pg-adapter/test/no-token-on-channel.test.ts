/**
 * No session token that could be a cookie goes on the `NOTIFY` channel, which every role that
 * can connect to the database may `LISTEN` to: read here by such a listener, on PGlite and on a
 * real server. A session row is named by its token only when that is a SHA-256 hash (what core
 * stores by default); with `hashTokens: false`, or for a row written raw by Auth.js and moved
 * under its hash on first read, it is named by its user — and the other instance still refuses
 * the revoked session at once. `migrate` brings an existing database's trigger function along.
 */
import { randomUUID } from "node:crypto"
import type { PGlite } from "@electric-sql/pglite"
import type pg from "pg"
import { afterAll, beforeEach, describe, expect, it } from "vitest"
import {
  getSession,
  getUserSessions,
  revokeSessions,
  revokeUserSession,
} from "../../core/src/index.js"
import { closeSessionCache, existingSessionCache } from "../../core/src/session/cache.js"
import type { AuthConfig } from "../../core/src/types.js"
import { ALICE, Browser, ORIGIN, testConfig } from "../../core/test/helpers/request.js"
import { migrate, PostgresAdapter, sessionsChannel, type Queryable } from "../src/index.js"
import { clients, useEmptyDatabase } from "./clients.js"

/**
 * How long a revocation may take to reach the other instance before the test calls it lost: a
 * bound for correctness (it arrives), not a measure of speed — bench/ measures the delay
 * (p99 of a few tens of milliseconds), and a loaded machine must not fail a correct run.
 */
const ARRIVAL_MS = 1_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5_000) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(5)
  }
}

/** A listener of the channel that is no part of Latch: what any connected role could run. */
async function eavesdrop(client: Queryable) {
  const payloads: string[] = []
  const pglite = client as Partial<PGlite>
  if (typeof pglite.listen === "function") {
    const stop = await pglite.listen(`"${sessionsChannel()}"`, (payload) => payloads.push(payload))
    return { payloads, close: () => stop() }
  }
  const connection = await (client as pg.Pool).connect()
  connection.on("notification", (message) => payloads.push(message.payload ?? ""))
  await connection.query(`listen ${sessionsChannel()}`)
  return {
    payloads,
    close: async () => {
      await connection.query("unlisten *")
      connection.release()
    },
  }
}

const withCookie = (token: string) =>
  new Request(`${ORIGIN}/`, { headers: { cookie: `authjs.session-token=${token}` } })

for (const database of clients) {
  describe(`the change channel on ${database.name}`, () => {
    const db = useEmptyDatabase(database.open)
    const adapters: ReturnType<typeof PostgresAdapter>[] = []
    let channel: Awaited<ReturnType<typeof eavesdrop>>

    beforeEach(async () => {
      await channel?.close()
      channel = await eavesdrop(db().client)
      await PostgresAdapter(db().client).createUser({ ...ALICE, emailVerified: null })
      return async () => {
        for (const adapter of adapters.splice(0)) await closeSessionCache(adapter)
      }
    })
    afterAll(async () => {
      await channel?.close()
    })

    /** One instance of the app: its own adapter object, and so its own cache. */
    function instance(session: Partial<AuthConfig["session"]> = {}) {
      const adapter = PostgresAdapter(db().client, { watch: { heartbeatMs: 250 } })
      adapters.push(adapter)
      const config = testConfig({
        adapter,
        session: { strategy: "database", cache: true, ...session },
      })
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

    /** Reads `token` on `on` until its cache serves it (no database read needed). */
    async function cached(on: Instance, token: string) {
      expect(await readOn(on, token)).not.toBeNull()
      await until(() => existingSessionCache(on.adapter)?.serving === true, "the cache to serve")
      await readOn(on, token)
      await until(() => (existingSessionCache(on.adapter)?.size ?? 0) > 0, "a cached session")
    }

    async function refusedWithin(on: Instance, token: string) {
      const from = Date.now()
      await until(async () => (await readOn(on, token)) === null, "the refusal", ARRIVAL_MS)
      return Date.now() - from
    }

    /** The payloads heard, parsed. */
    const heard = () =>
      channel.payloads.map((payload) => JSON.parse(payload) as Record<string, string>)

    /** Fails when a payload heard holds one of `tokens`; waits for `count` payloads first. */
    async function expectNoneOf(tokens: string[], count = 1) {
      await until(
        () => channel.payloads.filter((p) => !p.includes("truncated")).length >= count,
        `${count} payloads`,
      )
      for (const payload of channel.payloads) {
        for (const token of tokens) expect(payload).not.toContain(token)
      }
    }

    it("with hashTokens: false, a sign-out, a revocation of one, an expiry pushed and a sign-out everywhere publish the user, never a token", async () => {
      const raw = { hashTokens: false }
      const [a, b] = [instance(raw), instance(raw)]
      const tokens = [await signIn(a), await signIn(a), await signIn(a)]
      for (const token of tokens) await cached(b, token)

      const signOut = new Browser(a.config)
      signOut.cookies.set("authjs.session-token", tokens[0]!)
      await signOut.fetch("/auth/signout", { form: { csrfToken: await signOut.csrfToken() } })
      expect(await refusedWithin(b, tokens[0]!)).toBeLessThanOrEqual(ARRIVAL_MS)
      await expectNoneOf(tokens)
      expect(heard()).toContainEqual({ userId: ALICE.id })

      const listed = await getUserSessions(withCookie(tokens[1]!), a.config)
      const other = listed!.find((session) => !session.current)!
      expect(await revokeUserSession(withCookie(tokens[1]!), a.config, other.id)).toBe(true)
      expect(await refusedWithin(b, tokens[2]!)).toBeLessThanOrEqual(ARRIVAL_MS)

      const pushing = { ...a.config, session: { ...a.config.session, updateAge: 0 } }
      const before = channel.payloads.length
      expect((await getSession(withCookie(tokens[1]!), pushing)).session).not.toBeNull()
      await until(() => channel.payloads.length > before, "the expiry's notification")

      await cached(b, tokens[1]!)
      expect(await revokeSessions(a.config, ALICE.id)).toBe(1)
      expect(await refusedWithin(b, tokens[1]!)).toBeLessThanOrEqual(ARRIVAL_MS)
      await expectNoneOf(tokens, 4)
    })

    it("a row Auth.js stored raw is moved under its hash without its token on the channel; B refuses it once signed out", async () => {
      const [a, b] = [instance(), instance()]
      const legacy = randomUUID()
      await db().client.query(
        "insert into sessions (session_token, user_id, expires) values ($1, $2, now() + interval '1 day')",
        [legacy, ALICE.id],
      )
      expect(await readOn(a, legacy)).not.toBeNull()
      const { rows } = await db().client.query("select session_token from sessions", [])
      expect(rows).toEqual([{ session_token: expect.stringMatching(/^[0-9a-f]{64}$/) }])
      await expectNoneOf([legacy])

      await cached(b, legacy)
      const browser = new Browser(a.config)
      browser.cookies.set("authjs.session-token", legacy)
      await browser.fetch("/auth/signout", { form: { csrfToken: await browser.csrfToken() } })
      expect(await refusedWithin(b, legacy)).toBeLessThanOrEqual(ARRIVAL_MS)
      await expectNoneOf([legacy], 2)
      const hash = (rows[0] as { session_token: string }).session_token
      expect(heard()).toContainEqual({ sessionToken: hash })
    })

    it("migrate replaces the trigger function of a database set up by an earlier version", async () => {
      // The function as earlier versions installed it: every stored token on the channel.
      await db().client.query(`create or replace function latch_session_changed() returns trigger
language plpgsql as $latch$
begin
  perform pg_notify(tg_argv[0], jsonb_build_object('sessionToken', old.session_token)::text);
  return null;
end
$latch$`)
      const insert = (token: string) =>
        db().client.query(
          "insert into sessions (session_token, user_id, expires) values ($1, $2, now() + interval '1 day')",
          [token, ALICE.id],
        )
      const [before, after] = [randomUUID(), randomUUID()]
      await insert(before)
      await db().client.query("delete from sessions where session_token = $1", [before])
      await until(() => channel.payloads.some((p) => p.includes(before)), "the old payload")

      await migrate(db().client)
      await insert(after)
      await db().client.query("delete from sessions where session_token = $1", [after])
      await until(() => heard().some((change) => change.userId === ALICE.id), "the user")
      for (const payload of channel.payloads) expect(payload).not.toContain(after)
    })
  })
}
