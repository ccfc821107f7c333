/**
 * The OAuth options and behaviours Auth.js apps rely on, against the real OpenID Provider of the
 * other tests: a plain OAuth 2.0 provider whose token endpoint also returns an `id_token`, the
 * `account(tokens)` callback, `userinfo.request`, `token.request` (which Auth.js 0.41.3 no longer
 * calls), `checks: ["none"]`, and users whose provider gives no email address.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { AdapterUser } from "../../src/adapters.js"
import type { OAuthConfig, OIDCConfig } from "../../src/providers/index.js"
import type { AuthConfig, JWTCallbackParams, TokenSet } from "../../src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import {
  ACCOUNTS,
  CLIENTS,
  login,
  startOP,
  type AccountName,
  type OP,
} from "../helpers/oidc-provider.js"
import { Browser, ORIGIN, testConfig, writtenCookies } from "../helpers/request.js"

const alice = ACCOUNTS.alice.claims
const STATE = "authjs.state"
const PKCE = "authjs.pkce.code_verifier"
const NONCE = "authjs.nonce"

let op: OP
/** A provider that does not require PKCE, for `checks: ["none"]`. */
let lax: OP
beforeAll(async () => {
  ;[op, lax] = await Promise.all([
    startOP(),
    startOP({ configuration: { pkce: { required: () => false } } }),
  ])
})
afterAll(async () => {
  await Promise.all([op?.stop(), lax?.stop()])
})

/**
 * A plain OAuth 2.0 provider: explicit endpoints, no issuer, the GitHub-style profile API.
 * With `openid` in its scope, the server's token response carries an `id_token` too.
 */
function plainOAuth(server: OP, extra: Record<string, unknown> = {}): OAuthConfig {
  return {
    id: "oauth",
    name: "Plain OAuth",
    type: "oauth",
    ...CLIENTS.basic,
    authorization: {
      url: server.endpoints.authorization,
      params: { scope: "openid profile email" },
    },
    token: server.endpoints.token,
    userinfo: server.endpoints.api,
    ...extra,
  } as OAuthConfig
}

function setup(
  provider: OAuthConfig | OIDCConfig,
  extra: Partial<AuthConfig> = {},
): {
  browser: Browser
  adapter: MemoryAdapter
  jwt: ReturnType<typeof vi.fn<(params: JWTCallbackParams) => JWTCallbackParams["token"]>>
  error: ReturnType<typeof vi.fn>
} {
  const adapter = memoryAdapter()
  const jwt = vi.fn<(params: JWTCallbackParams) => JWTCallbackParams["token"]>(({ token }) => token)
  const error = vi.fn()
  const config = testConfig({
    adapter,
    session: { strategy: "jwt" },
    providers: [provider],
    callbacks: { jwt },
    logger: { error, warn: () => {}, debug: () => {} },
    ...extra,
  })
  return { browser: new Browser(config), adapter, jwt, error }
}

/** Starts the sign-in, signs in at the provider, and follows the way back to Latch. */
async function signIn(
  browser: Browser,
  provider: string,
  account: AccountName = "alice",
): Promise<{ start: Response; response: Response; requests: string[] }> {
  const csrfToken = await browser.csrfToken()
  const start = await browser.fetch(`/auth/signin/${provider}`, {
    form: { csrfToken, callbackUrl: "/dashboard" },
  })
  expect(start.status).toBe(302)
  const back = await login(browser, start.headers.get("location")!, { account })
  // What the providers receive while Latch answers the callback.
  const before = [op.requests.length, lax.requests.length] as const
  const response = await browser.fetch(back)
  const requests = [...op.requests.slice(before[0]), ...lax.requests.slice(before[1])]
  return { start, response, requests }
}

function expectSignedInTo(response: Response): void {
  expect(response.status).toBe(302)
  expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
}

/** The account rows the adapter stores. */
const rows = (adapter: MemoryAdapter) => [...adapter.accounts.values()]

describe("a plain OAuth 2.0 provider whose token endpoint also returns an id_token", () => {
  it("signs in: the profile comes from userinfo, the id_token is kept on the account unvalidated", async () => {
    const { browser, adapter, jwt, error } = setup(plainOAuth(op))
    const { response, requests } = await signIn(browser, "oauth")

    expectSignedInTo(response)
    expect(error).not.toHaveBeenCalled()
    // No discovery and no JWKS: nothing validates the ID token of a plain OAuth provider.
    expect(requests).toEqual(["POST /token", "GET /api/user"])
    const { account, profile } = jwt.mock.calls[0]![0]
    expect(profile).toMatchObject({ id: "alice", login: "alice", email: alice.email })
    expect(String(account?.id_token).split(".")).toHaveLength(3)
    expect(account).toMatchObject({ provider: "oauth", type: "oauth", providerAccountId: "alice" })
    const [row] = rows(adapter)
    expect(row?.id_token).toBe(account?.id_token)
    expect((await browser.session())?.user?.email).toBe(alice.email)
  })
})

describe("the account(tokens) callback", () => {
  it("decides what the account row holds, from every token field plus expires_at", async () => {
    const account = vi.fn((tokens: TokenSet) => ({
      access_token: tokens.access_token,
      expires_at: tokens.expires_at,
      refresh_token_expires_at: 1234,
    }))
    const { browser, adapter } = setup(plainOAuth(op, { account }))
    const { response } = await signIn(browser, "oauth")
    expectSignedInTo(response)

    expect(account).toHaveBeenCalledTimes(1)
    const tokens = account.mock.calls[0]![0]
    expect(tokens).toMatchObject({ token_type: "bearer", expires_in: 3600 })
    expect(typeof tokens.access_token).toBe("string")
    expect(typeof tokens.id_token).toBe("string")
    expect(tokens.expires_at).toBeGreaterThan(Date.now() / 1000)

    const [row] = rows(adapter)
    expect(row).toEqual({
      access_token: tokens.access_token,
      expires_at: tokens.expires_at,
      refresh_token_expires_at: 1234,
      provider: "oauth",
      type: "oauth",
      providerAccountId: "alice",
      userId: expect.any(String),
    })
  })

  it("returning nothing stores no tokens", async () => {
    const { browser, adapter } = setup(plainOAuth(op, { account: () => undefined }))
    expectSignedInTo((await signIn(browser, "oauth")).response)
    expect(rows(adapter)).toEqual([
      { provider: "oauth", type: "oauth", providerAccountId: "alice", userId: expect.any(String) },
    ])
  })

  it("by default, the row keeps the token set's fields", async () => {
    const { browser, adapter } = setup(plainOAuth(op))
    expectSignedInTo((await signIn(browser, "oauth")).response)
    const [row] = rows(adapter)
    expect(row).toMatchObject({ token_type: "bearer", scope: "openid profile email" })
    for (const field of ["access_token", "id_token", "expires_at"] as const) {
      expect(row?.[field], field).toBeDefined()
    }
  })
})

describe("userinfo.request and token.request", () => {
  it("userinfo.request({ tokens, provider }) gives the profile", async () => {
    const request = vi.fn(async ({ tokens }: { tokens: TokenSet }) => {
      const response = await fetch(op.endpoints.api, {
        headers: { authorization: `Bearer ${String(tokens.access_token)}` },
      })
      return { ...((await response.json()) as object), name: "From request" }
    })
    const { browser, jwt } = setup(plainOAuth(op, { userinfo: { url: op.endpoints.api, request } }))
    expectSignedInTo((await signIn(browser, "oauth")).response)
    expect(request).toHaveBeenCalledTimes(1)
    const context = request.mock.calls[0]![0] as unknown as Record<string, any>
    expect(typeof context.tokens.access_token).toBe("string")
    expect(context.provider).toMatchObject({ id: "oauth", type: "oauth" })
    expect(jwt.mock.calls[0]![0].user).toMatchObject({ name: "From request" })
    expect((await browser.session())?.user?.name).toBe("From request")
  })

  it("token.request is not called (as in Auth.js 0.41.3): the code goes to the token endpoint", async () => {
    const request = vi.fn(() => {
      throw new Error("token.request must not run")
    })
    const { browser, error } = setup(
      plainOAuth(op, { token: { url: op.endpoints.token, request } }),
    )
    const { response, requests } = await signIn(browser, "oauth")
    expectSignedInTo(response)
    expect(request).not.toHaveBeenCalled()
    expect(requests).toContain("POST /token")
    expect(error).not.toHaveBeenCalled()
  })
})

describe('checks: ["none"]', () => {
  it("a plain OAuth provider signs in with no PKCE, state or nonce", async () => {
    const { browser, error } = setup(
      plainOAuth(lax, {
        checks: ["none"],
        authorization: { url: lax.endpoints.authorization, params: { scope: "profile email" } },
      }),
    )
    const { start, response } = await signIn(browser, "oauth")
    const params = new URL(start.headers.get("location")!).searchParams
    for (const name of ["state", "code_challenge", "code_challenge_method", "nonce"]) {
      expect(params.has(name), name).toBe(false)
    }
    expect(writtenCookies(start)).not.toEqual(expect.arrayContaining([STATE]))
    for (const name of [STATE, PKCE, NONCE]) expect(writtenCookies(start)).not.toContain(name)
    expectSignedInTo(response)
    expect(error).not.toHaveBeenCalled()
  })

  it("an OpenID Connect provider signs in with no PKCE, state or nonce", async () => {
    const provider = {
      id: "op",
      name: "Test OP",
      type: "oidc",
      issuer: lax.issuer,
      ...CLIENTS.basic,
      checks: ["none"],
    } as unknown as OIDCConfig
    const { browser, error } = setup(provider)
    const { start, response } = await signIn(browser, "op")
    const params = new URL(start.headers.get("location")!).searchParams
    for (const name of ["state", "code_challenge", "nonce"])
      expect(params.has(name), name).toBe(false)
    for (const name of [STATE, PKCE, NONCE]) expect(writtenCookies(start)).not.toContain(name)
    expectSignedInTo(response)
    expect((await browser.session())?.user?.email).toBe(alice.email)
    expect(error).not.toHaveBeenCalled()
  })
})

describe("users whose provider gives no email address", () => {
  it("are created with email: null, and two of them can both sign up", async () => {
    // As X/Twitter, or a GitHub account with a private address: no email in the profile.
    const { adapter } = setup(plainOAuth(op))
    const created: AdapterUser[] = []
    const createUser = adapter.createUser!.bind(adapter)
    adapter.createUser = (user) => {
      created.push(user)
      return createUser(user)
    }
    const provider = plainOAuth(op, {
      profile: (profile: Record<string, unknown>) => ({
        id: String(profile.id),
        name: String(profile.name),
        image: null,
      }),
    })
    const config = testConfig({
      adapter,
      session: { strategy: "jwt" },
      providers: [provider],
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    })
    for (const account of ["alice", "bob"] as const) {
      const browser = new Browser(config)
      expectSignedInTo((await signIn(browser, "oauth", account)).response)
      expect((await browser.session())?.user).toMatchObject({ email: null })
    }
    expect(created).toHaveLength(2)
    for (const user of created) expect(user.email).toBeNull()
    expect([...adapter.users.values()].map((user) => user.email)).toEqual([null, null])
    expect(
      rows(adapter)
        .map((row) => row.providerAccountId)
        .sort(),
    ).toEqual(["alice", "bob"])
  })
})
