/**
 * A security key's life as a second factor, through `Auth()` on any adapter (the adapters'
 * packages run it on their databases): added from a signed-in session with fresh proof (stored
 * with `secondFactor: true`, recovery codes once), asked for at the next sign-in's code step
 * (passing it gives the session; another user's key, or the same assertion again, does not), and
 * removed, which turns two-factor authentication off.
 */
import { expect } from "vitest"
import type { Adapter } from "../../src/adapters.js"
import { hashPassword } from "../../src/password/hash.js"
import Passkey from "../../src/providers/passkey.js"
import Password from "../../src/providers/password.js"
import type { AuthConfig } from "../../src/types.js"
import { SoftAuthenticator, type CeremonyInput } from "./authenticator.js"
import { Browser, ORIGIN, SECRET } from "./request.js"

const FAST = { ln: 10, r: 8, p: 1 }
const PASSWORD = "correct horse battery"

const ceremony = (challenge: string): CeremonyInput => ({
  challenge,
  origin: ORIGIN,
  rpId: "localhost",
  flags: { userVerified: false },
})

export function keyConfig(adapter: Adapter, strategy: "jwt" | "database"): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy },
    experimental: { enableWebAuthn: true },
    twoFactor: {},
    providers: [Password({ scrypt: FAST, sendMail: () => {} }), Passkey()],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  }
}

async function post(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch(path, { form: { csrfToken, ...form } })
  const location = response.headers.get("location")
  return { response, location: location ? new URL(location) : null }
}

async function signIn(config: AuthConfig, email: string) {
  const browser = new Browser(config)
  const { location } = await post(browser, "/auth/callback/password", {
    email,
    password: PASSWORD,
    callbackUrl: "/home",
  })
  return { browser, location }
}

async function addKey(browser: Browser, key: SoftAuthenticator) {
  const options = await (await browser.fetch("/auth/two-factor/security-key-setup")).json()
  const { credential, response } = key.create(
    ceremony(options.options.challenge),
    options.options.user.id,
  )
  const answer = await browser.fetch("/auth/two-factor/security-key-setup", {
    form: { csrfToken: await browser.csrfToken(), data: JSON.stringify(response) },
    headers: { "x-auth-return-redirect": "1" },
  })
  expect(answer.status).toBe(200)
  return { credential, body: (await answer.json()) as { recoveryCodes?: string[] } }
}

async function assertion(
  browser: Browser,
  key: SoftAuthenticator,
  credential: Parameters<SoftAuthenticator["get"]>[0],
) {
  const options = await (await browser.fetch("/auth/two-factor/security-key")).json()
  return key.get(credential, ceremony(options.options.challenge))
}

/** Runs the scenario with `config` (its adapter empty of these users). */
export async function securityKeyScenario(config: AuthConfig): Promise<void> {
  const adapter = config.adapter!
  const users = []
  for (const email of ["ada@example.com", "bob@example.com"]) {
    const user = await adapter.createUser!({
      id: crypto.randomUUID(),
      email,
      emailVerified: new Date("2026-01-01"),
    })
    await adapter.setPasswordHash!(user.id, await hashPassword(PASSWORD, FAST))
    users.push(user)
  }
  const [ada, bob] = users as [(typeof users)[0], (typeof users)[0]]

  // Ada adds a key; Bob too.
  const adaKey = new SoftAuthenticator()
  const first = await signIn(config, ada.email)
  expect(first.location!.pathname).toBe("/home")
  const added = await addKey(first.browser, adaKey)
  expect(added.body.recoveryCodes).toHaveLength(10)
  const stored = await adapter.listAuthenticatorsByUserId!(ada.id)
  expect(stored).toHaveLength(1)
  expect(stored[0]!.secondFactor).toBe(true)
  const bobKey = new SoftAuthenticator()
  const bobs = await addKey((await signIn(config, bob.email)).browser, bobKey)

  // The next sign-in waits for the key; Bob's key is refused, Ada's completes it.
  const next = await signIn(config, ada.email)
  expect(next.location!.pathname).toBe("/auth/two-factor")
  const wrong = await post(next.browser, "/auth/two-factor/security-key", {
    data: JSON.stringify(await assertion(next.browser, bobKey, bobs.credential)),
  })
  expect(wrong.location!.searchParams.get("code")).toBe("key_refused")
  const signed = await assertion(next.browser, adaKey, adaKey.credentials.values().next().value!)
  const challengeCookies = [...next.browser.cookies].filter(([n]) => n.includes("challenge"))
  const right = await post(next.browser, "/auth/two-factor/security-key", {
    data: JSON.stringify(signed),
  })
  expect(right.location!.pathname).toBe("/home")
  const session = await (await next.browser.fetch("/auth/session")).json()
  expect(session.user.email).toBe(ada.email)
  expect((await adapter.getAuthenticator!(stored[0]!.credentialID))!.counter).toBe(1)

  // The same assertion, replayed with its challenge cookie by another pending sign-in.
  const replay = await signIn(config, ada.email)
  for (const [name, value] of challengeCookies) replay.browser.cookies.set(name, value)
  const replayed = await post(replay.browser, "/auth/two-factor/security-key", {
    data: JSON.stringify(signed),
  })
  expect(replayed.location!.searchParams.get("code")).toBe("key_refused")

  // Removing the only key (fresh proof with it: the sign-in just now) turns it off.
  const removed = await post(next.browser, "/auth/two-factor/security-key-remove", {
    id: stored[0]!.credentialID,
    callbackUrl: "/profile",
  })
  expect(removed.location!.pathname).toBe("/profile")
  expect(await adapter.listAuthenticatorsByUserId!(ada.id)).toHaveLength(0)
  expect((await signIn(config, ada.email)).location!.pathname).toBe("/home")
}
