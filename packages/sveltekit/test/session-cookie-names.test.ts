/**
 * The session cookie under Auth.js's name, in an app: a route of the app that signs out by
 * deleting `authjs.session-token` ends the session — also the session of a browser that still
 * holds an earlier release's `latch.session-token`, which the handle moves before the route runs.
 */
import { createHash } from "node:crypto"
import type { RequestEvent } from "@sveltejs/kit"
import { describe, expect, it } from "vitest"
import { SvelteKitAuth } from "../src/lib/index.js"
import { sharedDatabase } from "../../core/test/helpers/watched-adapter.js"
import { ALICE, testConfig } from "./helpers/config.js"
import { Browser, SESSION_COOKIE } from "./helpers/event.js"

const hash = (token: string) => createHash("sha256").update(token).digest("hex")

/** The app's own sign-out route: it deletes the session cookie by name, as Auth.js apps do. */
const signOutRoute = (event: RequestEvent) => {
  event.cookies.delete("authjs.session-token", { path: "/" })
}

function databaseApp() {
  const db = sharedDatabase()
  db.store.users.set(ALICE.id, { ...ALICE, emailVerified: null })
  db.store.sessions.set(hash("a-session"), {
    sessionToken: hash("a-session"),
    userId: ALICE.id,
    expires: new Date(Date.now() + 3_600_000),
  })
  const { handle } = SvelteKitAuth(
    testConfig({ adapter: db.instance(), session: { strategy: "database" } }),
  )
  return new Browser(handle)
}

describe("an app that signs out by deleting authjs.session-token", () => {
  it("names the session cookie as Auth.js does", () => {
    expect(SESSION_COOKIE).toBe("authjs.session-token")
  })

  it("ends a JWT session so", async () => {
    const { handle } = SvelteKitAuth(testConfig())
    const browser = new Browser(handle)
    await browser.signIn()
    expect(browser.cookies.has("authjs.session-token")).toBe(true)
    await browser.fetch("/sign-out", {}, signOutRoute)
    let session: unknown = "unread"
    await browser.fetch("/", {}, async (event) => {
      session = await event.locals.auth()
    })
    expect(session).toBeNull()
  })

  it("ends a session under an earlier release's latch.session-token, moved before the route runs", async () => {
    const browser = databaseApp()
    browser.cookies.set("latch.session-token", "a-session")
    // The route never asks for the session: the handle moves it all the same.
    await browser.fetch("/sign-out", {}, signOutRoute)
    expect([...browser.cookies.keys()]).toEqual([])
    let session: unknown = "unread"
    await browser.fetch("/", {}, async (event) => {
      session = await event.locals.auth()
    })
    expect(session).toBeNull()
  })

  it("a browser with latch.session-token stays signed in on its next page, under the new name", async () => {
    const browser = databaseApp()
    browser.cookies.set("latch.session-token", "a-session")
    let session: unknown
    await browser.fetch("/", {}, async (event) => {
      session = await event.locals.auth()
    })
    expect(session).toMatchObject({ user: { email: ALICE.email } })
    expect([...browser.cookies]).toEqual([["authjs.session-token", "a-session"]])
  })
})
