/**
 * OAuth sign-ins with an adapter: the user is matched to a stored one, created on first sign-in,
 * linked when signed in, and refused (OAuthAccountNotLinked) when another user has the email —
 * unless the provider allows email linking. Against the real OpenID Provider of the other tests.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { OIDCConfig } from "../../src/providers/index.js"
import type { AuthConfig, JWTCallbackParams } from "../../src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { ACCOUNTS, CLIENTS, login, startOP, type OP } from "../helpers/oidc-provider.js"
import { ALICE, Browser, ORIGIN, storedTokenOf, testConfig } from "../helpers/request.js"

let op: OP
beforeAll(async () => {
  op = await startOP()
})
afterAll(async () => {
  await op?.stop()
})

const alice = ACCOUNTS.alice.claims

function setup(
  provider: Partial<OIDCConfig> = {},
  extra: Partial<AuthConfig> = {},
): { browser: Browser; adapter: MemoryAdapter; events: Record<string, ReturnType<typeof vi.fn>> } {
  const adapter = memoryAdapter()
  const events = { createUser: vi.fn(), linkAccount: vi.fn(), signIn: vi.fn() }
  const base = testConfig()
  const config = testConfig({
    adapter,
    // JWT sessions with stored users: the adapter keeps users and accounts.
    session: { strategy: "jwt" },
    providers: [
      ...base.providers,
      { id: "op", name: "Test OP", type: "oidc", issuer: op.issuer, ...CLIENTS.basic, ...provider },
    ],
    events,
    ...extra,
  })
  return { browser: new Browser(config), adapter, events }
}

async function signInWithOP(browser: Browser): Promise<Response> {
  const csrfToken = await browser.csrfToken()
  const start = await browser.fetch("/auth/signin/op", {
    form: { csrfToken, callbackUrl: "/home" },
  })
  return browser.fetch(await login(browser, start.headers.get("location")!))
}

describe("OAuth sign-in with an adapter", () => {
  it("creates the user and links the account on the first sign-in, then finds them again", async () => {
    const jwt = vi.fn<(params: JWTCallbackParams) => JWTCallbackParams["token"]>(
      ({ token }) => token,
    )
    const { browser, adapter, events } = setup({}, { callbacks: { jwt } })

    const first = await signInWithOP(browser)
    expect(first.headers.get("location")).toBe(`${ORIGIN}/home`)
    expect(adapter.users.size).toBe(1)
    const [user] = [...adapter.users.values()]
    expect(user).toMatchObject({ email: alice.email, name: alice.name, emailVerified: null })
    expect([...adapter.accounts.values()]).toEqual([
      expect.objectContaining({ provider: "op", providerAccountId: "alice", userId: user!.id }),
    ])
    expect(events.createUser).toHaveBeenCalledTimes(1)
    expect(events.linkAccount).toHaveBeenCalledTimes(1)
    expect(events.signIn).toHaveBeenCalledWith(expect.objectContaining({ isNewUser: true }))
    expect(jwt.mock.calls[0]![0]).toMatchObject({ trigger: "signUp", isNewUser: true })
    // The session's subject is the stored user, not the provider's id.
    expect(jwt.mock.calls[0]![0].token.sub).toBe(user!.id)

    await browser.fetch("/auth/signout", { form: { csrfToken: await browser.csrfToken() } })
    await signInWithOP(browser)
    expect(adapter.users.size).toBe(1)
    expect(adapter.accounts.size).toBe(1)
    expect(events.createUser).toHaveBeenCalledTimes(1)
    expect(jwt.mock.calls.at(-1)![0]).toMatchObject({ trigger: "signIn", isNewUser: false })
  })

  it("sends a new user to pages.newUser", async () => {
    const { browser } = setup({}, { pages: { newUser: "/welcome" } })
    const response = await signInWithOP(browser)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/welcome`)
  })

  it("refuses an account whose email belongs to another user (OAuthAccountNotLinked)", async () => {
    const { browser, adapter, events } = setup()
    adapter.users.set("existing", {
      id: "existing",
      email: alice.email,
      name: "Other",
      emailVerified: null,
    })

    const response = await signInWithOP(browser)
    const url = new URL(response.headers.get("location")!)
    expect(url.pathname).toBe("/auth/signin")
    expect(url.searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(browser.cookies.has("authjs.session-token")).toBe(false)
    expect(adapter.accounts.size).toBe(0)
    expect(events.linkAccount).not.toHaveBeenCalled()
  })

  it("links by email when the provider allows it", async () => {
    const { browser, adapter } = setup({ allowDangerousEmailAccountLinking: true })
    adapter.users.set("existing", {
      id: "existing",
      email: alice.email,
      name: "Other",
      emailVerified: null,
    })

    await signInWithOP(browser)
    expect(adapter.users.size).toBe(1)
    expect([...adapter.accounts.values()][0]).toMatchObject({ userId: "existing", provider: "op" })
    expect(await browser.session()).toMatchObject({ user: { email: alice.email } })
  })

  it("links the provider to the signed-in user", async () => {
    const { browser, adapter } = setup()
    adapter.users.set(ALICE.id, {
      ...ALICE,
      email: "someone-else@example.com",
      emailVerified: null,
    })
    await browser.signIn() // credentials: the session's subject is ALICE.id

    await signInWithOP(browser)
    expect(adapter.users.size).toBe(1)
    expect([...adapter.accounts.values()][0]).toMatchObject({ userId: ALICE.id, provider: "op" })
  })

  it("never moves an account that belongs to another user to the signed-in one", async () => {
    const { browser, adapter } = setup()
    adapter.users.set("owner", { id: "owner", email: "owner@example.com", emailVerified: null })
    adapter.accounts.set("op\u0000alice", {
      provider: "op",
      providerAccountId: "alice",
      type: "oidc",
      userId: "owner",
    })
    adapter.users.set(ALICE.id, { ...ALICE, emailVerified: null })
    await browser.signIn()

    const response = await signInWithOP(browser)
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(
      "OAuthAccountNotLinked",
    )
    expect(adapter.accounts.get("op\u0000alice")!.userId).toBe("owner")
  })

  it("shows a failing adapter as the Configuration error page, with no session", async () => {
    const { browser, adapter } = setup()
    adapter.getUserByAccount = () => {
      throw new Error("database is down")
    }
    const response = await signInWithOP(browser)
    const url = new URL(response.headers.get("location")!)
    expect(url.pathname).toBe("/auth/error")
    expect(url.searchParams.get("error")).toBe("Configuration")
    expect(browser.cookies.has("authjs.session-token")).toBe(false)
  })

  it("starts a database session for the stored user with the database strategy", async () => {
    const { browser, adapter } = setup({}, { session: { strategy: "database" } })
    await signInWithOP(browser)
    const [user] = [...adapter.users.values()]
    const [session] = [...adapter.sessions.values()]
    expect(session).toMatchObject({ userId: user!.id })
    expect(storedTokenOf(browser.cookies.get("authjs.session-token")!)).toBe(session!.sessionToken)
    expect(await browser.session()).toMatchObject({
      user: { email: alice.email, name: alice.name },
    })
  })

  it("links the provider to the user signed in with a database session", async () => {
    const { browser, adapter } = setup({}, { session: { strategy: "database" } })
    adapter.users.set(ALICE.id, {
      ...ALICE,
      email: "someone-else@example.com",
      emailVerified: null,
    })
    await browser.signIn()
    expect(adapter.sessions.size).toBe(1)

    await signInWithOP(browser)
    expect(adapter.users.size).toBe(1)
    expect([...adapter.accounts.values()][0]).toMatchObject({ userId: ALICE.id, provider: "op" })
  })
})
