/**
 * `useSecurityKey` and `addSecurityKey` (`@latch/sveltekit/webauthn`) in a page: their requests
 * answered in-process by a `handle`, the browser's WebAuthn API answered by a software
 * authenticator acting as a security key without user verification. A key added from a signed-in
 * session comes with recovery codes; the next sign-in's code step is answered with it; a
 * cancelled ceremony and a refused key come back as results, not exceptions.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { hashPassword } from "@latch/core/providers/password"
import { SoftAuthenticator } from "../../core/test/helpers/authenticator.js"
import { memoryAdapter, type MemoryAdapter } from "../../core/test/helpers/memory-adapter.js"
import { SvelteKitAuth } from "../src/lib/index.js"
import Passkey from "../src/lib/providers/passkey.js"
import Password from "../src/lib/providers/password.js"
import { addSecurityKey, useSecurityKey } from "../src/lib/security-key.js"
import { testConfig } from "./helpers/config.js"
import { Browser, ORIGIN } from "./helpers/event.js"

const FAST = { ln: 10, r: 8, p: 1 }
const PASSWORD = "an old passphrase, long enough"
const window = { location: { href: `${ORIGIN}/page`, reload() {} } }
const b64url = (bytes: ArrayBuffer | Uint8Array) =>
  Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString("base64url")

let browser: Browser
let handle: ReturnType<typeof SvelteKitAuth>["handle"]
let adapter: MemoryAdapter
let key: SoftAuthenticator
/** What the key does when asked: answer, or refuse as a browser does when the user cancels. */
let cancel = false

async function browserFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input), window.location.href)
  const method = (init.method ?? "GET").toUpperCase()
  const headers = new Headers(init.headers)
  if (method === "POST") headers.set("origin", ORIGIN)
  const { response } = await browser.fetch(`${url.pathname}${url.search}`, {
    ...init,
    method,
    headers,
  })
  return response
}

/** `navigator.credentials` as a security key without a PIN answers it. */
const credentials = {
  async create({ publicKey }: { publicKey: Record<string, any> }) {
    if (cancel) throw Object.assign(new Error("cancelled"), { name: "NotAllowedError" })
    const input = {
      challenge: b64url(publicKey.challenge),
      origin: ORIGIN,
      rpId: publicKey.rp.id,
      flags: { userVerified: false },
    }
    const { response } = key.create(input, b64url(publicKey.user.id))
    return { toJSON: () => response }
  },
  async get({ publicKey }: { publicKey: Record<string, any> }) {
    if (cancel) throw Object.assign(new Error("cancelled"), { name: "NotAllowedError" })
    const [credential] = key.credentials.values()
    const input = {
      challenge: b64url(publicKey.challenge),
      origin: ORIGIN,
      rpId: publicKey.rpId,
      flags: { userVerified: false },
    }
    const response = key.get(credential!, input)
    return { toJSON: () => response }
  },
}

beforeAll(() => {
  vi.stubGlobal("window", window)
  vi.stubGlobal("location", window.location)
  vi.stubGlobal("fetch", browserFetch)
  // No JSON parsers: the helpers' own conversion of the options is what runs.
  vi.stubGlobal("PublicKeyCredential", class {})
  vi.stubGlobal("navigator", { credentials })
})
afterAll(() => vi.unstubAllGlobals())

beforeEach(async () => {
  cancel = false
  key = new SoftAuthenticator()
  adapter = memoryAdapter()
  handle = SvelteKitAuth(
    testConfig({
      adapter,
      session: { strategy: "jwt" },
      experimental: { enableWebAuthn: true },
      twoFactor: {},
      providers: [Password({ scrypt: FAST, sendMail: () => {} }), Passkey({})],
    }),
  ).handle
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email: "ada@example.com",
    emailVerified: new Date("2026-01-01"),
  })
  adapter.passwords.set(user.id, await hashPassword(PASSWORD, FAST))
})

/** Signs a new browser in with the password; where the answer sends it. */
async function signIn(): Promise<URL> {
  browser = new Browser(handle)
  const response = await fetch("/auth/callback/password", {
    method: "POST",
    headers: { "x-auth-return-redirect": "1" },
    body: new URLSearchParams({
      email: "ada@example.com",
      password: PASSWORD,
      callbackUrl: "/home",
    }),
  })
  return new URL(((await response.json()) as { url: string }).url)
}

const session = async () => (await (await fetch("/auth/session")).json()) as Record<string, any>

describe("security keys in the browser", () => {
  it("adds a key (recovery codes, no redirect), then answers the code step with it", async () => {
    expect((await signIn()).pathname).toBe("/home")
    const added = await addSecurityKey({ callbackUrl: "/settings" })
    expect(added).toMatchObject({ ok: true, status: 200, url: `${ORIGIN}/settings` })
    expect(added.recoveryCodes).toHaveLength(10)
    // The codes must be shown: the browser stays.
    expect(window.location.href).toBe(`${ORIGIN}/page`)
    expect([...adapter.authenticators.values()][0]!.secondFactor).toBe(true)

    expect((await signIn()).pathname).toBe("/auth/two-factor")
    expect(await session()).toBeNull()
    const used = await useSecurityKey()
    expect(used).toMatchObject({ ok: true, url: `${ORIGIN}/home` })
    expect(window.location.href).toBe(`${ORIGIN}/home`)
    expect((await session()).user.email).toBe("ada@example.com")
  })

  it("a cancelled ceremony and a refused key are results", async () => {
    await signIn()
    await addSecurityKey({ redirect: false })
    await signIn()
    cancel = true
    expect(await useSecurityKey({ redirect: false })).toMatchObject({
      ok: false,
      status: 0,
      error: "NotAllowedError",
    })
    cancel = false
    // Another key than the one added: not this account's.
    key = new SoftAuthenticator()
    key.create({ challenge: "AAAA", origin: ORIGIN, rpId: "localhost" })
    const refused = await useSecurityKey({ redirect: false })
    expect(refused).toMatchObject({ ok: false, error: "TwoFactorError", code: "key_refused" })
    expect(await session()).toBeNull()
  })

  it("the code step's options need a pending sign-in", async () => {
    browser = new Browser(handle)
    const result = await useSecurityKey({ redirect: false })
    expect(result.ok).toBe(false)
    expect(result.status).toBeGreaterThanOrEqual(300)
  })
})
