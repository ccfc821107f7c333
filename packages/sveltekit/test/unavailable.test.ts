/**
 * The database down (database sessions): `locals.auth()` throws SvelteKit's 503 and gives the
 * response `Retry-After`, rather than reading a signed-in user as signed out; the session cookie
 * is kept; a 503 thrown from a hook after Latch's (`protect`) still reaches the browser with
 * `Retry-After`. The built demo's soak (reliability/soak.mjs) checks the same through SvelteKit's
 * real `resolve`, over HTTP.
 */
import { createHash } from "node:crypto"
import { isHttpError } from "@sveltejs/kit"
import { describe, expect, it, vi } from "vitest"
import { protect, SvelteKitAuth } from "../src/lib/index.js"
import { memoryAdapter } from "../../core/test/helpers/memory-adapter.js"
import { ALICE, testConfig } from "./helpers/config.js"
import { createEvent, isDeletion, SESSION_COOKIE } from "./helpers/event.js"

const TOKEN = "a-session-token-of-alice"

function setup() {
  const adapter = memoryAdapter()
  adapter.users.set(ALICE.id, { ...ALICE, emailVerified: null })
  const sessionToken = createHash("sha256").update(TOKEN).digest("hex")
  adapter.sessions.set(sessionToken, {
    sessionToken,
    userId: ALICE.id,
    expires: new Date(Date.now() + 3_600_000),
  })
  const error = vi.fn()
  const { handle } = SvelteKitAuth(
    testConfig({
      adapter,
      session: { strategy: "database" },
      logger: { error, warn: () => {}, debug: () => {} },
    }),
  )
  const takeDown = () => {
    adapter.getSessionAndUser = () => {
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
        code: "ECONNREFUSED",
      })
    }
  }
  /** An event of a page carrying alice's cookie, with `setHeaders` recorded. */
  const event = (path = "/account") => {
    const e = createEvent(path, { cookies: { [SESSION_COOKIE]: TOKEN } })
    const headers: Record<string, string> = {}
    e.setHeaders = (added) => {
      for (const [key, value] of Object.entries(added)) {
        if (key.toLowerCase() in headers) throw new Error(`${key} header is already set`)
        headers[key.toLowerCase()] = value
      }
    }
    return { e, headers }
  }
  return { handle, takeDown, event, error }
}

describe("locals.auth() with the database down", () => {
  it("reads the session while the database is up", async () => {
    const { handle, event } = setup()
    const { e } = event()
    let session: unknown
    await handle({
      event: e,
      resolve: async (resolved) => {
        session = await resolved.locals.auth()
        return new Response("page")
      },
    })
    expect(session).toMatchObject({ user: { name: ALICE.name } })
  })

  it("throws a 503 with Retry-After for the page, keeps the cookie, logs once", async () => {
    const { handle, takeDown, event, error } = setup()
    takeDown()
    const { e, headers } = event()
    let thrown: unknown
    await handle({
      event: e,
      resolve: async (resolved) => {
        // A page's load: it asks twice (layout and page); both see the same 503.
        for (let i = 0; i < 2; i++) {
          try {
            await resolved.locals.auth()
          } catch (caught) {
            thrown = caught
          }
        }
        return new Response("error page", { status: 503 })
      },
    })
    expect(isHttpError(thrown, 503)).toBe(true)
    const body = (thrown as { body: { message: string } }).body
    expect(body.message).not.toMatch(/ECONNREFUSED|5432|getSessionAndUser/)
    expect(headers["retry-after"]).toBe("5")
    expect(e.cookies.writes.filter((w) => w.name === SESSION_COOKIE && isDeletion(w))).toEqual([])
    expect(error).toHaveBeenCalledTimes(1)
  })

  it("answers 503 with Retry-After when a hook after Latch's (protect) reads the session", async () => {
    const { handle, takeDown, event } = setup()
    const guard = protect(["/admin"], { signIn: "/signin" })
    takeDown()
    const { e } = event("/admin")
    const response = await handle({
      event: e,
      resolve: (resolved) => guard({ event: resolved, resolve: async () => new Response("admin") }),
    })
    expect(response.status).toBe(503)
    expect(response.headers.get("retry-after")).toBe("5")
    const text = await response.text()
    expect(JSON.parse(text)).toEqual({ message: expect.any(String) })
    expect(text).not.toMatch(/ECONNREFUSED|5432|at .+:\d+/)
  })

  it("lets other errors of later hooks through untouched", async () => {
    const { handle, event } = setup()
    const { e } = event()
    const failure = new Error("a bug in the app")
    await expect(
      handle({
        event: e,
        resolve: async () => {
          throw failure
        },
      }),
    ).rejects.toBe(failure)
  })
})
