/**
 * Attack: counters that start from zero again.
 *
 * Without an adapter `incrementCounter`, the email rate limits and the spent passkey challenges
 * are counted in memory. Were that memory kept per configuration object, an app that builds its
 * configuration per request (or an integration running one configuration as several objects)
 * would forget every count between requests: a captured passkey response, replayed with its
 * challenge cookie, would sign in again; a flood of sign-in links would never be limited.
 *
 * Safe outcome: one store per process. A request answered under one configuration object counts
 * for every other object with the same secret — and for none with another secret.
 */
import { startMailbox, type Mailbox, type ReceivedMail } from "latch-mailbox"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import Nodemailer from "../../src/providers/nodemailer.js"
import Passkey from "../../src/providers/passkey.js"
import type { AuthConfig } from "../../src/types.js"
import { SoftAuthenticator } from "../helpers/authenticator.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { ALICE, Browser, ORIGIN, testConfig } from "../helpers/request.js"

let mailbox: Mailbox
beforeAll(async () => {
  mailbox = await startMailbox()
})
afterAll(() => mailbox.close())

const CHALLENGE_COOKIE = "authjs.challenge"
const OTHER_SECRET = "another-secret-that-is-long-enough-0123456789"
let sequence = 0
const newAddress = () => `counted${++sequence}-${Date.now()}@example.com`

/** A memory adapter without `incrementCounter`: counts fall back to the process's memory. */
function adapterWithoutCounters(): MemoryAdapter {
  const adapter = memoryAdapter()
  delete adapter.incrementCounter
  adapter.createUser!({ ...ALICE, emailVerified: null })
  return adapter
}

/** A new configuration object over the same adapter, as a lazy configuration makes per request. */
function configFor(adapter: MemoryAdapter, overrides: Partial<AuthConfig> = {}): AuthConfig {
  const base = testConfig()
  return testConfig({
    adapter,
    experimental: { enableWebAuthn: true },
    providers: [
      ...base.providers,
      Nodemailer({
        server: { host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true },
        from: "Example <no-reply@example.com>",
        rateLimit: { perAddress: 2 },
      }),
      Passkey(),
    ],
    ...overrides,
  })
}

const ceremony = (challenge: string) => ({ challenge, origin: ORIGIN, rpId: "localhost" })

async function post(browser: Browser, action: string, data: unknown) {
  const csrfToken = await browser.csrfToken()
  return browser.fetch("/auth/callback/passkey", {
    form: { csrfToken, action, data: JSON.stringify(data), callbackUrl: "/dashboard" },
  })
}

async function options(browser: Browser, action: string) {
  const response = await browser.fetch(`/auth/webauthn-options/passkey?action=${action}`)
  return ((await response.json()) as { options: { challenge: string; user?: { id: string } } })
    .options
}

async function requestLink(config: AuthConfig, address: string) {
  const browser = new Browser(config)
  const csrfToken = await browser.csrfToken()
  await browser.fetch("/auth/signin/nodemailer", { form: { csrfToken, email: address } })
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 200))
const mailsTo = (address: string): ReceivedMail[] => mailbox.to(address)

describe.each(["database", "jwt"] as const)("with %s sessions", (strategy) => {
  it("a passkey sign-in replayed under another configuration object is refused", async () => {
    const adapter = adapterWithoutCounters()
    const session = { strategy }
    // Alice registers a synced passkey (its signature counter stays 0: only the spent
    // challenge stops a replay).
    const authenticator = new SoftAuthenticator({ counter: false })
    const owner = new Browser(configFor(adapter, { session }))
    await owner.signIn()
    const registration = await options(owner, "register")
    const { credential, response } = authenticator.create(
      ceremony(registration.challenge),
      registration.user!.id,
    )
    expect((await post(owner, "register", response)).headers.get("location")).toBe(
      `${ORIGIN}/dashboard`,
    )

    // She signs in; the attacker captures the request and its challenge cookie.
    const alice = new Browser(configFor(adapter, { session }))
    const sign = await options(alice, "authenticate")
    const captured = alice.cookies.get(CHALLENGE_COOKIE)!
    const assertion = authenticator.get(credential, ceremony(sign.challenge))
    expect((await post(alice, "authenticate", assertion)).headers.get("location")).toBe(
      `${ORIGIN}/dashboard`,
    )

    // The replay reaches a new configuration object with the same secret.
    const attacker = new Browser(configFor(adapter, { session }))
    attacker.cookies.set(CHALLENGE_COOKIE, captured)
    const replay = await post(attacker, "authenticate", assertion)
    const location = new URL(replay.headers.get("location")!)
    expect(location.searchParams.get("error")).toBe("WebAuthnVerificationError")
    expect(location.searchParams.get("code")).toBe("replay")
    expect(await attacker.session()).toBeNull()
  })
})

describe("the email rate limit", () => {
  it("holds across configuration objects with the same secret", async () => {
    const adapter = adapterWithoutCounters()
    const address = newAddress()
    await requestLink(configFor(adapter), address)
    await requestLink(configFor(adapter), address)
    await requestLink(configFor(adapter), address)
    await requestLink(configFor(adapter), address)
    await mailbox.nextFor(address)
    await mailbox.nextFor(address)
    await settle()
    expect(mailsTo(address)).toHaveLength(2)
    expect(adapter.tokens.size).toBe(2)
  })

  it("is not shared with a configuration under another secret", async () => {
    const adapter = adapterWithoutCounters()
    const address = newAddress()
    await requestLink(configFor(adapter), address)
    await requestLink(configFor(adapter), address)
    await requestLink(configFor(adapter, { secret: OTHER_SECRET }), address)
    for (let i = 0; i < 3; i++) await mailbox.nextFor(address)
    expect(mailsTo(address)).toHaveLength(3)
  })
})
