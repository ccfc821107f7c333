/**
 * Attack: counters that start from zero again, in SvelteKit.
 *
 * Without an adapter `incrementCounter`, the email rate limits and the spent passkey challenges
 * are counted in memory. A lazy `SvelteKitAuth(async (event) => ({ … }))` makes a new
 * configuration object per request, and the `signIn` form action runs the configuration as
 * another object than the handle. Were counts kept per object, a captured passkey response
 * replayed with its challenge cookie would sign in again, and sign-in links would never be
 * limited.
 *
 * Safe outcome: one store per process. A replay is refused and the limit holds across requests
 * of a lazy configuration, and between the handle and the form action.
 */
import { isRedirect, type Handle } from "@sveltejs/kit"
import Email from "@latch/core/providers/email"
import { describe, expect, it, vi } from "vitest"
import { SoftAuthenticator } from "../../../core/test/helpers/authenticator.js"
import { memoryAdapter, type MemoryAdapter } from "../../../core/test/helpers/memory-adapter.js"
import { SvelteKitAuth, type SvelteKitAuthConfig } from "../../src/lib/index.js"
import Passkey from "../../src/lib/providers/passkey.js"
import { ALICE, testConfig } from "../helpers/config.js"
import { Browser, ORIGIN, createEvent } from "../helpers/event.js"

const CHALLENGE_COOKIE = "authjs.challenge"
type Strategy = "database" | "jwt"

/** A memory adapter without `incrementCounter`: counts fall back to the process's memory. */
function adapterWithoutCounters(): MemoryAdapter {
  const adapter = memoryAdapter()
  delete adapter.incrementCounter
  adapter.createUser!({ ...ALICE, emailVerified: null })
  return adapter
}

/** A new configuration object each call, over one adapter and one mail spy. */
function configs(strategy: Strategy = "database") {
  const adapter = adapterWithoutCounters()
  const send = vi.fn()
  const make = (): SvelteKitAuthConfig => {
    const base = testConfig()
    return testConfig({
      adapter,
      session: { strategy },
      experimental: { enableWebAuthn: true },
      providers: [
        ...base.providers,
        Passkey(),
        Email({ sendVerificationRequest: send, rateLimit: { perAddress: 1 } }),
      ],
    })
  }
  return { adapter, send, make }
}

const ceremony = (challenge: string) => ({ challenge, origin: ORIGIN, rpId: "localhost" })

async function options(browser: Browser, action: string) {
  const { response } = await browser.fetch(`/auth/webauthn-options/passkey?action=${action}`)
  expect(response.status).toBe(200)
  return ((await response.json()) as { options: { challenge: string; user?: { id: string } } })
    .options
}

async function post(browser: Browser, action: string, data: unknown) {
  const csrfToken = await browser.csrfToken()
  const { response } = await browser.fetch("/auth/callback/passkey", {
    form: { csrfToken, action, data: JSON.stringify(data), callbackUrl: "/dashboard" },
  })
  return response
}

/**
 * Alice registers a synced passkey (its signature counter stays 0: only the spent challenge
 * stops a replay) and signs in with it; returns the captured request and its cookie.
 */
async function capturedSignIn(handle: Handle) {
  const authenticator = new SoftAuthenticator({ counter: false })
  const owner = new Browser(handle)
  await owner.signIn()
  const registration = await options(owner, "register")
  const { credential, response } = authenticator.create(
    ceremony(registration.challenge),
    registration.user!.id,
  )
  expect((await post(owner, "register", response)).headers.get("location")).toBe(
    `${ORIGIN}/dashboard`,
  )
  const alice = new Browser(handle)
  const sign = await options(alice, "authenticate")
  const cookie = alice.cookies.get(CHALLENGE_COOKIE)!
  const assertion = authenticator.get(credential, ceremony(sign.challenge))
  expect((await post(alice, "authenticate", assertion)).headers.get("location")).toBe(
    `${ORIGIN}/dashboard`,
  )
  return { assertion, cookie }
}

/** Posts the email form through the handle; the mail goes out or not. */
async function requestLinkThroughHandle(handle: Handle, email: string) {
  const browser = new Browser(handle)
  const { response } = await browser.fetch("/auth/signin/email", {
    form: { email },
    headers: { origin: ORIGIN, "x-auth-return-redirect": "1" },
  })
  return ((await response.json()) as { url: string }).url
}

/** Runs a form action that must redirect; returns where to. */
async function redirectOf(action: Promise<unknown>): Promise<URL> {
  try {
    await action
  } catch (error) {
    if (isRedirect(error)) return new URL(error.location, ORIGIN)
    throw error
  }
  throw new Error("the action did not redirect")
}

describe.each(["database", "jwt"] as const)("with %s sessions", (strategy) => {
  it("a lazy configuration (a new object per request) refuses a replayed passkey sign-in", async () => {
    const { make } = configs(strategy)
    const { handle } = SvelteKitAuth(async () => make())
    const { assertion, cookie } = await capturedSignIn(handle)

    const attacker = new Browser(handle)
    attacker.cookies.set(CHALLENGE_COOKIE, cookie)
    const replay = new URL(
      (await post(attacker, "authenticate", assertion)).headers.get("location")!,
    )
    expect(replay.searchParams.get("error")).toBe("WebAuthnVerificationError")
    expect(replay.searchParams.get("code")).toBe("replay")
    const { response } = await attacker.fetch("/auth/session")
    expect(await response.json()).toBeNull()
  })

  it("the signIn form action refuses a passkey sign-in already spent through the handle", async () => {
    const { make } = configs(strategy)
    const { handle, signIn } = SvelteKitAuth(make())
    const { assertion, cookie } = await capturedSignIn(handle)

    const event = createEvent("/signin", {
      form: { providerId: "passkey", action: "authenticate", data: JSON.stringify(assertion) },
      headers: { origin: ORIGIN },
      cookies: { [CHALLENGE_COOKIE]: cookie },
    })
    // Sign-in errors reach the page's action, to show inline: this one says "replay".
    await expect(signIn(event)).rejects.toMatchObject({
      type: "WebAuthnVerificationError",
      code: "replay",
    })
    const session = event.cookies.writes.filter((write) => write.name === "authjs.session-token")
    expect(session).toEqual([])
  })
})

describe("the email rate limit", () => {
  it("holds across the requests of a lazy configuration", async () => {
    const { make, send } = configs()
    const { handle } = SvelteKitAuth(async () => make())
    const first = await requestLinkThroughHandle(handle, "flooded@example.com")
    // Over the limit: the same page, no mail.
    expect(await requestLinkThroughHandle(handle, "flooded@example.com")).toBe(first)
    expect(await requestLinkThroughHandle(handle, "flooded@example.com")).toBe(first)
    expect(send).toHaveBeenCalledTimes(1)
  })

  it("holds between the handle and the signIn form action", async () => {
    const { make, send } = configs()
    const { handle, signIn } = SvelteKitAuth(make())
    await requestLinkThroughHandle(handle, "both@example.com")
    const event = createEvent("/signin", {
      form: { providerId: "email", email: "both@example.com" },
      headers: { origin: ORIGIN },
    })
    const location = await redirectOf(signIn(event))
    expect(location.pathname).toBe("/auth/verify-request")
    expect(send).toHaveBeenCalledTimes(1)
  })
})
