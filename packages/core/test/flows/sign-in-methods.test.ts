/**
 * The signed-in user's sign-in methods (`GET /auth/account`, `POST /auth/unlink/<provider>`,
 * `listSignInMethods`), and the rule that keeps unverified password accounts second-class: they
 * adopt no other method, and a method that adopts one by email drops its password. Against the
 * real OpenID Provider of the other tests.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { listSignInMethods } from "../../src/index.js"
import { hashPassword } from "../../src/password/hash.js"
import Passkey from "../../src/providers/passkey.js"
import Password from "../../src/providers/password.js"
import type { OIDCConfig } from "../../src/providers/index.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { ACCOUNTS, CLIENTS, login, startOP, type OP } from "../helpers/oidc-provider.js"
import { Browser, ORIGIN, SECRET } from "../helpers/request.js"

const FAST = { ln: 10, r: 8, p: 1 }
const PASSWORD = "correct horse battery"
const alice = ACCOUNTS.alice.claims

let op: OP
beforeAll(async () => {
  op = await startOP()
})
afterAll(async () => {
  await op?.stop()
})

function setup(
  strategy: "jwt" | "database",
  provider: Partial<OIDCConfig> = {},
  options: { requireEmailVerification?: boolean } = {},
): { adapter: MemoryAdapter; config: AuthConfig } {
  const adapter = memoryAdapter()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy },
    experimental: { enableWebAuthn: true },
    providers: [
      Password({ scrypt: FAST, sendMail: () => {}, ...options }),
      { id: "op", name: "Test OP", type: "oidc", issuer: op.issuer, ...CLIENTS.basic, ...provider },
      Passkey({}),
    ],
    logger: { error: vi.fn(), warn: () => {}, debug: () => {} },
  }
  return { adapter, config }
}

async function passwordUser(adapter: MemoryAdapter, email: string, verified = true) {
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email,
    emailVerified: verified ? new Date("2026-01-01") : null,
  })
  adapter.passwords.set(user.id, await hashPassword(PASSWORD, FAST))
  return user
}

async function signIn(config: AuthConfig, email: string) {
  const browser = new Browser(config)
  const csrfToken = await browser.csrfToken()
  await browser.fetch("/auth/callback/password", {
    form: { csrfToken, email, password: PASSWORD },
  })
  return browser
}

async function signInWithOP(browser: Browser): Promise<Response> {
  const csrfToken = await browser.csrfToken()
  const start = await browser.fetch("/auth/signin/op", {
    form: { csrfToken, callbackUrl: "/home" },
  })
  return browser.fetch(await login(browser, start.headers.get("location")!))
}

async function methods(browser: Browser) {
  const response = await browser.fetch("/auth/account")
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

async function unlink(browser: Browser, provider: string, id: string) {
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch(`/auth/unlink/${provider}`, {
    form: { csrfToken, id, callbackUrl: "/profile" },
  })
  return new URL(response.headers.get("location")!)
}

describe.each(["database", "jwt"] as const)("sign-in methods (%s sessions)", (strategy) => {
  it("lists nothing for a signed-out request", async () => {
    const { config } = setup(strategy)
    const { status, body } = await methods(new Browser(config))
    expect(status).toBe(401)
    expect(body.error).toBe("SessionRequired")
    expect(await listSignInMethods(new Request(`${ORIGIN}/profile`), config)).toBeNull()
  })

  it("lists the password and a linked OAuth account; links deliberately while signed in", async () => {
    const { adapter, config } = setup(strategy)
    const user = await passwordUser(adapter, "ada@example.com")
    const browser = await signIn(config, "ada@example.com")
    expect((await methods(browser)).body.methods).toEqual([
      {
        type: "password",
        provider: "password",
        providerName: "Password",
        id: "",
        removable: false,
      },
    ])

    // A sign-in with the OP while signed in links it to this user, whatever its address.
    await signInWithOP(browser)
    expect([...adapter.accounts.values()]).toEqual([
      expect.objectContaining({ provider: "op", providerAccountId: "alice", userId: user.id }),
    ])
    const listed = (await methods(browser)).body.methods
    expect(listed).toEqual([
      { type: "oidc", provider: "op", providerName: "Test OP", id: "alice", removable: true },
      { type: "password", provider: "password", providerName: "Password", id: "", removable: true },
    ])
    const request = new Request(`${ORIGIN}/profile`, {
      headers: { cookie: browser.cookieHeader() },
    })
    expect(await listSignInMethods(request, config)).toEqual(listed)
  })

  it("removes a method, but never the last way in", async () => {
    const { adapter, config } = setup(strategy)
    const user = await passwordUser(adapter, "ada@example.com")
    const browser = await signIn(config, "ada@example.com")
    await signInWithOP(browser)

    const removed = await unlink(browser, "op", "alice")
    expect(removed.href).toBe(`${ORIGIN}/profile`)
    expect(adapter.accounts.size).toBe(0)

    const refused = await unlink(browser, "password", "")
    expect(refused.pathname).toBe("/profile")
    expect(refused.searchParams.get("error")).toBe("AccountError")
    expect(refused.searchParams.get("code")).toBe("last_method")
    expect(adapter.passwords.has(user.id)).toBe(true)
  })

  it("removes a passkey with its account row", async () => {
    const { adapter, config } = setup(strategy)
    const user = await passwordUser(adapter, "ada@example.com")
    await adapter.linkAccount!({
      userId: user.id,
      type: "webauthn",
      provider: "passkey",
      providerAccountId: "cred-1",
    })
    await adapter.createAuthenticator!({
      userId: user.id,
      credentialID: "cred-1",
      providerAccountId: "cred-1",
      counter: 0,
      credentialBackedUp: true,
      credentialDeviceType: "multiDevice",
      credentialPublicKey: "AAAA",
    })
    const browser = await signIn(config, "ada@example.com")
    expect((await methods(browser)).body.methods[0]).toMatchObject({
      type: "webauthn",
      id: "cred-1",
      label: "Synced passkey",
      removable: true,
    })
    await unlink(browser, "passkey", "cred-1")
    expect(await adapter.getAuthenticator!("cred-1")).toBeNull()
    expect(adapter.accounts.size).toBe(0)
  })

  it("refuses to remove what is not the user's, and a post without CSRF token", async () => {
    const { adapter, config } = setup(strategy)
    await passwordUser(adapter, "ada@example.com")
    const other = await passwordUser(adapter, "bob@example.com")
    await adapter.linkAccount!({
      userId: other.id,
      type: "oidc",
      provider: "op",
      providerAccountId: "bobs",
    })
    const browser = await signIn(config, "ada@example.com")
    const refused = await unlink(browser, "op", "bobs")
    expect(refused.searchParams.get("code")).toBe("not_found")
    expect(adapter.accounts.size).toBe(1)

    const forged = await browser.fetch("/auth/unlink/password", { form: { id: "" } })
    expect(new URL(forged.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
    const signedOut = await unlink(new Browser(config), "password", "")
    expect(signedOut.searchParams.get("code")).toBe("signed_out")
  })

  describe("unverified password accounts (pre-hijacking)", () => {
    it("adopt no OAuth account: linking while signed in is refused", async () => {
      const { adapter, config } = setup(strategy, {}, { requireEmailVerification: false })
      await passwordUser(adapter, "victim@example.com", false)
      const browser = await signIn(config, "victim@example.com")
      expect(await browser.session()).not.toBeNull()
      const response = await signInWithOP(browser)
      const url = new URL(response.headers.get("location")!)
      expect(url.searchParams.get("error")).toBe("AccountError")
      expect(url.searchParams.get("code")).toBe("unverified")
      expect(adapter.accounts.size).toBe(0)
    })

    it("lose the password when a provider that links by email adopts them", async () => {
      const { adapter, config } = setup(strategy, { allowDangerousEmailAccountLinking: true })
      const squatter = await passwordUser(adapter, alice.email, false)
      const browser = new Browser(config)
      await signInWithOP(browser)
      expect([...adapter.accounts.values()][0]).toMatchObject({ userId: squatter.id })
      expect(adapter.passwords.has(squatter.id)).toBe(false)
    })

    it("keep the password of a verified account that a provider adopts by email", async () => {
      const { adapter, config } = setup(strategy, { allowDangerousEmailAccountLinking: true })
      const owner = await passwordUser(adapter, alice.email, true)
      await signInWithOP(new Browser(config))
      expect(adapter.passwords.has(owner.id)).toBe(true)
    })
  })
})
