/**
 * `@latch/sveltekit/remote` with `$app/server` stood in for: `getRequestEvent` answers the test's
 * event and `form` hands back its callback, which a test calls with the fields SvelteKit would
 * have parsed from the body (which it has then read: the helpers must not read it again).
 * SvelteKit's own remote functions run in the demo's e2e (`e2e/tests/live-session.spec.ts`).
 */
import Email from "@latch/core/providers/email"
import { isHttpError, isRedirect } from "@sveltejs/kit"
import { afterEach, describe, expect, it, vi } from "vitest"
import { memoryAdapter } from "../../core/test/helpers/memory-adapter.js"
import { SvelteKitAuth } from "../src/lib/index.js"
import { getSession, requireSession, signInForm, signOutForm } from "../src/lib/remote-functions.js"
import { testConfig } from "./helpers/config.js"
import { ORIGIN, SESSION_COOKIE, createEvent, isDeletion, type TestEvent } from "./helpers/event.js"
import { setRequestEvent } from "./stubs/app-server.js"

const auth = SvelteKitAuth(testConfig())
const alice = { user: { name: "Alice" }, expires: "2099-01-01T00:00:00.000Z" }

type Submittable = { submit: (fields: Record<string, unknown>) => Promise<unknown> }
const submit = (remote: unknown, fields: Record<string, unknown>) =>
  (remote as Submittable).submit(fields)

/** The event of a remote form's POST: its body is SvelteKit's, already consumed. */
function remoteEvent(headers: Record<string, string> = { origin: ORIGIN }): TestEvent {
  const event = createEvent("/_app/remote/abc", { method: "POST", headers, body: "consumed" })
  void event.request.text()
  setRequestEvent(event)
  return event
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error("did not throw")
}

afterEach(() => setRequestEvent(undefined))

describe("reading the session in a remote function", () => {
  it("getSession() is the request's locals.auth()", async () => {
    const event = createEvent("/")
    setRequestEvent(event)
    event.locals.auth = async () => null
    expect(await getSession()).toBeNull()
    event.locals.auth = async () => alice
    expect(await getSession()).toEqual(alice)
  })

  it("requireSession() ends the function with a 401 without a session", async () => {
    const event = createEvent("/")
    setRequestEvent(event)
    event.locals.auth = async () => null
    const error = await thrown(requireSession())
    expect(isHttpError(error) && error.status).toBe(401)
  })

  it("requireSession(allow) answers 403 to a session it refuses, the session to one it allows", async () => {
    const event = createEvent("/")
    setRequestEvent(event)
    event.locals.auth = async () => alice
    const error = await thrown(requireSession((session) => session.user?.name === "Bob"))
    expect(isHttpError(error) && error.status).toBe(403)
    await expect(requireSession(async (s) => s.user?.name === "Alice")).resolves.toEqual(alice)
  })
})

describe("sign-in and sign-out as remote forms", () => {
  const signInRemote = signInForm(auth.signIn)
  const signOutRemote = signOutForm(auth.signOut)
  const credentials = { providerId: "credentials", username: "alice", password: "wonderland" }

  it("signs in from the fields given, sets the cookie and redirects", async () => {
    const event = remoteEvent()
    const error = await thrown(submit(signInRemote, { ...credentials, redirectTo: "/dashboard" }))
    expect(isRedirect(error) && error.status).toBe(303)
    expect(isRedirect(error) && new URL(error.location, ORIGIN).href).toBe(`${ORIGIN}/dashboard`)
    const set = event.cookies.writes.filter((w) => w.name === SESSION_COOKIE && !isDeletion(w))
    expect(set).toHaveLength(1)
  })

  it("a refused sign-in is the form's result, with its code, and sets nothing", async () => {
    const event = remoteEvent()
    const result = await submit(signInRemote, { ...credentials, password: "nope" })
    expect(result).toEqual({ error: "CredentialsSignin", code: "credentials" })
    expect(event.cookies.writes.filter((w) => w.name === SESSION_COOKIE)).toHaveLength(0)
  })

  it("an email sign-in that cannot start is the form's result, not an internal error", async () => {
    const send = vi.fn()
    const withEmail = SvelteKitAuth(
      testConfig({
        adapter: memoryAdapter(),
        providers: [Email({ sendVerificationRequest: send })],
      }),
    )
    const emailRemote = signInForm(withEmail.signIn)
    for (const email of ["a@b", "alice@.example", "a@b.c, x@evil.example", ""]) {
      const event = remoteEvent()
      const result = await submit(emailRemote, { providerId: "email", email, redirectTo: "/" })
      expect(result).toEqual({ error: "EmailSignInError", code: "email" })
      expect(event.cookies.writes).toHaveLength(0)
    }
    expect(send).not.toHaveBeenCalled()
  })

  it("refuses a cross-site submission with a 403, as the form action does", async () => {
    const event = remoteEvent({ origin: "https://evil.example" })
    const error = await thrown(submit(signInRemote, credentials))
    expect(isHttpError(error) && error.status).toBe(403)
    expect(event.cookies.writes).toHaveLength(0)
  })

  it("keeps a redirect off the site on the site", async () => {
    remoteEvent()
    const error = await thrown(
      submit(signInRemote, { ...credentials, redirectTo: "https://evil.example/x" }),
    )
    expect(isRedirect(error) && new URL(error.location, ORIGIN).origin).toBe(ORIGIN)
  })

  it("signs out and redirects to redirectTo", async () => {
    const event = remoteEvent()
    await thrown(submit(signInRemote, credentials))
    const token = event.cookies.writes.find((w) => w.name === SESSION_COOKIE)!.value
    const out = remoteEvent({ origin: ORIGIN, cookie: `${SESSION_COOKIE}=${token}` })
    const error = await thrown(submit(signOutRemote, { redirectTo: "/bye" }))
    expect(isRedirect(error) && new URL(error.location, ORIGIN).href).toBe(`${ORIGIN}/bye`)
    expect(out.cookies.writes.some((w) => w.name === SESSION_COOKIE && isDeletion(w))).toBe(true)
  })
})
