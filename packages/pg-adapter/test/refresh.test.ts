/**
 * Refreshing a provider's tokens with two instances of the app on one PostgreSQL database: the
 * test's own (core's sources) and one in a worker thread (the published builds, its own memory
 * and connection pool), sharing only the database — the accounts and the counters. Against a
 * real OpenID Provider that rotates refresh tokens (a second use of one is refused, and revokes
 * the grant), issues access tokens that expire in seconds, and answers the token request after
 * 300 ms, as over a network: however the concurrent reads of one session fall on the two
 * instances, the refresh token is spent once.
 */
import { Worker } from "node:worker_threads"
import pg from "pg"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"

import { Auth } from "../../core/src/index.js"
import { getAccessToken } from "../../core/src/session/access-token.js"
import { customFetch } from "../../core/src/markers.js"
import type { AuthConfig } from "../../core/src/types.js"
import {
  CLIENTS,
  login,
  startRotatingOP,
  type RotatingOP,
} from "../../core/test/helpers/oidc-provider.js"
import { Browser, ORIGIN, SECRET, testConfig } from "../../core/test/helpers/request.js"
import { migrate, PostgresAdapter } from "../src/index.js"
import { startPostgres, type PostgresServer } from "./postgres-server.js"

const DELAY = 300

let op: RotatingOP
let server: PostgresServer
let pool: pg.Pool
let other: Worker

/** The provider, as both instances configure it. */
function provider() {
  return {
    id: "op",
    name: "Test OP",
    type: "oidc" as const,
    issuer: op.issuer,
    ...CLIENTS.basic,
    refresh: { margin: 0 },
  }
}

beforeAll(async () => {
  op = await startRotatingOP(3)
  server = await startPostgres()
  const connectionString = await server.createDatabase("latch_refresh")
  pool = new pg.Pool({ connectionString, max: 5 })
  await migrate(pool)
  other = new Worker(new URL("./fixtures/instance-worker.mjs", import.meta.url), {
    workerData: {
      connectionString,
      origin: ORIGIN,
      secret: SECRET,
      provider: provider(),
      tokenEndpoint: op.endpoints.token,
      delay: DELAY,
    },
  })
})
afterAll(async () => {
  other?.postMessage({ id: "close" })
  await pool?.end()
  await Promise.all([op?.stop(), server?.destroy()])
})
beforeEach(async () => {
  op.grants.length = 0
  // Long enough for the sign-in and the warm-up reads to see a fresh token.
  op.accessTokenTTL = 3
  await pool.query("truncate users, accounts, sessions, counters cascade")
})

/** This instance's configuration. */
function config(): AuthConfig {
  const slow = async (input: string, init: RequestInit) => {
    if (input.startsWith(op.endpoints.token)) await new Promise((r) => setTimeout(r, DELAY))
    return fetch(input, init)
  }
  return testConfig({
    providers: [{ ...provider(), [customFetch]: slow }],
    adapter: PostgresAdapter(pool),
    session: { strategy: "database" },
  })
}

interface Answer {
  status: number
  body: { user?: { email?: string }; error?: string } | null
}

let messages = 0
/** `count` concurrent reads of `path` on the worker's instance. */
function onOther(path: string, cookie: string, count: number): Promise<Answer[]> {
  const id = ++messages
  return new Promise((resolve) => {
    const listen = (message: { id: number; answers: Answer[] }) => {
      if (message.id !== id) return
      other.off("message", listen)
      resolve(message.answers)
    }
    other.on("message", listen)
    other.postMessage({ id, path, cookie, count })
  })
}

/** `count` concurrent reads of `path` on this instance. */
async function onThis(cfg: AuthConfig, path: string, cookie: string, count: number) {
  const responses = await Promise.all(
    Array.from({ length: count }, () =>
      Auth(new Request(`${ORIGIN}${path}`, { headers: { cookie } }), cfg),
    ),
  )
  return Promise.all(
    responses.map(async (r): Promise<Answer> => ({ status: r.status, body: await r.json() })),
  )
}

/** Alice signs in; returns her cookie. */
async function signIn(cfg: AuthConfig): Promise<string> {
  const browser = new Browser(cfg)
  const csrfToken = await browser.csrfToken()
  const start = await browser.fetch("/auth/signin/op", {
    form: { csrfToken, callbackUrl: "/dashboard" },
  })
  const back = new URL(await login(browser, start.headers.get("location")!))
  await browser.fetch(back.pathname + back.search)
  return browser.cookieHeader()
}

describe("two instances on one PostgreSQL database", () => {
  it("spend the refresh token once for 20 concurrent reads spread over both", async () => {
    const cfg = config()
    const cookie = await signIn(cfg)
    const before = await PostgresAdapter(pool).getAccount("alice", "op")
    expect(before?.refresh_token).toEqual(expect.any(String))
    // Each instance reads the session once while the token is fresh.
    const warm = [
      ...(await onThis(cfg, "/auth/session", cookie, 1)),
      ...(await onOther("/auth/session", cookie, 1)),
    ]
    expect(warm.map((a) => a.status)).toEqual([200, 200])
    expect(op.grants).toEqual([])
    op.accessTokenTTL = 3600
    await new Promise((resolve) => setTimeout(resolve, 3100))

    const answers = (
      await Promise.all([
        onThis(cfg, "/auth/session", cookie, 10),
        onOther("/auth/session", cookie, 10),
      ])
    ).flat()
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200))
    for (const { body } of answers) {
      expect(body?.user?.email).toBe("alice@example.com")
      expect(body?.error).toBeUndefined()
    }
    expect(op.grants).toEqual(["ok"])

    // The next reads use the new tokens: no more grants, and the token works at the API.
    await onOther("/auth/session", cookie, 3)
    const { accessToken } = await getAccessToken(
      new Request(`${ORIGIN}/api`, { headers: { cookie } }),
      cfg,
      "op",
    )
    expect(op.grants).toEqual(["ok"])
    expect(accessToken).not.toBe(before!.access_token)
    const api = await fetch(op.endpoints.api, {
      headers: { authorization: `Bearer ${accessToken}` },
    })
    expect(api.status).toBe(200)
    const stored = await PostgresAdapter(pool).getAccount("alice", "op")
    expect(stored?.access_token).toBe(accessToken)
    expect(stored?.refresh_token).not.toBe(before!.refresh_token)
  })

  it("mark the session on both when the provider refused the refresh token, with no 500", async () => {
    const cfg = config()
    const cookie = await signIn(cfg)
    const account = await PostgresAdapter(pool).getAccount("alice", "op")
    await (await op.provider.RefreshToken.find(account!.refresh_token!))!.destroy()
    await onOther("/auth/session", cookie, 1)
    await new Promise((resolve) => setTimeout(resolve, 3100))

    const answers = (
      await Promise.all([
        onThis(cfg, "/auth/session", cookie, 3),
        onOther("/auth/session", cookie, 3),
      ])
    ).flat()
    for (const { status, body } of answers) {
      expect(status).toBe(200)
      expect(body?.user?.email).toBe("alice@example.com")
      expect(body?.error).toBe("RefreshTokenError")
    }
    expect(op.grants).toEqual(["invalid_grant"])
    const stored = await PostgresAdapter(pool).getAccount("alice", "op")
    expect(stored?.refresh_token).toBeUndefined()

    // Signing in again stores new tokens: the mark is gone.
    const again = await signIn(cfg)
    expect(again).not.toBe("")
    const [fresh] = await onOther("/auth/session", again, 1)
    expect(fresh!.body?.error).toBeUndefined()
    expect((await PostgresAdapter(pool).getAccount("alice", "op"))?.refresh_token).toEqual(
      expect.any(String),
    )
  })
})
