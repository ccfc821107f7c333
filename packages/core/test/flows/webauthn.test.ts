/**
 * Passkeys with real WebAuthn payloads: a software authenticator (test/helpers/authenticator.ts)
 * makes P-256 credentials and signs assertions, `@simplewebauthn/server` verifies them, and the
 * flows run through `Auth` as a browser would drive them.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import Passkey from "../../src/providers/passkey.js"
import WebAuthn from "../../src/providers/webauthn.js"
import type { WebAuthnUserConfig } from "../../src/providers/webauthn.js"
import type { AuthConfig } from "../../src/types.js"
import { hasShortInteger, SoftAuthenticator, type CeremonyInput } from "../helpers/authenticator.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { ALICE, Browser, ORIGIN, SECRET, deletedCookies, setCookies } from "../helpers/request.js"

afterEach(() => vi.useRealTimers())

const CHALLENGE_COOKIE = "authjs.challenge"

/** A credential id in the form it is stored: padded standard base64, as Auth.js stores it. */
const stored = (id: string) => Buffer.from(id, "base64url").toString("base64")
const RP_ID = "localhost"

function setup(
  passkey: WebAuthnUserConfig = {},
  overrides: Partial<AuthConfig> = {},
): {
  browser: Browser
  adapter: MemoryAdapter
  config: AuthConfig
  warn: ReturnType<typeof vi.fn>
} {
  const adapter = memoryAdapter()
  adapter.createUser!({ ...ALICE, emailVerified: null })
  const warn = vi.fn()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    experimental: { enableWebAuthn: true },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: ({ username, password }) =>
          username === "alice" && password === "wonderland" ? ALICE : null,
      }),
      Passkey(passkey),
    ],
    logger: { error: () => {}, warn, debug: () => {} },
    ...overrides,
  }
  return { browser: new Browser(config), adapter, config, warn }
}

/**
 * The `getUserInfo` of an app that proved the visitor's address by its own means (a code it
 * mailed and checked): a new account only for those addresses.
 */
function provenAddresses(...addresses: string[]): WebAuthnUserConfig {
  const proven = new Set(addresses)
  return {
    getUserInfo: async ({ adapter }, { query }) => {
      const email = query.email?.trim().toLowerCase()
      if (!email || !proven.has(email)) return null
      const stored = await adapter.getUserByEmail?.(email)
      return stored
        ? { user: { ...stored, email }, exists: true }
        : { user: { email }, exists: false }
    },
  }
}

async function signInAsAlice(browser: Browser) {
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch("/auth/callback/credentials", {
    form: { csrfToken, username: "alice", password: "wonderland" },
  })
  expect(response.status).toBe(302)
}

async function options(browser: Browser, query: Record<string, string> = {}) {
  const response = await browser.fetch(
    `/auth/webauthn-options/passkey?${new URLSearchParams(query)}`,
  )
  return { response, body: (await response.json()) as { action: string; options: any } }
}

/** Posts a credential response as the built-in page and the client do. */
async function post(
  browser: Browser,
  action: string,
  data: unknown,
  extra: Record<string, string> = {},
) {
  const csrfToken = await browser.csrfToken()
  return browser.fetch("/auth/callback/passkey", {
    form: {
      csrfToken,
      action,
      data: typeof data === "string" ? data : JSON.stringify(data),
      callbackUrl: "/dashboard",
      ...extra,
    },
  })
}

const ceremony = (challenge: string, extra: Partial<CeremonyInput> = {}): CeremonyInput => ({
  challenge,
  origin: ORIGIN,
  rpId: RP_ID,
  ...extra,
})

/** Where a refused ceremony sends the user: the sign-in page, with the error and its code. */
function refusal(response: Response): { error: string | null; code: string | null; path: string } {
  expect(response.status).toBe(302)
  const url = new URL(response.headers.get("location")!)
  return {
    path: url.pathname,
    error: url.searchParams.get("error"),
    code: url.searchParams.get("code"),
  }
}

/** Alice signs in, registers a passkey, signs out: the starting point of most tests. */
async function aliceWithPasskey(setupResult = setup(), authenticator = new SoftAuthenticator()) {
  const { browser } = setupResult
  await signInAsAlice(browser)
  const { body } = await options(browser, { action: "register" })
  const { credential, response } = authenticator.create(
    ceremony(body.options.challenge),
    body.options.user.id,
  )
  const registered = await post(browser, "register", response)
  expect(registered.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
  browser.cookies.clear()
  return { ...setupResult, authenticator, credential }
}

/** A fresh browser asks for sign-in options and answers them with `credential`. */
async function signInWithPasskey(
  ctx: Awaited<ReturnType<typeof aliceWithPasskey>>,
  input: Partial<CeremonyInput> = {},
  getOptions: { counter?: number } = {},
) {
  const { body } = await options(ctx.browser, { action: "authenticate" })
  const assertion = ctx.authenticator.get(
    ctx.credential,
    ceremony(body.options.challenge, input),
    getOptions,
  )
  return { response: await post(ctx.browser, "authenticate", assertion), assertion }
}

describe("configuration", () => {
  it("refuses a WebAuthn provider unless experimental.enableWebAuthn is set", async () => {
    const { config } = setup({}, { experimental: {} })
    const response = await Auth(new Request(`${ORIGIN}/auth/providers`), config)
    expect(response.status).toBe(500)
    const body = (await response.json()) as { message: string }
    expect(body.message).toMatch(/enableWebAuthn/)
  })

  it("warns once that WebAuthn is experimental", async () => {
    const { browser, warn } = setup()
    await browser.fetch("/auth/providers")
    await browser.fetch("/auth/providers")
    expect(warn.mock.calls.filter(([code]) => code === "experimental-webauthn")).toHaveLength(1)
  })

  it.each([
    ["no adapter", { adapter: undefined, session: { strategy: "jwt" as const } }, /adapter/],
    ["an adapter without authenticators", { adapter: { getUser: () => null } }, /getAuthenticator/],
  ])("refuses %s", async (_, overrides, message) => {
    const { config } = setup({}, overrides as Partial<AuthConfig>)
    const response = await Auth(new Request(`${ORIGIN}/auth/session`), config)
    expect(response.status).toBe(500)
    expect(((await response.json()) as { message: string }).message).toMatch(message)
  })

  it("refuses two providers in the browser's autofill, and autofill without a webauthn field", async () => {
    const two = setup({}, {})
    two.config.providers = [Passkey(), WebAuthn()]
    let response = await Auth(new Request(`${ORIGIN}/auth/session`), two.config)
    expect(((await response.json()) as { message: string }).message).toMatch(/enableConditionalUI/)

    const { config } = setup({ formFields: { email: { autocomplete: "email" } } })
    response = await Auth(new Request(`${ORIGIN}/auth/session`), config)
    expect(((await response.json()) as { message: string }).message).toMatch(/webauthn/)
  })

  it.each(["webauthn username", "webauthn", "username webauthn email"])(
    "starts, as Auth.js does, with a webauthn token that is not last after a field name (%j), and warns that browsers ignore it",
    async (autocomplete) => {
      const warnings: string[] = []
      const { config } = setup({ formFields: { email: { autocomplete } } })
      config.logger = { warn: (code) => warnings.push(code), error: () => {}, debug: () => {} }
      const response = await Auth(new Request(`${ORIGIN}/auth/session`), config)
      expect(response.status).toBe(200)
      expect(warnings).toContain("webauthn-autocomplete-order")
    },
  )

  it.each(["username webauthn", "section-login email WebAuthn"])(
    "takes autofill with the webauthn token last (%j)",
    async (autocomplete) => {
      const warnings: string[] = []
      const { config } = setup({ formFields: { email: { autocomplete } } })
      config.logger = { warn: (code) => warnings.push(code), error: () => {}, debug: () => {} }
      const response = await Auth(new Request(`${ORIGIN}/auth/session`), config)
      expect(response.status).toBe(200)
      expect(warnings).not.toContain("webauthn-autocomplete-order")
    },
  )

  it("refuses options that would fail at sign-in", async () => {
    const { config } = setup({ supportedAlgorithmIDs: [] })
    const response = await Auth(new Request(`${ORIGIN}/auth/session`), config)
    expect(((await response.json()) as { message: string }).message).toMatch(
      /supportedAlgorithmIDs/,
    )
  })

  it("lists the provider with its type", async () => {
    const { browser } = setup()
    const providers = (await (await browser.fetch("/auth/providers")).json()) as Record<string, any>
    expect(providers.passkey).toEqual({
      id: "passkey",
      name: "Passkey",
      type: "webauthn",
      signinUrl: `${ORIGIN}/auth/signin/passkey`,
      callbackUrl: `${ORIGIN}/auth/callback/passkey`,
    })
  })
})

describe("webauthn-options", () => {
  it("offers anonymous visitors a sign-in that lists no credentials, with a sealed challenge", async () => {
    const { browser } = setup()
    const { response, body } = await options(browser)
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(body.action).toBe("authenticate")
    expect(body.options).toMatchObject({ rpId: RP_ID, userVerification: "required" })
    expect(body.options.allowCredentials ?? []).toEqual([])
    const cookie = setCookies(response).get(CHALLENGE_COOKIE)!
    expect(cookie.cookie.httpOnly).toBe(true)
    expect(cookie.cookie.sameSite).toBe("lax")
    expect(cookie.cookie.maxAge).toBe(900)
    // Sealed: the challenge is not readable from the cookie.
    expect(cookie.cookie.value).not.toContain(body.options.challenge)
  })

  it("offers registration to a new address getUserInfo vouches for, for a new account", async () => {
    const { browser } = setup(provenAddresses("new@example.com"))
    const { body } = await options(browser, { email: " New@Example.com " })
    expect(body.action).toBe("register")
    expect(body.options).toMatchObject({
      rp: { id: RP_ID, name: "localhost:3000" },
      user: { name: "new@example.com" },
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      attestation: "none",
    })
    expect(body.options.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toEqual([-8, -7, -257])
  })

  it("offers only sign-in for an address that has an account, and refuses to register it", async () => {
    const { browser } = setup(provenAddresses(ALICE.email))
    expect((await options(browser, { email: ALICE.email })).body.action).toBe("authenticate")
    const { response, body } = await options(browser, { email: ALICE.email, action: "register" })
    expect(response.status).toBe(403)
    expect(body).toMatchObject({ error: "WebAuthnRegistrationRequiresSignIn" })
    expect(setCookies(response).has(CHALLENGE_COOKIE)).toBe(false)
  })

  it("refuses to register without a signed-in user, unknown actions, and a vouched-for address that is not one", async () => {
    const { browser } = setup()
    expect((await options(browser, { action: "register" })).response.status).toBe(403)
    expect((await options(browser, { action: "delete" })).response.status).toBe(400)
    const lenient = setup({
      getUserInfo: () => ({ user: { email: "a@b@example.com" }, exists: false }),
    })
    expect((await options(lenient.browser)).response.status).toBe(400)
  })

  it("answers 404 WebAuthnNotEnabled for a path that names no WebAuthn provider", async () => {
    const { browser } = setup()
    for (const path of ["credentials", "nope", ""]) {
      const response = await browser.fetch(`/auth/webauthn-options/${path}`)
      expect(response.status).toBe(404)
      expect(await response.json()).toMatchObject({ error: "WebAuthnNotEnabled" })
    }
  })

  it("offers a signed-in user registration, excluding the credentials they have", async () => {
    const ctx = await aliceWithPasskey()
    await signInAsAlice(ctx.browser)
    const { body } = await options(ctx.browser)
    expect(body.action).toBe("register")
    expect(body.options.user).toMatchObject({ name: ALICE.email, displayName: ALICE.name })
    expect(body.options.excludeCredentials).toEqual([
      { id: ctx.credential.id, type: "public-key", transports: ["internal"] },
    ])
  })

  it("explains that passkeys need a domain name when the site is opened at an IP address", async () => {
    for (const origin of ["http://127.0.0.1:3000", "http://[::1]:3000"]) {
      const { config } = setup()
      const { response, body } = await options(new Browser(config, origin))
      expect(response.status).toBe(400)
      expect((body as unknown as { message: string }).message).toMatch(/domain name.*localhost/)
    }
  })

  it("asks the provider's getUserInfo who the visitor is, with the request", async () => {
    const seen: string[] = []
    const { browser } = setup({
      getUserInfo: async (_options, request) => {
        const handle = request.query.handle ?? null
        seen.push(`${request.url.pathname} ${handle}`)
        if (handle === "alice") return { user: { email: ALICE.email }, exists: true }
        if (handle === "newcomer") return { user: { email: "newcomer@example.com" }, exists: false }
        return null
      },
    })
    const known = await options(browser, { handle: "alice" })
    expect(known.body.action).toBe("authenticate")
    const newcomer = await options(browser, { handle: "newcomer" })
    expect(newcomer.body.action).toBe("register")
    expect(newcomer.body.options.user.name).toBe("newcomer@example.com")
    // The default lookup by `email` is replaced: an unknown address no longer means sign-up.
    expect((await options(browser, { email: "new@example.com" })).body.action).toBe("authenticate")
    const path = "/auth/webauthn-options/passkey"
    expect(seen).toEqual([`${path} alice`, `${path} newcomer`, `${path} null`])
  })

  it("by default, only a signed-in user can add a passkey (no sign-up from a claimed address)", async () => {
    const { browser, adapter } = setup()
    const anonymous = await options(browser, { email: "victim@example.com", action: "register" })
    expect(anonymous.response.status).toBe(403)
    expect(anonymous.body).toEqual({
      error: "WebAuthnRegistrationRequiresSignIn",
      message: "Sign in first, then add a passkey from your account.",
    })
    expect(setCookies(anonymous.response).has(CHALLENGE_COOKIE)).toBe(false)
    expect((await options(browser, { email: "victim@example.com" })).body.action).toBe(
      "authenticate",
    )
    expect(await adapter.getUserByEmail!("victim@example.com")).toBeNull()
    await signInAsAlice(browser)
    const signedIn = await options(browser, { action: "register" })
    expect(signedIn.body.action).toBe("register")
    expect(signedIn.body.options.user.name).toBe(ALICE.email)
  })

  it("uses the configured relying party", async () => {
    const { browser } = setup({
      relyingParty: { id: "example.com", name: "Example", origin: "https://app.example.com" },
    })
    await signInAsAlice(browser)
    const { body } = await options(browser, { action: "register" })
    expect(body.options.rp).toEqual({ id: "example.com", name: "Example" })
  })
})

describe("getRelyingParty", () => {
  it("takes Auth.js's (options, request) form: the site's URL first, the request second", async () => {
    const seen: { first: string; second: string; provider: string }[] = []
    const { browser } = setup({
      getRelyingParty: (options, request) => {
        seen.push({
          first: options.url.origin,
          second: request.url.origin,
          provider: options.provider.id,
        })
        return { id: options.url.hostname, name: "From options", origin: options.url.origin }
      },
    })
    await signInAsAlice(browser)
    const { body } = await options(browser, { action: "register" })
    expect(body.options.rp).toEqual({ id: RP_ID, name: "From options" })
    expect(seen[0]).toEqual({ first: ORIGIN, second: ORIGIN, provider: "passkey" })
  })

  it("still takes Latch's (request) form", async () => {
    const { browser } = setup({
      getRelyingParty: (request) => ({ id: request.url.hostname, name: request.query.action }),
    })
    await signInAsAlice(browser)
    const { body } = await options(browser, { action: "register" })
    expect(body.options.rp).toEqual({ id: RP_ID, name: "register" })
  })
})

describe("registration", () => {
  it("stores a signed-in user's passkey as an authenticator and a webauthn account", async () => {
    const { adapter, credential } = await aliceWithPasskey()
    const row = adapter.authenticators.get(stored(credential.id))!
    expect(row).toMatchObject({
      credentialID: stored(credential.id),
      providerAccountId: stored(credential.id),
      userId: ALICE.id,
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      transports: "internal",
    })
    // The public key is stored base64 (not base64url), as the Authenticator type says.
    expect(row.credentialPublicKey).toMatch(/^[A-Za-z0-9+/]+=*$/)
    // The id too, padded, as Auth.js stores it: a move back to Auth.js keeps the passkey.
    expect(row.credentialID).toMatch(/^[A-Za-z0-9+/]+=+$/)
    const account = [...adapter.accounts.values()].find((a) => a.type === "webauthn")
    expect(account).toMatchObject({
      provider: "passkey",
      providerAccountId: stored(credential.id),
      userId: ALICE.id,
    })
  })

  it("creates the account of a new address getUserInfo vouches for, and signs it in", async () => {
    const createUser = vi.fn()
    const { browser, adapter } = setup(provenAddresses("new@example.com"), {
      events: { createUser },
      pages: { newUser: "/welcome" },
    })
    const { body } = await options(browser, { email: "new@example.com" })
    const authenticator = new SoftAuthenticator()
    const { credential, response } = authenticator.create(
      ceremony(body.options.challenge),
      body.options.user.id,
    )
    const result = await post(browser, "register", response)
    expect(result.headers.get("location")).toBe(`${ORIGIN}/welcome`)
    const user = [...adapter.users.values()].find((u) => u.email === "new@example.com")!
    expect(user.emailVerified).toBeNull()
    expect(createUser).toHaveBeenCalledOnce()
    expect(adapter.authenticators.get(stored(credential.id))?.userId).toBe(user.id)
    expect((await browser.session())?.user).toMatchObject({ email: "new@example.com" })
  })

  it("refuses a new account whose address was taken in the meantime", async () => {
    const { browser, adapter } = setup(provenAddresses("late@example.com"))
    const { body } = await options(browser, { email: "late@example.com" })
    adapter.createUser!({ id: "u2", email: "late@example.com", emailVerified: null })
    const { response } = new SoftAuthenticator().create(ceremony(body.options.challenge))
    expect(refusal(await post(browser, "register", response)).code).toBe("email-in-use")
    expect(adapter.authenticators.size).toBe(0)
  })

  it("refuses a registration when the signed-in user changed since the options", async () => {
    const { browser, adapter } = setup()
    await signInAsAlice(browser)
    const { body } = await options(browser, { action: "register" })
    const csrfToken = await browser.csrfToken()
    await browser.fetch("/auth/signout", { form: { csrfToken } })
    const { response } = new SoftAuthenticator().create(ceremony(body.options.challenge))
    const result = refusal(await post(browser, "register", response))
    expect(result).toMatchObject({ path: "/auth/signin", error: "WebAuthnVerificationError" })
    expect(result.code).toBe("session")
    expect(adapter.authenticators.size).toBe(0)
  })

  it("refuses a credential that is registered already", async () => {
    const ctx = await aliceWithPasskey()
    await signInAsAlice(ctx.browser)
    const { body } = await options(ctx.browser, { action: "register" })
    const { response } = ctx.authenticator.create(
      ceremony(body.options.challenge),
      "",
      ctx.credential,
    )
    expect(refusal(await post(ctx.browser, "register", response)).code).toBe("credential-exists")
  })

  it("refuses a credential registered already in the base64url form Latch stored before", async () => {
    const ctx = await aliceWithPasskey()
    const row = ctx.adapter.authenticators.get(stored(ctx.credential.id))!
    ctx.adapter.authenticators.delete(row.credentialID)
    ctx.adapter.authenticators.set(ctx.credential.id, { ...row, credentialID: ctx.credential.id })
    await signInAsAlice(ctx.browser)
    const { body } = await options(ctx.browser, { action: "register" })
    const { response } = ctx.authenticator.create(
      ceremony(body.options.challenge),
      "",
      ctx.credential,
    )
    expect(refusal(await post(ctx.browser, "register", response)).code).toBe("credential-exists")
  })

  it.each([
    ["another origin", { origin: "https://evil.example" }, "origin"],
    ["another RP id", { rpId: "evil.example" }, "rp-id"],
    ["no user verification", { flags: { userVerified: false } }, "user-verification"],
    ["another challenge", { challenge: "c29tZXRoaW5nLWVsc2U" }, "challenge"],
    ["an assertion's client data", { type: "webauthn.get" }, "invalid-response"],
  ])("refuses a registration made with %s", async (_, input, code) => {
    const { browser, adapter } = setup()
    await signInAsAlice(browser)
    const { body } = await options(browser, { action: "register" })
    const { response } = new SoftAuthenticator().create(ceremony(body.options.challenge, input))
    expect(refusal(await post(browser, "register", response)).code).toBe(code)
    expect(adapter.authenticators.size).toBe(0)
  })

  it("asks the signIn callback, and stores nothing when it refuses", async () => {
    const signIn = vi.fn(({ account }) => account?.type !== "webauthn")
    const { browser, adapter } = setup(provenAddresses("new@example.com"), {
      callbacks: { signIn },
    })
    const { body } = await options(browser, { email: "new@example.com" })
    const { response } = new SoftAuthenticator().create(ceremony(body.options.challenge))
    const result = await post(browser, "register", response)
    expect(result.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    expect(adapter.authenticators.size).toBe(0)
    expect([...adapter.users.values()].map((u) => u.email)).toEqual([ALICE.email])
  })
})

describe("signing in with a passkey", () => {
  it("signs in with the passkey alone and moves the counter forward", async () => {
    const ctx = await aliceWithPasskey()
    const { response } = await signInWithPasskey(ctx)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect((await ctx.browser.session())?.user).toMatchObject({ email: ALICE.email })
    expect(ctx.adapter.authenticators.get(stored(ctx.credential.id))?.counter).toBe(1)
  })

  it("finds a credential stored in either form, and moves the counter of the row it found", async () => {
    // Stored by Latch before: base64url, unpadded.
    const ctx = await aliceWithPasskey()
    const row = ctx.adapter.authenticators.get(stored(ctx.credential.id))!
    ctx.adapter.authenticators.delete(row.credentialID)
    ctx.adapter.authenticators.set(ctx.credential.id, { ...row, credentialID: ctx.credential.id })
    const { response } = await signInWithPasskey(ctx)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(ctx.adapter.authenticators.get(ctx.credential.id)?.counter).toBe(1)
    expect(ctx.adapter.authenticators.has(stored(ctx.credential.id))).toBe(false)
    // A signed-in user's options name it in the browser's form, base64url.
    await signInAsAlice(ctx.browser)
    const { body } = await options(ctx.browser, { action: "authenticate" })
    expect(body.options.allowCredentials).toEqual([
      { id: ctx.credential.id, type: "public-key", transports: ["internal"] },
    ])
  })

  it("works with JWT sessions too", async () => {
    const ctx = await aliceWithPasskey(setup({}, { session: { strategy: "jwt" } }))
    const { response } = await signInWithPasskey(ctx)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect((await ctx.browser.session())?.user).toMatchObject({ email: ALICE.email })
  })

  it("is also answered at POST /signin/<provider>, as the client posts every provider", async () => {
    const ctx = await aliceWithPasskey()
    const { body } = await options(ctx.browser, { action: "authenticate" })
    const assertion = ctx.authenticator.get(ctx.credential, ceremony(body.options.challenge))
    const csrfToken = await ctx.browser.csrfToken()
    const response = await ctx.browser.fetch("/auth/signin/passkey", {
      form: { csrfToken, action: "authenticate", data: JSON.stringify(assertion) },
    })
    expect(response.headers.get("location")).toBe(ORIGIN + "/")
    expect((await ctx.browser.session())?.user?.email).toBe(ALICE.email)
  })

  it("refuses a replayed request, even with its cookie, and clears the cookie every time", async () => {
    const ctx = await aliceWithPasskey()
    const { body } = await options(ctx.browser, { action: "authenticate" })
    const captured = ctx.browser.cookies.get(CHALLENGE_COOKIE)!
    const assertion = ctx.authenticator.get(ctx.credential, ceremony(body.options.challenge))
    const first = await post(ctx.browser, "authenticate", assertion)
    expect(first.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(deletedCookies(first)).toContain(CHALLENGE_COOKIE)

    const attacker = new Browser(ctx.config)
    attacker.cookies.set(CHALLENGE_COOKIE, captured)
    const replay = await post(attacker, "authenticate", assertion)
    expect(refusal(replay).code).toBe("replay")
    expect(deletedCookies(replay)).toContain(CHALLENGE_COOKIE)
    expect(await attacker.session()).toBeNull()
  })

  it("signs in with a signature whose r or s is shorter than 32 bytes (Auth.js's library refuses it)", async () => {
    const ctx = await aliceWithPasskey(setup(), new SoftAuthenticator({ signatures: "short" }))
    const { response, assertion } = await signInWithPasskey(ctx)
    expect(hasShortInteger(Buffer.from(assertion.response.signature, "base64url"))).toBe(true)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
  })

  it("refuses a replay for an authenticator whose counter stays 0 (a synced passkey)", async () => {
    const ctx = await aliceWithPasskey(setup(), new SoftAuthenticator({ counter: false }))
    const { body } = await options(ctx.browser, { action: "authenticate" })
    const captured = ctx.browser.cookies.get(CHALLENGE_COOKIE)!
    const assertion = ctx.authenticator.get(ctx.credential, ceremony(body.options.challenge))
    const first = await post(ctx.browser, "authenticate", assertion)
    expect(first.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(ctx.adapter.authenticators.get(stored(ctx.credential.id))?.counter).toBe(0)
    // A second sign-in with a fresh challenge works: a counter of 0 is no rollback.
    const again = await signInWithPasskey({ ...ctx, browser: new Browser(ctx.config) })
    expect(again.response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)

    const attacker = new Browser(ctx.config)
    attacker.cookies.set(CHALLENGE_COOKIE, captured)
    expect(refusal(await post(attacker, "authenticate", assertion)).code).toBe("replay")
    expect(await attacker.session()).toBeNull()
  })

  it("refuses a counter that goes backwards", async () => {
    const ctx = await aliceWithPasskey()
    await signInWithPasskey(ctx, {}, { counter: 5 })
    ctx.browser.cookies.clear()
    const { response } = await signInWithPasskey(ctx, {}, { counter: 3 })
    expect(refusal(response).code).toBe("counter")
    expect(ctx.adapter.authenticators.get(stored(ctx.credential.id))?.counter).toBe(5)
    expect(await ctx.browser.session()).toBeNull()
  })

  it.each([
    ["another origin", { origin: "https://evil.example" }, "origin"],
    ["another RP id", { rpId: "evil.example" }, "rp-id"],
    ["no user verification", { flags: { userVerified: false } }, "user-verification"],
    ["another challenge", { challenge: "c29tZXRoaW5nLWVsc2U" }, "challenge"],
    ["a registration's client data", { type: "webauthn.create" }, "invalid-response"],
  ])("refuses an assertion made with %s", async (_, input, code) => {
    const ctx = await aliceWithPasskey()
    const { response } = await signInWithPasskey(ctx, input)
    expect(refusal(response).code).toBe(code)
    expect(await ctx.browser.session()).toBeNull()
    expect(ctx.adapter.authenticators.get(stored(ctx.credential.id))?.counter).toBe(0)
  })

  it("refuses a credential nobody registered", async () => {
    const ctx = await aliceWithPasskey()
    const stranger = new SoftAuthenticator()
    const { credential } = stranger.create(ceremony("eA"))
    const { response } = await signInWithPasskey({ ...ctx, authenticator: stranger, credential })
    expect(refusal(response).code).toBe("unknown-credential")
  })

  it("refuses a signature made with another key", async () => {
    const ctx = await aliceWithPasskey()
    const { body } = await options(ctx.browser, { action: "authenticate" })
    const forger = new SoftAuthenticator()
    const { credential: forged } = forger.create(ceremony("eA"))
    const assertion = forger.get(
      { ...forged, id: ctx.credential.id, rawId: ctx.credential.rawId },
      ceremony(body.options.challenge),
    )
    expect(refusal(await post(ctx.browser, "authenticate", assertion)).code).toBe("verification")
    expect(await ctx.browser.session()).toBeNull()
  })

  it("refuses a response without a challenge cookie, or after it expired", async () => {
    const ctx = await aliceWithPasskey()
    const { body } = await options(ctx.browser, { action: "authenticate" })
    const assertion = ctx.authenticator.get(ctx.credential, ceremony(body.options.challenge))
    const elsewhere = new Browser(ctx.config)
    expect(refusal(await post(elsewhere, "authenticate", assertion)).code).toBe("challenge")

    vi.useFakeTimers({ now: Date.now() + 16 * 60 * 1000, toFake: ["Date"] })
    expect(refusal(await post(ctx.browser, "authenticate", assertion)).code).toBe("challenge")
  })

  it("refuses a response posted for the other ceremony", async () => {
    const ctx = await aliceWithPasskey()
    const { body } = await options(ctx.browser, { action: "authenticate" })
    const assertion = ctx.authenticator.get(ctx.credential, ceremony(body.options.challenge))
    expect(refusal(await post(ctx.browser, "register", assertion)).code).toBe("challenge")
  })

  it.each([
    ["not JSON", "{nope"],
    ["not a credential", { hello: "world" }],
    ["an id that is not base64url", { id: "a b", rawId: "a b", type: "public-key", response: {} }],
    ["no authenticator data", { id: "AAAA", rawId: "AAAA", type: "public-key", response: {} }],
  ])("answers garbled data (%s) with invalid-response, not a 500", async (_, data) => {
    const ctx = await aliceWithPasskey()
    await options(ctx.browser, { action: "authenticate" })
    const response = await post(ctx.browser, "authenticate", data)
    expect(refusal(response).code).toBe("invalid-response")
  })

  it("requires the CSRF token", async () => {
    const ctx = await aliceWithPasskey()
    const { body } = await options(ctx.browser, { action: "authenticate" })
    const assertion = ctx.authenticator.get(ctx.credential, ceremony(body.options.challenge))
    const response = await ctx.browser.fetch("/auth/callback/passkey", {
      form: { action: "authenticate", data: JSON.stringify(assertion) },
    })
    expect(refusal(response).error).toBe("MissingCSRF")
    expect(await ctx.browser.session()).toBeNull()
  })

  it("only POST answers a callback", async () => {
    const { browser } = setup()
    const response = await browser.fetch("/auth/callback/passkey")
    expect(response.status).toBe(405)
    expect(response.headers.get("allow")).toBe("POST")
  })

  it("runs the provider's simpleWebAuthn replacements", async () => {
    const real = await import("@simplewebauthn/server")
    const verifyAuthenticationResponse = vi.fn(real.verifyAuthenticationResponse)
    const ctx = await aliceWithPasskey(setup({ simpleWebAuthn: { verifyAuthenticationResponse } }))
    const { response } = await signInWithPasskey(ctx)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(verifyAuthenticationResponse).toHaveBeenCalledOnce()
  })
})

describe("the built-in sign-in page", () => {
  it("shows the passkey form, hidden until its script runs, and allows only that script", async () => {
    const { browser } = setup()
    const response = await browser.fetch("/auth/signin")
    const page = await response.text()
    const csp = response.headers.get("content-security-policy")!
    const nonce = /script-src 'nonce-([A-Za-z0-9_-]+)'/.exec(csp)?.[1]
    expect(nonce).toBeDefined()
    expect(csp).toContain("connect-src 'self'")
    expect(page).toContain(`<script nonce="${nonce}">`)
    expect(page.match(/<script/g)).toHaveLength(1)
    expect(page).toMatch(/<form[^>]*data-latch-webauthn[^>]*hidden/)
    expect(page).toContain(`data-options-url="${ORIGIN}/auth/webauthn-options/passkey"`)
    expect(page).toContain('autocomplete="username webauthn"')
    expect(page).toContain("Sign in with Passkey")
    // A fresh nonce per response.
    const next = (await browser.fetch("/auth/signin")).headers.get("content-security-policy")
    expect(next).not.toBe(csp)
  })

  it("asks no email for a passkey sign-in, unless the app lets visitors register one", async () => {
    const passkeyForm = async (passkey: WebAuthnUserConfig) => {
      const page = await (await setup(passkey).browser.fetch("/auth/signin")).text()
      return /<form[^>]*data-latch-webauthn[\s\S]*?<\/form>/.exec(page)?.[0] ?? ""
    }
    // The default getUserInfo: anonymous visitors only sign in, and a passkey names its user.
    const signInOnly = await passkeyForm({ enableConditionalUI: false })
    expect(signInOnly).not.toMatch(/name="email"/)
    expect(signInOnly).toContain("Pick a passkey you have for this site.")
    // An app's own getUserInfo may register a new passkey for the address typed in.
    const registering = await passkeyForm({ ...provenAddresses(), enableConditionalUI: false })
    expect(registering).toMatch(/<input[^>]*name="email"/)
  })

  it("shows a readable message for a failed passkey sign-in", async () => {
    const { browser } = setup()
    const page = await (
      await browser.fetch("/auth/signin?error=WebAuthnVerificationError&code=replay")
    ).text()
    expect(page).toContain("Signing in with the passkey failed")
    expect(page).toContain("<code>replay</code>")
  })
})
