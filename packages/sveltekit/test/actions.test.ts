import { isRedirect } from "@sveltejs/kit"
import { afterEach, describe, expect, it } from "vitest"
import { AuthError, CredentialsSignin, SvelteKitAuth } from "../src/lib/index.js"
import Credentials from "../src/lib/providers/credentials.js"
import { testConfig } from "./helpers/config.js"
import {
  Browser,
  ORIGIN,
  SESSION_COOKIE,
  createEvent,
  isDeletion,
  type EventInit,
  type TestEvent,
} from "./helpers/event.js"
import { setBase } from "./stubs/app-paths.js"

/** Runs an action and returns what it threw (actions always throw). */
async function thrown(action: Promise<unknown>): Promise<unknown> {
  try {
    await action
  } catch (error) {
    return error
  }
  throw new Error("the action did not throw")
}

/** Runs an action that must redirect; returns the status and the location resolved on ORIGIN. */
async function redirected(action: Promise<unknown>) {
  const error = await thrown(action)
  if (!isRedirect(error)) throw error
  return { status: error.status, location: error.location, url: new URL(error.location, ORIGIN) }
}

const sessionSets = (event: TestEvent) =>
  event.cookies.writes.filter((write) => write.name === SESSION_COOKIE && !isDeletion(write))

const sessionDeletes = (event: TestEvent) =>
  event.cookies.writes.filter((write) => write.name === SESSION_COOKIE && isDeletion(write))

const credentials = { providerId: "credentials", username: "alice", password: "wonderland" }

/** A form POST to a page with a form action. */
const formEvent = (path: string, form: Record<string, string>, init: EventInit = {}) =>
  createEvent(path, { form, headers: { origin: ORIGIN }, ...init })

describe("signIn form action", () => {
  const auth = SvelteKitAuth(testConfig())

  it("signs in with credentials and redirects (303) to the form's redirectTo", async () => {
    const event = formEvent("/signin", { ...credentials, redirectTo: "/dashboard" })
    const { status, url } = await redirected(auth.signIn(event))
    expect(status).toBe(303)
    expect(url.href).toBe(`${ORIGIN}/dashboard`)
    const sets = sessionSets(event)
    expect(sets).toHaveLength(1)
    expect(sets[0]!.value).not.toBe("")
    expect(sets[0]!.options).toMatchObject({ path: "/", httpOnly: true, sameSite: "lax" })
  })

  it("sets a session cookie that locals.auth() reads", async () => {
    const event = formEvent("/signin", credentials)
    await redirected(auth.signIn(event))
    const browser = new Browser(auth.handle)
    browser.store({ response: new Response(), event })
    let session: unknown
    await browser.fetch("/", {}, async (page) => {
      session = await page.locals.auth()
    })
    expect(session).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
  })

  it("falls back to the page's ?callbackUrl=", async () => {
    const event = formEvent("/signin?callbackUrl=%2Fprofile%3Ftab%3D1", credentials)
    const { status, url } = await redirected(auth.signIn(event))
    expect(status).toBe(303)
    expect(url.href).toBe(`${ORIGIN}/profile?tab=1`)
  })

  it("prefers the form's redirectTo over the page's ?callbackUrl=", async () => {
    const event = formEvent("/signin?callbackUrl=%2Fprofile", { ...credentials, redirectTo: "/b" })
    const { url } = await redirected(auth.signIn(event))
    expect(url.href).toBe(`${ORIGIN}/b`)
  })

  it("returns to the page the form was on (Referer), as Auth.js does", async () => {
    const event = formEvent("/signin", credentials, {
      headers: { origin: ORIGIN, referer: `${ORIGIN}/page?x=1` },
    })
    const { status, url } = await redirected(auth.signIn(event))
    expect(status).toBe(303)
    expect(url.href).toBe(`${ORIGIN}/page?x=1`)
    expect(sessionSets(event)).toHaveLength(1)
  })

  it("without a Referer, goes home (not to the action's route, which may have no page)", async () => {
    const event = formEvent("/signin", credentials)
    const { status, url } = await redirected(auth.signIn(event))
    expect(status).toBe(303)
    expect(url.href).toBe(`${ORIGIN}/`)
    const named = await redirected(auth.signIn(formEvent("/login?/signin&tab=2", credentials)))
    expect(named.url.href).toBe(`${ORIGIN}/`)
  })

  it("prefers the form's redirectTo and the page's ?callbackUrl= over the Referer", async () => {
    const headers = { origin: ORIGIN, referer: `${ORIGIN}/page` }
    const form = await redirected(
      auth.signIn(formEvent("/signin", { ...credentials, redirectTo: "/to" }, { headers })),
    )
    expect(form.url.href).toBe(`${ORIGIN}/to`)
    const query = await redirected(
      auth.signIn(formEvent("/signin?callbackUrl=%2Fq", credentials, { headers })),
    )
    expect(query.url.href).toBe(`${ORIGIN}/q`)
  })

  it("sends an off-site Referer home, not off-site", async () => {
    for (const referer of ["https://evil.example/x", "//evil.example/x", "not a url"]) {
      const event = formEvent("/signin", credentials, { headers: { origin: ORIGIN, referer } })
      const { status, url } = await redirected(auth.signIn(event))
      expect(status).toBe(303)
      expect(url.origin, referer).toBe(ORIGIN)
      expect(url.pathname).not.toContain("evil")
      expect(sessionSets(event)).toHaveLength(1)
    }
  })

  it("throws CredentialsSignin with its code on a wrong password, and sets no session", async () => {
    const event = formEvent("/signin", { ...credentials, password: "wrong" })
    const error = await thrown(auth.signIn(event))
    expect(isRedirect(error)).toBe(false)
    expect(error).toBeInstanceOf(CredentialsSignin)
    expect((error as CredentialsSignin).code).toBe("credentials")
    expect(sessionSets(event)).toHaveLength(0)
  })

  it("throws the provider's own CredentialsSignin code", async () => {
    class InvalidCode extends CredentialsSignin {
      override code = "invalid_code"
    }
    const { signIn } = SvelteKitAuth(
      testConfig({
        providers: [
          Credentials({
            authorize: () => {
              throw new InvalidCode()
            },
          }),
        ],
      }),
    )
    const error = await thrown(signIn(formEvent("/signin", credentials)))
    expect(error).toBeInstanceOf(CredentialsSignin)
    expect((error as CredentialsSignin).code).toBe("invalid_code")
  })

  it("throws an error of the app's own AuthError class from authorize, as Auth.js does", async () => {
    // The app's form action catches it and answers `fail(400, { message })`.
    class AccountLocked extends AuthError {
      static override type = "AccountLocked"
    }
    const { signIn } = SvelteKitAuth(
      testConfig({
        providers: [
          Credentials({
            authorize: () => {
              throw new AccountLocked("This account is locked")
            },
          }),
        ],
      }),
    )
    const event = formEvent("/signin", credentials)
    const error = await thrown(signIn(event))
    expect(isRedirect(error)).toBe(false)
    expect(error).toBeInstanceOf(AccountLocked)
    expect((error as AccountLocked).message).toBe("This account is locked")
    expect(sessionSets(event)).toHaveLength(0)
  })

  it("still sends Latch's own server errors to the error page with their code", async () => {
    const { signIn } = SvelteKitAuth(
      testConfig({
        providers: [
          Credentials({
            authorize: () => {
              throw new Error("the database is on fire")
            },
          }),
        ],
      }),
    )
    const { status, url } = await redirected(signIn(formEvent("/signin", credentials)))
    expect(status).toBe(303)
    expect(url.pathname).toBe("/auth/error")
    expect(url.searchParams.get("error")).toBe("Configuration")
  })

  it("sends a form without providerId to the sign-in page with the callbackUrl", async () => {
    const event = formEvent("/signin", { redirectTo: "/after" })
    const { status, url } = await redirected(auth.signIn(event))
    expect(status).toBe(303)
    expect(url.pathname).toBe("/auth/signin")
    expect(url.searchParams.get("callbackUrl")).toBe("/after")
    const defaults = await redirected(auth.signIn(formEvent("/signin", {})))
    expect(defaults.url.pathname).toBe("/auth/signin")
    expect(defaults.url.searchParams.get("callbackUrl")).toBe("/")
    const referer = `${ORIGIN}/page`
    const back = await redirected(
      auth.signIn(formEvent("/signin", {}, { headers: { origin: ORIGIN, referer } })),
    )
    expect(back.url.searchParams.get("callbackUrl")).toBe(referer)
  })

  it("keeps an absolute redirectTo to another host on the origin", async () => {
    const event = formEvent("/signin", { ...credentials, redirectTo: "https://evil.example/x" })
    const { status, url } = await redirected(auth.signIn(event))
    expect(status).toBe(303)
    expect(url.origin).toBe(ORIGIN)
    expect(url.host).not.toBe("evil.example")
    const sneaky = await redirected(
      auth.signIn(formEvent("/signin", { ...credentials, redirectTo: "//evil.example/x" })),
    )
    expect(sneaky.url.origin).toBe(ORIGIN)
  })

  it("keeps a javascript: redirectTo on the origin", async () => {
    const event = formEvent("/signin", { ...credentials, redirectTo: "javascript:alert(1)" })
    const { url } = await redirected(auth.signIn(event))
    expect(url.origin).toBe(ORIGIN)
    expect(url.protocol).toBe("http:")
  })

  it("redirects an unknown provider to the error page (303), not a 500", async () => {
    const event = formEvent("/signin", { providerId: "no-such-provider" })
    const { status, url } = await redirected(auth.signIn(event))
    expect(status).toBe(303)
    expect(url.origin).toBe(ORIGIN)
    expect(url.pathname).toBe("/auth/error")
    expect(url.searchParams.get("error")).toBe("Configuration")
    expect(sessionSets(event)).toHaveLength(0)
  })

  it("refuses a cross-site form even when SvelteKit's origin check is off (403)", async () => {
    const crossSite: Record<string, string>[] = [{ origin: "https://evil.example" }, {}]
    for (const headers of crossSite) {
      const event = createEvent("/signin", { form: credentials, headers })
      const failure = await thrown(auth.signIn(event))
      expect(failure).toMatchObject({ status: 403 })
      expect(sessionSets(event)).toHaveLength(0)
    }
    const signOut = createEvent("/signout", {
      form: {},
      headers: { origin: "https://evil.example" },
    })
    expect(await thrown(auth.signOut(signOut))).toMatchObject({ status: 403 })
  })

  it("sends a broken configuration to the error page, not home", async () => {
    const broken = SvelteKitAuth(
      testConfig({
        session: { strategy: "database" },
        logger: { error() {}, warn() {}, debug() {} },
      }),
    )
    const { status, url } = await redirected(broken.signIn(formEvent("/signin", credentials)))
    expect(status).toBe(303)
    expect(url.pathname).toBe("/auth/error")
    expect(url.searchParams.get("error")).toBe("Configuration")
  })

  it("reads a multipart form too", async () => {
    const body = new FormData()
    for (const [key, value] of Object.entries(credentials)) body.set(key, value)
    const event = createEvent("/signin", { method: "POST", body, headers: { origin: ORIGIN } })
    const { status, url } = await redirected(auth.signIn(event))
    expect(status).toBe(303)
    expect(url.href).toBe(`${ORIGIN}/`)
    expect(sessionSets(event)).toHaveLength(1)
  })

  it("treats an unreadable body as a form without a provider", async () => {
    const event = createEvent("/signin", {
      method: "POST",
      body: "{not json",
      headers: { origin: ORIGIN, "content-type": "application/json" },
    })
    const { status, url } = await redirected(auth.signIn(event))
    expect(status).toBe(303)
    expect(url.pathname).toBe("/auth/signin")
  })

  it("accepts an absolute redirectTo on the origin", async () => {
    const event = formEvent("/signin", { ...credentials, redirectTo: `${ORIGIN}/here?x=1` })
    const { url } = await redirected(auth.signIn(event))
    expect(url.href).toBe(`${ORIGIN}/here?x=1`)
  })

  it("passes authorizationParams-* fields without breaking credentials", async () => {
    const event = formEvent("/signin", {
      ...credentials,
      "authorizationParams-prompt": "login",
      redirectTo: "/p",
    })
    const { status, url } = await redirected(auth.signIn(event))
    expect(status).toBe(303)
    expect(url.href).toBe(`${ORIGIN}/p`)
    expect(sessionSets(event)).toHaveLength(1)
  })

  it("does not hand authorizationParams-* fields to authorize as credentials", async () => {
    let seen: Record<string, unknown> = {}
    const { signIn } = SvelteKitAuth(
      testConfig({
        providers: [
          Credentials({
            authorize: (fields) => {
              seen = fields
              return { id: "1", name: "A" }
            },
          }),
        ],
      }),
    )
    await redirected(
      signIn(formEvent("/signin", { ...credentials, "authorizationParams-prompt": "login" })),
    )
    expect(seen).toMatchObject({ username: "alice", password: "wonderland" })
    expect(Object.keys(seen)).not.toContain("authorizationParams-prompt")
    expect(Object.keys(seen)).not.toContain("prompt")
    expect(Object.keys(seen)).not.toContain("providerId")
  })
})

describe("form actions with a lazy configuration", () => {
  it("signIn and signOut work with (event) => config and async (event) => config", async () => {
    const config = testConfig()
    for (const input of [() => config, async () => config]) {
      const auth = SvelteKitAuth(input)
      const event = formEvent("/signin", { ...credentials, redirectTo: "/in" })
      expect((await redirected(auth.signIn(event))).url.href).toBe(`${ORIGIN}/in`)
      expect(sessionSets(event)).toHaveLength(1)
      const cookies = { [SESSION_COOKIE]: sessionSets(event)[0]!.value }
      const out = formEvent("/signout", {}, { cookies })
      expect((await redirected(auth.signOut(out))).status).toBe(303)
      expect(sessionDeletes(out)).toHaveLength(1)
    }
  })
})

describe("signOut form action", () => {
  const auth = SvelteKitAuth(testConfig())

  async function signedInCookies() {
    const event = formEvent("/signin", credentials)
    await redirected(auth.signIn(event))
    const [set] = sessionSets(event)
    return { [SESSION_COOKIE]: set!.value }
  }

  it("deletes the session cookie and returns (303) to the page the form was on", async () => {
    const cookies = await signedInCookies()
    const referer = `${ORIGIN}/account?tab=1`
    const event = formEvent("/signout", {}, { cookies, headers: { origin: ORIGIN, referer } })
    const { status, url } = await redirected(auth.signOut(event))
    expect(status).toBe(303)
    expect(url.href).toBe(referer)
    expect(sessionDeletes(event)).toHaveLength(1)
    expect(sessionDeletes(event)[0]!.options).toMatchObject({ path: "/" })
  })

  it("without a Referer, goes home", async () => {
    const cookies = await signedInCookies()
    const event = formEvent("/signout?/out", {}, { cookies })
    const { status, url } = await redirected(auth.signOut(event))
    expect(status).toBe(303)
    expect(url.href).toBe(`${ORIGIN}/`)
    expect(sessionDeletes(event)).toHaveLength(1)
  })

  it("sends an off-site Referer home, not off-site", async () => {
    const headers = { origin: ORIGIN, referer: "https://evil.example/x" }
    const { url } = await redirected(auth.signOut(formEvent("/signout", {}, { headers })))
    expect(url.origin).toBe(ORIGIN)
  })

  it("redirects to the form's redirectTo", async () => {
    const cookies = await signedInCookies()
    const event = formEvent("/signout", { redirectTo: "/goodbye" }, { cookies })
    const { status, url } = await redirected(auth.signOut(event))
    expect(status).toBe(303)
    expect(url.href).toBe(`${ORIGIN}/goodbye`)
    expect(sessionDeletes(event)).toHaveLength(1)
  })

  it("keeps a foreign redirectTo on the origin", async () => {
    const event = formEvent("/signout", { redirectTo: "https://evil.example/" })
    const { url } = await redirected(auth.signOut(event))
    expect(url.origin).toBe(ORIGIN)
  })
})

describe("form actions under paths.base and a custom basePath", () => {
  afterEach(() => setBase(""))

  it("signIn without a provider goes to {base}{basePath}/signin", async () => {
    setBase("/app")
    const { signIn } = SvelteKitAuth(testConfig({ basePath: "/api/auth" }))
    const { status, url } = await redirected(signIn(formEvent("/app/signin", {})))
    expect(status).toBe(303)
    expect(url.pathname).toBe("/app/api/auth/signin")
    expect(url.searchParams.get("callbackUrl")).toBe("/app/")
  })

  it("signIn with credentials returns to the page under {base} and sets the session cookie", async () => {
    setBase("/app")
    const auth = SvelteKitAuth(testConfig({ basePath: "/api/auth" }))
    const referer = `${ORIGIN}/app/page`
    const event = formEvent("/app/signin", credentials, { headers: { origin: ORIGIN, referer } })
    const { status, url } = await redirected(auth.signIn(event))
    expect(status).toBe(303)
    expect(url.href).toBe(referer)
    const bare = await redirected(auth.signIn(formEvent("/app/signin", credentials)))
    expect(bare.url.href).toBe(`${ORIGIN}/app/`)
    const offSite = formEvent("/app/signin", credentials, {
      headers: { origin: ORIGIN, referer: "https://evil.example/app/page" },
    })
    expect((await redirected(auth.signIn(offSite))).url.origin).toBe(ORIGIN)
    expect(sessionSets(event)).toHaveLength(1)
    // The handle at /app/api/auth sees the same session.
    const browser = new Browser(auth.handle)
    browser.store({ response: new Response(), event })
    const { response } = await browser.fetch("/app/api/auth/session")
    expect(await response.json()).toMatchObject({ user: { name: "Alice" } })
  })

  it("signIn honours redirectTo under paths.base", async () => {
    setBase("/app")
    const { signIn } = SvelteKitAuth(testConfig({ basePath: "/api/auth" }))
    const { url } = await redirected(
      signIn(formEvent("/app/signin", { ...credentials, redirectTo: "/app/dashboard" })),
    )
    expect(url.href).toBe(`${ORIGIN}/app/dashboard`)
  })

  it("signOut returns to the page under {base} and deletes the session cookie", async () => {
    setBase("/app")
    const auth = SvelteKitAuth(testConfig({ basePath: "/api/auth" }))
    const signInEvent = formEvent("/app/signin", credentials)
    await redirected(auth.signIn(signInEvent))
    const cookies = { [SESSION_COOKIE]: sessionSets(signInEvent)[0]!.value }
    const referer = `${ORIGIN}/app/account`
    const event = formEvent("/app/signout", {}, { cookies, headers: { origin: ORIGIN, referer } })
    const { status, url } = await redirected(auth.signOut(event))
    expect(status).toBe(303)
    expect(url.href).toBe(referer)
    const bare = await redirected(auth.signOut(formEvent("/app/signout?/out", {})))
    expect(bare.url.href).toBe(`${ORIGIN}/app/`)
    expect(sessionDeletes(event)).toHaveLength(1)
  })

  it("works with a custom basePath alone", async () => {
    const { signIn } = SvelteKitAuth(testConfig({ basePath: "/api/auth" }))
    const { url } = await redirected(signIn(formEvent("/signin", {})))
    expect(url.pathname).toBe("/api/auth/signin")
    const event = formEvent("/signin", credentials)
    const done = await redirected(signIn(event))
    expect(done.url.href).toBe(`${ORIGIN}/`)
    const referer = `${ORIGIN}/page`
    const back = formEvent("/signin", credentials, { headers: { origin: ORIGIN, referer } })
    expect((await redirected(signIn(back))).url.href).toBe(referer)
    expect(sessionSets(event)).toHaveLength(1)
  })

  it("works with paths.base alone", async () => {
    setBase("/app")
    const { signIn, signOut } = SvelteKitAuth(testConfig())
    const { url } = await redirected(signIn(formEvent("/app/signin", {})))
    expect(url.pathname).toBe("/app/auth/signin")
    const out = await redirected(signOut(formEvent("/app/signout", {})))
    expect(out.url.href).toBe(`${ORIGIN}/app/`)
  })
})
