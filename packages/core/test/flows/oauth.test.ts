/**
 * Whole OAuth 2.0 and OpenID Connect sign-ins against a real OpenID Provider (oidc-provider on
 * 127.0.0.1): Latch is driven with real `Request`s and a cookie jar, the provider's login and
 * consent pages over HTTP. Then the attacks: each must end on an error page with no session.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"

import { customFetch } from "../../src/markers.js"
import type { OAuthConfig, OIDCConfig, ProviderFetch } from "../../src/providers/index.js"
import type { AuthConfig, JWTCallbackParams } from "../../src/types.js"
import {
  ACCOUNTS,
  CLIENTS,
  login,
  PROXY_ORIGIN,
  startOP,
  type OP,
} from "../helpers/oidc-provider.js"
import {
  Browser,
  deletedCookies,
  ORIGIN,
  setCookies,
  testConfig,
  writtenCookies,
} from "../helpers/request.js"

const SESSION = "authjs.session-token"
const STATE = "authjs.state"
const PKCE = "authjs.pkce.code_verifier"
const NONCE = "authjs.nonce"
const alice = ACCOUNTS.alice.claims

let op: OP
let op2: OP

beforeAll(async () => {
  ;[op, op2] = await Promise.all([startOP(), startOP()])
})
afterAll(async () => {
  await Promise.all([op?.stop(), op2?.stop()])
})

/** The generic OIDC provider of the tests, on the client authenticating with HTTP Basic. */
function oidc(extra: Partial<OIDCConfig> = {}): OIDCConfig {
  return { id: "op", name: "Test OP", type: "oidc", issuer: op.issuer, ...CLIENTS.basic, ...extra }
}

/** A logger whose `error` is a spy. */
function config(providers: AuthConfig["providers"], extra: Partial<AuthConfig> = {}) {
  const error = vi.fn<(error: Error) => void>()
  const cfg = testConfig({
    providers,
    logger: { error, warn: () => {}, debug: () => {} },
    ...extra,
  })
  return { config: cfg, error }
}

function location(response: Response): string {
  return response.headers.get("location") ?? ""
}

/** GET csrf → POST /auth/signin/<id>: the 302 to the provider. */
async function startSignIn(
  browser: Browser,
  { provider = "op", callbackUrl = "/dashboard", query = "" } = {},
): Promise<Response> {
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch(`/auth/signin/${provider}${query}`, {
    form: { csrfToken, callbackUrl },
  })
  expect(response.status).toBe(302)
  return response
}

/** Starts the sign-in, signs in at the provider, and returns the callback URL to Latch. */
async function throughProvider(
  browser: Browser,
  options: Parameters<typeof startSignIn>[1] = {},
  loginOptions: Parameters<typeof login>[2] = {},
): Promise<string> {
  const start = await startSignIn(browser, options)
  return login(browser, location(start), loginOptions)
}

/** The requests the provider receives while `run` runs. */
async function requestsDuring<T>(server: OP, run: () => Promise<T>): Promise<[T, string[]]> {
  const before = server.requests.length
  const result = await run()
  return [result, server.requests.slice(before)]
}

function sessionWritten(response: Response): boolean {
  return writtenCookies(response).some((name) => name.startsWith(SESSION))
}

/** The sign-in ended with alice's session and the check cookies gone. */
async function expectSignedIn(
  browser: Browser,
  response: Response,
  callbackUrl = `${ORIGIN}/dashboard`,
) {
  expect(response.status).toBe(302)
  expect(location(response)).toBe(callbackUrl)
  expect(sessionWritten(response)).toBe(true)
  for (const name of [STATE, PKCE, NONCE]) expect(browser.cookies.has(name)).toBe(false)
  return browser.session()
}

/** The callback failed: no session cookie, and nothing in the session. */
async function expectNoSession(browser: Browser, response: Response) {
  expect(sessionWritten(response)).toBe(false)
  expect(browser.cookies.has(SESSION)).toBe(false)
  expect(await browser.session()).toBeNull()
}

/** A failed check: the error page with `Configuration`, an `InvalidCheck` in the log. */
async function expectInvalidCheck(
  browser: Browser,
  response: Response,
  error: ReturnType<typeof vi.fn>,
) {
  expect(response.status).toBe(302)
  const url = new URL(location(response))
  expect(url.origin + url.pathname).toBe(`${ORIGIN}/auth/error`)
  expect(url.searchParams.get("error")).toBe("Configuration")
  await expectNoSession(browser, response)
  expect(error).toHaveBeenCalledWith(expect.objectContaining({ type: "InvalidCheck" }))
}

describe("OAuth / OIDC code flow with a real provider", () => {
  it("signs in with OpenID Connect discovery (client_secret_basic)", async () => {
    const { config: cfg, error } = config([oidc()])
    const browser = new Browser(cfg)

    const start = await startSignIn(browser)
    const authorization = new URL(location(start))
    expect(authorization.origin + authorization.pathname).toBe(op.endpoints.authorization)
    const params = authorization.searchParams
    expect(params.get("response_type")).toBe("code")
    expect(params.get("client_id")).toBe(CLIENTS.basic.clientId)
    expect(params.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/op`)
    expect(params.get("scope")).toBe("openid profile email")
    expect(params.get("state")).toMatch(/^[\w-]{32,}$/)
    expect(params.get("code_challenge")).toMatch(/^[\w-]{43}$/)
    expect(params.get("code_challenge_method")).toBe("S256")
    expect(params.get("nonce")).toMatch(/^[\w-]{32,}$/)

    const checks = setCookies(start)
    for (const name of [STATE, PKCE, NONCE]) {
      const { cookie } = checks.get(name)!
      expect(cookie.httpOnly, name).toBe(true)
      expect(cookie.maxAge, name).toBe(900)
      expect(cookie.sameSite, name).toBe("lax")
      expect(cookie.path, name).toBe("/")
      // Sealed: the cookie is not the value sent to the provider.
      expect(cookie.value, name).not.toContain(params.get("state"))
      expect(cookie.value, name).not.toContain(params.get("nonce"))
    }

    const back = await login(browser, authorization.href)
    const callback = new URL(back)
    expect(callback.origin + callback.pathname).toBe(`${ORIGIN}/auth/callback/op`)
    expect(callback.searchParams.get("state")).toBe(params.get("state"))
    expect(callback.searchParams.get("iss")).toBe(op.issuer)
    expect(callback.searchParams.get("code")).toBeTruthy()

    const [response, requests] = await requestsDuring(op, () => browser.fetch(back))
    expect(requests).toContain("POST /token")
    expect(deletedCookies(response)).toEqual(expect.arrayContaining([STATE, PKCE, NONCE]))
    const session = await expectSignedIn(browser, response)
    expect(session?.user).toEqual({ name: alice.name, email: alice.email, image: alice.picture })
    expect(error).not.toHaveBeenCalled()
  })

  it("signs in with plain OAuth 2.0: explicit endpoints, a profile API and no ID token", async () => {
    const jwt = vi.fn<(params: JWTCallbackParams) => JWTCallbackParams["token"]>(
      ({ token }) => token,
    )
    const provider: OAuthConfig = {
      id: "oauth",
      name: "Plain OAuth",
      type: "oauth",
      ...CLIENTS.basic,
      authorization: { url: op.endpoints.authorization, params: { scope: "profile email" } },
      token: op.endpoints.token,
      userinfo: op.endpoints.api,
      checks: ["pkce", "state"],
    }
    const { config: cfg, error } = config([provider], { callbacks: { jwt } })
    const browser = new Browser(cfg)

    const start = await startSignIn(browser, { provider: "oauth" })
    const params = new URL(location(start)).searchParams
    expect(params.get("scope")).toBe("profile email")
    expect(params.has("nonce")).toBe(false)
    expect(params.get("code_challenge_method")).toBe("S256")
    expect(params.get("state")).toBeTruthy()
    expect(params.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/oauth`)
    expect(writtenCookies(start)).toEqual(expect.arrayContaining([STATE, PKCE]))
    expect(writtenCookies(start)).not.toContain(NONCE)

    const back = await login(browser, location(start))
    const [response, requests] = await requestsDuring(op, () => browser.fetch(back))
    // No discovery and no JWKS: the endpoints are explicit and there is no ID token.
    expect(requests).toEqual(["POST /token", "GET /api/user"])
    const session = await expectSignedIn(browser, response)
    expect(session?.user).toEqual({ name: alice.name, email: alice.email, image: alice.picture })

    const { account, profile } = jwt.mock.calls[0]![0]
    expect(account).toMatchObject({ provider: "oauth", type: "oauth", providerAccountId: "alice" })
    expect(account?.id_token).toBeUndefined()
    expect(profile).toEqual({
      id: "alice",
      login: "alice",
      name: alice.name,
      email: alice.email,
      avatar_url: alice.picture,
    })
    expect(error).not.toHaveBeenCalled()
  })

  it("signs in with a public client (token_endpoint_auth_method none, PKCE only proof)", async () => {
    const { config: cfg } = config([
      oidc({
        clientId: CLIENTS.public.clientId,
        clientSecret: undefined,
        client: { token_endpoint_auth_method: "none" },
      }),
    ])
    const browser = new Browser(cfg)
    const start = await startSignIn(browser)
    expect(new URL(location(start)).searchParams.get("client_id")).toBe(CLIENTS.public.clientId)
    const response = await browser.fetch(await login(browser, location(start)))
    const session = await expectSignedIn(browser, response)
    expect(session?.user?.email).toBe(alice.email)
  })

  it("signs in with client_secret_post", async () => {
    const tokenRequests: { authorization: string | null; body: string }[] = []
    const spy: ProviderFetch = async (input, init) => {
      if (input === op.endpoints.token) {
        tokenRequests.push({
          authorization: new Headers(init.headers).get("authorization"),
          body: String(init.body),
        })
      }
      return fetch(input, init)
    }
    const { config: cfg } = config([
      oidc({
        ...CLIENTS.post,
        client: { token_endpoint_auth_method: "client_secret_post" },
        [customFetch]: spy,
      }),
    ])
    const browser = new Browser(cfg)
    const response = await browser.fetch(await throughProvider(browser))
    const session = await expectSignedIn(browser, response)
    expect(session?.user?.email).toBe(alice.email)

    expect(tokenRequests).toHaveLength(1)
    expect(tokenRequests[0]!.authorization).toBeNull()
    const body = new URLSearchParams(tokenRequests[0]!.body)
    expect(body.get("client_id")).toBe(CLIENTS.post.clientId)
    expect(body.get("client_secret")).toBe(CLIENTS.post.clientSecret)
    expect(body.get("code_verifier")).toMatch(/^[\w-]{43,128}$/)
  })

  it("signs in through a redirect proxy, which forwards the callback to the origin in state", async () => {
    const redirectProxyUrl = `${PROXY_ORIGIN}/auth`
    const app = new Browser(config([oidc()], { redirectProxyUrl }).config)
    // The stable deployment the provider knows: same secret, same provider, another origin,
    // and the list of origins it forwards to.
    const proxy = new Browser(
      config([oidc()], { redirectProxyUrl, redirectProxyAllowedOrigins: [ORIGIN] }).config,
      PROXY_ORIGIN,
    )

    const start = await startSignIn(app)
    const params = new URL(location(start)).searchParams
    expect(params.get("redirect_uri")).toBe(`${PROXY_ORIGIN}/auth/callback/op`)

    const back = await login(app, location(start), { returnTo: PROXY_ORIGIN })
    expect(new URL(back).origin).toBe(PROXY_ORIGIN)

    // The proxy does not sign in: it sends the browser on, with every parameter.
    const [forwarded, proxyRequests] = await requestsDuring(op, () => proxy.fetch(back))
    expect(proxyRequests).toEqual([])
    expect(forwarded.status).toBe(302)
    expect(sessionWritten(forwarded)).toBe(false)
    const target = new URL(location(forwarded))
    expect(target.origin + target.pathname).toBe(`${ORIGIN}/auth/callback/op`)
    expect(Object.fromEntries(target.searchParams)).toEqual(
      Object.fromEntries(new URL(back).searchParams),
    )

    const response = await app.fetch(target.href)
    const session = await expectSignedIn(app, response)
    expect(session?.user?.email).toBe(alice.email)
  })

  it("gives the jwt callback the account (seconds, lowercased token_type) and the profile", async () => {
    const jwt = vi.fn<(params: JWTCallbackParams) => JWTCallbackParams["token"]>(
      ({ token }) => token,
    )
    const browser = new Browser(config([oidc()], { callbacks: { jwt } }).config)
    const back = await throughProvider(browser)
    const before = Math.floor(Date.now() / 1000)
    const response = await browser.fetch(back)
    const after = Math.floor(Date.now() / 1000)
    await expectSignedIn(browser, response)

    const signIns = jwt.mock.calls.filter(([params]) => params.trigger === "signIn")
    expect(signIns).toHaveLength(1)
    const { account, profile, user } = signIns[0]![0]
    expect(user).toMatchObject({ id: "alice", email: alice.email, name: alice.name })
    expect(account).toMatchObject({
      provider: "op",
      type: "oidc",
      providerAccountId: "alice",
      token_type: "bearer",
      expires_in: 3600,
      scope: "openid profile email",
    })
    expect(typeof account?.access_token).toBe("string")
    expect(String(account?.id_token).split(".")).toHaveLength(3)
    expect(account?.expires_at).toBeGreaterThanOrEqual(before + 3600)
    expect(account?.expires_at).toBeLessThanOrEqual(after + 3600)
    expect(profile).toMatchObject({
      iss: op.issuer,
      aud: CLIENTS.basic.clientId,
      sub: "alice",
      email: alice.email,
      email_verified: true,
      name: alice.name,
      picture: alice.picture,
    })
  })

  it("passes authorizationParams and the provider's params, never over Latch's own", async () => {
    const provider = oidc({ authorization: { params: { scope: "openid email" } } })
    const browser = new Browser(config([provider]).config)

    // A first sign-in leaves a session at the provider: without prompt=login it asks nothing.
    await browser.fetch(await throughProvider(browser))
    const [, quiet] = await requestsDuring(op, async () => {
      const back = await throughProvider(browser)
      await browser.fetch(back)
    })
    expect(quiet.some((request) => request.endsWith("/login"))).toBe(false)

    const query =
      "?prompt=login&login_hint=x&state=attacker&redirect_uri=https%3A%2F%2Fevil.example%2Fcb" +
      "&client_id=evil&response_type=token&nonce=n&code_challenge=c&code_challenge_method=plain"
    const start = await startSignIn(browser, { query })
    const params = new URL(location(start)).searchParams
    expect(params.get("prompt")).toBe("login")
    expect(params.get("login_hint")).toBe("x")
    expect(params.get("scope")).toBe("openid email")
    for (const name of ["state", "redirect_uri", "client_id", "response_type", "nonce"]) {
      expect(params.getAll(name), name).toHaveLength(1)
    }
    expect(params.get("state")).not.toBe("attacker")
    expect(params.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/op`)
    expect(params.get("client_id")).toBe(CLIENTS.basic.clientId)
    expect(params.get("response_type")).toBe("code")
    expect(params.get("nonce")).not.toBe("n")
    expect(params.get("code_challenge")).not.toBe("c")
    expect(params.get("code_challenge_method")).toBe("S256")

    // prompt=login reached the provider: it asks for the password again.
    const [back, loud] = await requestsDuring(op, () => login(browser, location(start)))
    expect(loud.some((request) => request.endsWith("/login"))).toBe(true)
    const session = await expectSignedIn(browser, await browser.fetch(back))
    // Only the `email` scope was asked for: the ID token carries no name or picture.
    expect(session?.user).toEqual({ email: alice.email, name: null, image: null })
  })

  it("keeps a provider's own response_type (Azure DevOps' Assertion) over a sign-in's", async () => {
    const provider = oidc({
      id: "op",
      authorization: { params: { response_type: "Assertion", scope: "openid" } },
    })
    const browser = new Browser(config([provider]).config)
    const start = await startSignIn(browser, { query: "?response_type=token" })
    const params = new URL(location(start)).searchParams
    expect(params.getAll("response_type")).toEqual(["Assertion"])
  })

  it("reads the OIDC profile from the userinfo endpoint with idToken: false", async () => {
    const jwt = vi.fn<(params: JWTCallbackParams) => JWTCallbackParams["token"]>(
      ({ token }) => token,
    )
    const browser = new Browser(config([oidc({ idToken: false })], { callbacks: { jwt } }).config)
    const back = await throughProvider(browser)
    const [response, requests] = await requestsDuring(op, () => browser.fetch(back))
    expect(requests).toEqual(expect.arrayContaining(["POST /token", "GET /me"]))
    const session = await expectSignedIn(browser, response)
    expect(session?.user).toEqual({ name: alice.name, email: alice.email, image: alice.picture })
    const { profile } = jwt.mock.calls.find(([params]) => params.trigger === "signIn")![0]
    // The userinfo response, not the ID token: no iss, aud or nonce.
    expect(profile).toMatchObject({ sub: "alice", email: alice.email })
    expect(profile).not.toHaveProperty("aud")
    expect(profile).not.toHaveProperty("nonce")
  })

  it("remembers the callback URL across the round trip only: a later sign-out goes home", async () => {
    const { config: cfg } = config([oidc()])
    const browser = new Browser(cfg)
    const back = await throughProvider(browser, { callbackUrl: "/dashboard" })
    expect(browser.cookies.has("authjs.callback-url")).toBe(true)
    const response = await browser.fetch(back)
    await expectSignedIn(browser, response)
    expect(browser.cookies.has("authjs.callback-url")).toBe(false)
    const csrfToken = await browser.csrfToken()
    const signOut = await browser.fetch("/auth/signout", { form: { csrfToken } })
    expect(location(signOut)).toBe(`${ORIGIN}/`)
  })

  it("signs in the account that logged in at the provider", async () => {
    const browser = new Browser(config([oidc()]).config)
    const back = await throughProvider(browser, {}, { account: "bob" })
    const session = await expectSignedIn(browser, await browser.fetch(back))
    expect(session?.user?.email).toBe(ACCOUNTS.bob.claims.email)
  })

  // A sign-in given up at the provider (an error page there, a closed tab) leaves its check
  // cookies behind until they expire; the next sign-in in that browser replaces them.
  it("finishes a sign-in started again after one given up at the provider", async () => {
    const { config: cfg, error } = config([oidc()])
    const browser = new Browser(cfg)
    const abandoned = await startSignIn(browser)
    const left = new Map([STATE, PKCE, NONCE].map((name) => [name, browser.cookies.get(name)]))
    for (const value of left.values()) expect(value).toBeTruthy()

    const start = await startSignIn(browser)
    expect(location(start)).not.toBe(location(abandoned))
    for (const [name, value] of left) expect(browser.cookies.get(name)).not.toBe(value)
    const back = await login(browser, location(start))
    const session = await expectSignedIn(browser, await browser.fetch(back))
    expect(session?.user?.email).toBe(alice.email)
    expect(error).not.toHaveBeenCalled()
  })
})

describe("attacks on the callback", () => {
  it("refuses a tampered state", async () => {
    const { config: cfg, error } = config([oidc()])
    const browser = new Browser(cfg)
    const back = new URL(await throughProvider(browser))
    back.searchParams.set("state", "x".repeat(43))
    const [response, requests] = await requestsDuring(op, () => browser.fetch(back.href))
    expect(requests).not.toContain("POST /token")
    expect(deletedCookies(response)).toEqual(expect.arrayContaining([STATE, PKCE, NONCE]))
    await expectInvalidCheck(browser, response, error)
  })

  it("refuses a callback without state", async () => {
    const { config: cfg, error } = config([oidc()])
    const browser = new Browser(cfg)
    const back = new URL(await throughProvider(browser))
    back.searchParams.delete("state")
    await expectInvalidCheck(browser, await browser.fetch(back.href), error)
  })

  it("refuses a callback whose PKCE cookie is missing, without redeeming the code", async () => {
    const { config: cfg, error } = config([oidc()])
    const browser = new Browser(cfg)
    const back = await throughProvider(browser)
    browser.cookies.delete(PKCE)
    const [response, requests] = await requestsDuring(op, () => browser.fetch(back))
    expect(requests).not.toContain("POST /token")
    await expectInvalidCheck(browser, response, error)
  })

  it("refuses a callback in a browser that never started the sign-in (login CSRF)", async () => {
    const { config: cfg, error } = config([oidc()])
    const attacker = new Browser(cfg)
    const back = await throughProvider(attacker)
    const victim = new Browser(cfg)
    await expectInvalidCheck(victim, await victim.fetch(back), error)
  })

  it("refuses a replayed code: once in the same browser, once with the check cookies restored", async () => {
    const { config: cfg, error } = config([oidc()])
    const browser = new Browser(cfg)
    const back = await throughProvider(browser)
    const checks = new Map(browser.cookies)

    const first = await browser.fetch(back)
    expect((await expectSignedIn(browser, first))?.user?.email).toBe(alice.email)

    // The same URL again: the check cookies were used up by the first callback.
    const second = await browser.fetch(back)
    expect(sessionWritten(second)).toBe(false)
    expect(new URL(location(second)).pathname).toBe("/auth/error")
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ type: "InvalidCheck" }))

    // With the check cookies of the first try (a copied cookie jar): the provider refuses the
    // code, which it has already redeemed.
    const thief = new Browser(cfg)
    thief.cookies = checks
    const [third, requests] = await requestsDuring(op, () => thief.fetch(back))
    expect(requests).toContain("POST /token")
    expect(third.status).toBe(302)
    const refused = new URL(location(third))
    expect(refused.pathname).toBe("/auth/signin")
    expect(refused.searchParams.get("error")).toBe("OAuthCallbackError")
    await expectNoSession(thief, third)
  })

  it("refuses an ID token whose nonce belongs to another sign-in", async () => {
    const { config: cfg, error } = config([oidc()])
    const browser = new Browser(cfg)
    const back = await throughProvider(browser)
    const other = new Browser(cfg)
    await startSignIn(other)
    browser.cookies.set(NONCE, other.cookies.get(NONCE)!)
    const [response, requests] = await requestsDuring(op, () => browser.fetch(back))
    expect(requests).toContain("POST /token")
    await expectInvalidCheck(browser, response, error)
    const cause = error.mock.calls
      .map(([e]) => e)
      .find((e) => (e as { type?: string }).type === "InvalidCheck")
    expect(String(cause?.message)).toMatch(/nonce/)
  })

  it("refuses an ID token issued to another client (audience)", async () => {
    // The provider is asked for a code for the client `other` and answers the token request
    // for that client: a correct nonce, issuer, signature and expiry, but the audience is not
    // this app's client.
    const asOther: ProviderFetch = (input, init) => {
      if (input !== op.endpoints.token) return fetch(input, init)
      const headers = new Headers(init.headers)
      const { clientId, clientSecret } = CLIENTS.other
      headers.set("authorization", `Basic ${btoa(`${clientId}:${clientSecret}`)}`)
      return fetch(input, { ...init, headers })
    }
    const { config: cfg, error } = config([oidc({ [customFetch]: asOther })])
    const browser = new Browser(cfg)
    const start = await startSignIn(browser)
    const authorization = new URL(location(start))
    authorization.searchParams.set("client_id", CLIENTS.other.clientId)
    const back = await login(browser, authorization.href)
    const [response, requests] = await requestsDuring(op, () => browser.fetch(back))
    expect(requests).toContain("POST /token")
    await expectInvalidCheck(browser, response, error)
    const cause = error.mock.calls
      .map(([e]) => e)
      .find((e) => (e as { type?: string }).type === "InvalidCheck")
    expect(String(cause?.message)).toMatch(/aud/)
  })

  it("refuses a mix-up: the callback comes from another issuer (RFC 9207 iss)", async () => {
    const { config: cfg, error } = config([oidc()])
    const browser = new Browser(cfg)
    const start = await startSignIn(browser)
    // The user is sent to the other provider with the same request (same client id there).
    const authorization = new URL(location(start))
    const elsewhere = new URL(authorization.pathname + authorization.search, op2.issuer)
    const back = await login(browser, elsewhere.href)
    expect(new URL(back).searchParams.get("iss")).toBe(op2.issuer)

    const [response, requests] = await requestsDuring(op, () => browser.fetch(back))
    expect(requests).not.toContain("POST /token")
    expect(op2.requests).not.toContain("POST /token")
    await expectInvalidCheck(browser, response, error)
  })

  it("refuses a mix-up whose iss was stripped: the provider promises iss", async () => {
    const { config: cfg, error } = config([oidc()])
    const browser = new Browser(cfg)
    const start = await startSignIn(browser)
    const authorization = new URL(location(start))
    const elsewhere = new URL(authorization.pathname + authorization.search, op2.issuer)
    const back = new URL(await login(browser, elsewhere.href))
    back.searchParams.delete("iss")
    const [response, requests] = await requestsDuring(op, () => browser.fetch(back.href))
    expect(requests).not.toContain("POST /token")
    await expectInvalidCheck(browser, response, error)
  })

  it("sends a refusal at the provider (access_denied) to the sign-in page", async () => {
    const { config: cfg } = config([oidc()])
    const browser = new Browser(cfg)
    const back = await throughProvider(browser, {}, { consent: false })
    expect(new URL(back).searchParams.get("error")).toBe("access_denied")
    const [response, requests] = await requestsDuring(op, () => browser.fetch(back))
    expect(requests).toEqual([])
    expect(response.status).toBe(302)
    const url = new URL(location(response))
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/auth/signin`)
    expect(url.searchParams.get("error")).toBe("OAuthCallbackError")
    expect(deletedCookies(response)).toEqual(expect.arrayContaining([STATE, PKCE, NONCE]))
    for (const name of [STATE, PKCE, NONCE]) expect(browser.cookies.has(name)).toBe(false)
    await expectNoSession(browser, response)
  })

  // RFC 6749 §4.1.2.1: an error response carries the state too, and is checked like any other.
  // Otherwise any page can send the browser to the callback with a made-up error, ending (and
  // wiping the check cookies of) the sign-in in progress.
  it("checks the state of an error response before reporting the error", async () => {
    const { config: cfg, error } = config([oidc()])
    const browser = new Browser(cfg)
    await startSignIn(browser)
    const forged = `/auth/callback/op?error=access_denied&state=${"x".repeat(43)}&iss=${encodeURIComponent(op.issuer)}`
    await expectInvalidCheck(browser, await browser.fetch(forged), error)
  })

  it.each([STATE, PKCE, NONCE])("refuses a tampered %s cookie", async (name) => {
    const { config: cfg, error } = config([oidc()])
    const browser = new Browser(cfg)
    const back = await throughProvider(browser)
    const value = browser.cookies.get(name)!
    // Flip one bit of one character in the middle of the ciphertext (base64url stays valid).
    let i = Math.floor(value.length / 2)
    while (value[i] === ".") i++
    const flipped = value[i] === "A" ? "B" : "A"
    browser.cookies.set(name, value.slice(0, i) + flipped + value.slice(i + 1))
    const response = await browser.fetch(back)
    expect(deletedCookies(response)).toEqual(expect.arrayContaining([STATE, PKCE, NONCE]))
    await expectInvalidCheck(browser, response, error)
  })

  it("refuses a check cookie sealed with another secret", async () => {
    const { config: cfg, error } = config([oidc()])
    const browser = new Browser(cfg)
    const back = await throughProvider(browser)
    const stranger = new Browser(
      config([oidc()], { secret: "another-secret-that-is-long-enough-000000" }).config,
    )
    await startSignIn(stranger)
    browser.cookies.set(STATE, stranger.cookies.get(STATE)!)
    await expectInvalidCheck(browser, await browser.fetch(back), error)
  })
})

describe("a provider whose issuer has a path (as GitHub's https://github.com/login/oauth)", () => {
  let mounted: OP
  beforeAll(async () => {
    mounted = await startOP({ path: "/login/oauth" })
  })
  afterAll(() => mounted?.stop())

  function plain(extra: Partial<OAuthConfig> = {}): OAuthConfig {
    return {
      id: "oauth",
      name: "Plain OAuth",
      type: "oauth",
      ...CLIENTS.basic,
      authorization: { url: mounted.endpoints.authorization, params: { scope: "profile email" } },
      token: mounted.endpoints.token,
      userinfo: mounted.endpoints.api,
      ...extra,
    }
  }

  it("signs in with OIDC discovery under the path", async () => {
    const browser = new Browser(config([oidc({ issuer: mounted.issuer })]).config)
    const back = await throughProvider(browser)
    expect(new URL(back).searchParams.get("iss")).toBe(mounted.issuer)
    const session = await expectSignedIn(browser, await browser.fetch(back))
    expect(session?.user?.email).toBe(alice.email)
  })

  it("signs in with plain OAuth 2.0 when the issuer is configured", async () => {
    const browser = new Browser(config([plain({ issuer: mounted.issuer })]).config)
    const back = await throughProvider(browser, { provider: "oauth" })
    const session = await expectSignedIn(browser, await browser.fetch(back))
    expect(session?.user?.email).toBe(alice.email)
  })

  it("refuses plain OAuth 2.0 whose callback names another issuer than the configured one", async () => {
    const { config: cfg, error } = config([plain({ issuer: op.issuer })])
    const browser = new Browser(cfg)
    const back = await throughProvider(browser, { provider: "oauth" })
    await expectInvalidCheck(browser, await browser.fetch(back), error)
  })

  // No issuer configured (the usual plain OAuth 2.0 provider, e.g. GitHub before it sent `iss`):
  // Latch knows no issuer to compare the callback's `iss` with, so it cannot reject on it. It
  // must not invent one (such as the authorization endpoint's origin) and refuse every sign-in
  // once the provider starts sending RFC 9207 `iss` (as GitHub did in 2026).
  it("signs in with plain OAuth 2.0 without a configured issuer, though the callback has iss", async () => {
    const { config: cfg, error } = config([plain()])
    const browser = new Browser(cfg)
    const back = await throughProvider(browser, { provider: "oauth" })
    expect(new URL(back).searchParams.get("iss")).toBe(mounted.issuer)
    const response = await browser.fetch(back)
    expect(error).not.toHaveBeenCalled()
    const session = await expectSignedIn(browser, response)
    expect(session?.user?.email).toBe(alice.email)
  })
})
