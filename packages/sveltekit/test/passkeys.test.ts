/**
 * A signed-in user's passkeys in SvelteKit: `getSignInMethods` with each passkey's details,
 * `getPasskeySignals` for the browser's Signal API, and the `renamePasskey` form action driven
 * with request events as a page's actions get them. Core's tests cover the flows' rules (who may
 * rename what, the name's limits); these check what the integration adds: the fields it posts,
 * the refusals thrown to the page, the redirect.
 */
import { hashPassword } from "@latch/core/providers/password"
import { isRedirect } from "@sveltejs/kit"
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../core/test/helpers/memory-adapter.js"
import {
  AccountError,
  getPasskeySignals,
  getSignInMethods,
  SvelteKitAuth,
  type AuthFormAction,
  type PasskeySignals,
  type SignInMethod,
} from "../src/lib/index.js"
import Passkey from "../src/lib/providers/passkey.js"
import Password from "../src/lib/providers/password.js"
import { testConfig } from "./helpers/config.js"
import { Browser, ORIGIN } from "./helpers/event.js"

const FAST = { ln: 10, r: 8, p: 1 }
const PASSWORD = "an old passphrase, long enough"
/** A credential id as stored (padded standard base64) and as the browser has it (base64url). */
const STORED_ID = Buffer.from("credential-1").toString("base64")
const BROWSER_ID = Buffer.from("credential-1").toString("base64url")

async function setup() {
  const adapter = memoryAdapter()
  const auth = SvelteKitAuth(
    testConfig({
      adapter,
      session: { strategy: "database" },
      experimental: { enableWebAuthn: true },
      providers: [Password({ scrypt: FAST, sendMail: () => {} }), Passkey({})],
    }),
  )
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email: "ada@example.com",
    name: "Ada",
    emailVerified: new Date("2026-01-01"),
  })
  adapter.passwords.set(user.id, await hashPassword(PASSWORD, FAST))
  // A passkey as a registration stores it: the credential, and its "webauthn" account.
  await adapter.linkAccount!({
    userId: user.id,
    type: "webauthn",
    provider: "passkey",
    providerAccountId: STORED_ID,
  })
  await adapter.createAuthenticator!({
    credentialID: STORED_ID,
    providerAccountId: STORED_ID,
    userId: user.id,
    credentialPublicKey: "AAAA",
    counter: 0,
    credentialDeviceType: "multiDevice",
    credentialBackedUp: true,
    transports: "internal",
    name: "iCloud Keychain",
    createdAt: new Date("2026-11-01T10:00:00Z"),
    lastUsedAt: null,
    aaguid: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd",
    createdBy: "Safari on macOS",
    secondFactor: false,
  })
  const browser = new Browser(auth.handle)
  const signIn = await submit(browser, auth.signIn, "/signin", {
    providerId: "password",
    email: user.email,
    password: PASSWORD,
  })
  expect(isRedirect(signIn)).toBe(true)
  return { adapter, auth, browser, user }
}

/** Runs a form action for `browser`, as a page's action; returns what it threw. */
async function submit(
  browser: Browser,
  action: AuthFormAction,
  path: string,
  form: Record<string, string>,
): Promise<unknown> {
  const event = browser.event(path, {
    form,
    headers: { origin: ORIGIN, referer: `${ORIGIN}/account` },
  })
  let thrown: unknown
  try {
    await action(event)
    throw new Error("the action returned")
  } catch (error) {
    thrown = error
  }
  browser.store({ response: new Response(), event })
  return thrown
}

async function load(browser: Browser) {
  let methods: SignInMethod[] | null = null
  let signals: PasskeySignals | null | undefined
  await browser.fetch("/account", {}, async (event) => {
    methods = await getSignInMethods(event)
    signals = await getPasskeySignals(event)
  })
  return { methods: methods as SignInMethod[] | null, signals }
}

describe("a user's passkeys", () => {
  it("getSignInMethods gives each passkey's details; getPasskeySignals what the Signal API takes", async () => {
    const { browser, user } = await setup()
    const { methods, signals } = await load(browser)
    expect(methods!.find((m) => m.type === "webauthn")).toEqual({
      type: "webauthn",
      provider: "passkey",
      providerName: "Passkey",
      id: STORED_ID,
      label: "Synced passkey",
      removable: true,
      passkey: {
        name: "iCloud Keychain",
        createdAt: "2026-11-01T10:00:00.000Z",
        lastUsedAt: null,
        synced: true,
        backedUp: true,
        model: "iCloud Keychain",
        aaguid: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd",
        createdBy: "Safari on macOS",
        renamable: true,
      },
    })
    expect(signals).toEqual({
      rpId: "localhost",
      userId: Buffer.from(user.id).toString("base64url"),
      name: "ada@example.com",
      displayName: "Ada",
      allAcceptedCredentialIds: [BROWSER_ID],
    })
    expect((await load(new Browser(browser.handle))).signals).toBeNull()
  })

  it("renamePasskey renames it and returns to the page (303)", async () => {
    const { adapter, auth, browser } = await setup()
    const thrown = await submit(browser, auth.renamePasskey, "/account?/rename", {
      id: STORED_ID,
      name: " Phone ",
    })
    if (!isRedirect(thrown)) throw thrown
    expect(thrown.status).toBe(303)
    expect(new URL(thrown.location, ORIGIN).href).toBe(`${ORIGIN}/account`)
    expect(adapter.authenticators.get(STORED_ID)!.name).toBe("Phone")
    const { methods } = await load(browser)
    expect(methods!.find((m) => m.type === "webauthn")!.passkey!.name).toBe("Phone")
  })

  it("renamePasskey throws AccountError for a bad name, another id, and no session", async () => {
    const { adapter, auth, browser } = await setup()
    const cases: Array<[Record<string, string>, string]> = [
      [{ id: STORED_ID, name: "" }, "invalid_name"],
      [{ id: STORED_ID, name: "a\nb" }, "invalid_name"],
      [{ id: STORED_ID, name: "x".repeat(65) }, "invalid_name"],
      [{ id: "c29tZW9uZSBlbHNl", name: "mine now" }, "not_found"],
      [{ name: "no id" }, "not_found"],
    ]
    for (const [form, code] of cases) {
      const thrown = await submit(browser, auth.renamePasskey, "/account", form)
      if (isRedirect(thrown)) throw new Error(`redirected to ${thrown.location}`)
      expect(thrown, JSON.stringify(form)).toBeInstanceOf(AccountError)
      expect((thrown as AccountError).code, JSON.stringify(form)).toBe(code)
    }
    const visitor = new Browser(auth.handle)
    const thrown = await submit(visitor, auth.renamePasskey, "/account", {
      id: STORED_ID,
      name: "x",
    })
    expect((thrown as AccountError).code).toBe("signed_out")
    expect(adapter.authenticators.get(STORED_ID)!.name).toBe("iCloud Keychain")
  })
})
