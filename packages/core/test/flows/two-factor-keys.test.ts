/**
 * Security keys (and passkeys) as a second factor, through `Auth()` with real WebAuthn payloads
 * from a software authenticator answering as a key without user verification: enrolling one
 * from the two-factor settings, the code step answered with it, the enrol step of
 * `twoFactor.required`, removal, and what a stolen session, another user's key, a replayed
 * assertion and a challenge of the wrong ceremony get. On both session strategies.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { getReauthentication, getTwoFactorStatus } from "../../src/index.js"
import {
  SoftAuthenticator,
  type CeremonyInput,
  type SoftCredential,
} from "../helpers/authenticator.js"
import {
  addPasskey,
  app,
  codeAt,
  enrol,
  owner,
  passkeyOptions,
  passkeySignIn,
  post,
  reauthenticationAsked,
  signIn,
  steal,
  type App,
} from "../helpers/account-security.js"
import { authRequest, Browser, ORIGIN } from "../helpers/request.js"
import { PROOF_COOKIE } from "../helpers/account-security.js"
import type { AuthConfig } from "../../src/types.js"
import Passkey from "../../src/providers/passkey.js"

afterEach(() => vi.useRealTimers())

const ceremony = (challenge: string): CeremonyInput => ({
  challenge,
  origin: ORIGIN,
  rpId: "localhost",
  // A security key without a PIN: present, not verified.
  flags: { userVerified: false },
})

function withEvents(context: App) {
  const more = {
    twoFactorEnrolled: vi.fn(),
    twoFactorVerified: vi.fn(),
    twoFactorFailed: vi.fn(),
    twoFactorDisabled: vi.fn(),
  }
  context.config.events = { ...context.config.events, ...more }
  return { ...context, more }
}

async function keyOptions(browser: Browser, step: "security-key" | "security-key-setup") {
  const response = await browser.fetch(`/auth/two-factor/${step}`)
  return { response, body: (await response.json()) as Record<string, any> }
}

/** Adds a security key from `browser`; the answer (JSON, `X-Auth-Return-Redirect: 1`). */
/** What adding a key gave: the refusal of its options, or the answer of its registration. */
interface KeyAdded {
  refused?: { response: Response; body: Record<string, any> }
  answer?: Response
  body: Record<string, any>
  options: Record<string, any>
  credential?: SoftCredential
  key: SoftAuthenticator
}

async function addKey(browser: Browser, key = new SoftAuthenticator()): Promise<KeyAdded> {
  const { response, body } = await keyOptions(browser, "security-key-setup")
  if (response.status !== 200) return { refused: { response, body }, body: {}, options: {}, key }
  const { credential, response: created } = key.create(
    ceremony(body.options.challenge),
    body.options.user.id,
  )
  const answer = await browser.fetch("/auth/two-factor/security-key-setup", {
    form: {
      csrfToken: await browser.csrfToken(),
      data: JSON.stringify(created),
      callbackUrl: "/profile",
    },
    headers: { "x-auth-return-redirect": "1" },
  })
  return {
    answer,
    body: (await answer.json()) as Record<string, any>,
    credential,
    key,
    options: body.options,
  }
}

/** Answers the code step of `browser`'s pending sign-in with `credential` of `key`. */
async function answerWithKey(
  browser: Browser,
  key: SoftAuthenticator,
  credential: Parameters<SoftAuthenticator["get"]>[0],
  options?: Record<string, any>,
) {
  const challenge =
    options?.challenge ?? (await keyOptions(browser, "security-key")).body.options.challenge
  const assertion = key.get(credential, ceremony(challenge))
  return post(browser, "/auth/two-factor/security-key", { data: JSON.stringify(assertion) })
}

async function adaWithKey(strategy: "jwt" | "database", extra: Partial<AuthConfig> = {}) {
  const context = withEvents(app({ strategy, extra }))
  const user = await owner(context.adapter)
  const browser = new Browser(context.config)
  await signIn(browser)
  const added = await addKey(browser)
  expect(added.answer!.status).toBe(200)
  return { ...context, user, browser, ...added }
}

describe.each(["jwt", "database"] as const)("security keys as a second factor (%s)", (strategy) => {
  it("enrols a key with discouraged resident key and user verification; recovery codes once", async () => {
    const context = withEvents(app({ strategy }))
    const user = await owner(context.adapter)
    const browser = new Browser(context.config)
    await signIn(browser)
    const { credential: passkey } = await addPasskey(browser)
    context.events.accountChanged.mockClear()
    const mailsBefore = context.mails.length

    const { answer, body, options } = await addKey(browser)
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: "discouraged",
      requireResidentKey: false,
      userVerification: "discouraged",
    })
    // The user's passkey is excluded: the same credential twice would only confuse.
    expect(options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([passkey!.id])
    expect(answer!.status).toBe(200)
    expect(body.recoveryCodes).toHaveLength(10)
    expect(new URL(body.url).pathname).toBe("/profile")

    const stored = [...context.adapter.authenticators.values()].filter((a) => a.secondFactor)
    expect(stored).toHaveLength(1)
    expect(stored[0]!.userId).toBe(user.id)
    // No account row: a key is no way in by itself.
    const accounts = [...context.adapter.accounts.values()].filter(
      (a) => a.providerAccountId === stored[0]!.credentialID,
    )
    expect(accounts).toHaveLength(0)
    expect(context.events.accountChanged).toHaveBeenCalledWith(
      expect.objectContaining({ change: { type: "securityKeyAdded" } }),
    )
    expect(context.mails.length).toBe(mailsBefore + 1)
    expect(context.mails.at(-1)!.subject).toMatch(/security key was added/i)
    expect(context.more.twoFactorEnrolled).toHaveBeenCalledTimes(1)

    const status = await getTwoFactorStatus(
      authRequest("/profile", { headers: { cookie: browser.cookieHeader() } }),
      context.config,
    )
    expect(status).toMatchObject({ enabled: true, app: false })
    expect(status!.securityKeys.map((k) => k.id)).toEqual([stored[0]!.credentialID])

    // A second key: no new recovery codes, no second "enrolled".
    const second = await addKey(browser)
    expect(second.body.recoveryCodes).toBeUndefined()
    expect(context.more.twoFactorEnrolled).toHaveBeenCalledTimes(1)
  })

  it("the passkey's registrationOptions do not change what a key is asked", async () => {
    const context = app({ strategy })
    // An app whose passkeys must be discoverable and verify the user, through the raw options.
    context.config.providers = context.config.providers.map((provider) =>
      typeof provider === "object" && "id" in provider && provider.id === "passkey"
        ? Passkey({
            registrationOptions: {
              authenticatorSelection: { residentKey: "required", userVerification: "required" },
            },
          })
        : provider,
    )
    await owner(context.adapter)
    const browser = new Browser(context.config)
    await signIn(browser)
    const { options } = await addKey(browser)
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: "discouraged",
      userVerification: "discouraged",
    })
    // The passkey's own options take them.
    const passkey = await passkeyOptions(browser, "register")
    expect(passkey.body.options.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "required",
    })
  })

  it("an ordinary passkey does not turn two-factor authentication on", async () => {
    const context = app({ strategy })
    await owner(context.adapter)
    const browser = new Browser(context.config)
    await signIn(browser)
    await addPasskey(browser)
    const next = new Browser(context.config)
    const { location } = await signIn(next)
    expect(location!.pathname).toBe("/home")
  })

  it("the code step takes the key: the sign-in completes as with a right code", async () => {
    const { config, key, credential, more } = await adaWithKey(strategy)
    const browser = new Browser(config)
    const first = await signIn(browser)
    expect(first.location!.pathname).toBe("/auth/two-factor")
    expect(await browser.session()).toBeNull()

    const { body } = await keyOptions(browser, "security-key")
    expect(body.options.userVerification).toBe("discouraged")
    expect(body.options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([credential!.id])
    const { location } = await answerWithKey(browser, key, credential!, body.options)
    expect(location!.pathname).toBe("/home")
    expect((await browser.session())!.user.email).toBe("ada@example.com")
    expect(more.twoFactorVerified).toHaveBeenCalledWith(
      expect.objectContaining({ method: "security-key" }),
    )
  })

  it("the user's passkey proves possession at the code step too", async () => {
    const { config, browser, adapter } = await adaWithKey(strategy)
    const { credential: passkey, authenticator } = await addPasskey(browser)
    expect([...adapter.authenticators.values()].filter((a) => !a.secondFactor)).toHaveLength(1)
    const next = new Browser(config)
    await signIn(next)
    const { location } = await answerWithKey(next, authenticator!, passkey!)
    expect(location!.pathname).toBe("/home")
  })

  it("TOTP-less key users still have recovery codes; a typed code is wrong", async () => {
    const { config, body } = await adaWithKey(strategy)
    const browser = new Browser(config)
    await signIn(browser)
    const wrong = await post(browser, "/auth/two-factor", { code: "123456" })
    expect(wrong.location!.searchParams.get("code")).toBe("wrong_code")
    const right = await post(browser, "/auth/two-factor", { recoveryCode: body.recoveryCodes[0] })
    expect(right.location!.pathname).toBe("/home")
  })

  it("a key without user verification cannot sign in as a passkey", async () => {
    const { config, key, credential } = await adaWithKey(strategy)
    const { answer } = await passkeySignIn(config, key, credential!, { userVerified: true })
    expect(answer.location!.searchParams.get("code")).toBe("unknown-credential")
  })

  it("removing one of two keys keeps it on; removing the last turns it off", async () => {
    const { config, browser, adapter, more, events, credential } = await adaWithKey(strategy)
    const second = await addKey(browser)
    const remove = (id: string) =>
      post(browser, "/auth/two-factor/security-key-remove", { id, callbackUrl: "/profile" })
    const ids = [...adapter.authenticators.values()].map((a) => a.credentialID)
    expect((await remove(ids[0]!)).location!.pathname).toBe("/profile")
    expect(more.twoFactorDisabled).not.toHaveBeenCalled()
    expect(events.accountChanged).toHaveBeenLastCalledWith(
      expect.objectContaining({ change: { type: "securityKeyRemoved" } }),
    )
    expect((await signIn(new Browser(config))).location!.pathname).toBe("/auth/two-factor")

    await remove(ids[1]!)
    expect(more.twoFactorDisabled).toHaveBeenCalledTimes(1)
    expect(events.accountChanged).toHaveBeenLastCalledWith(
      expect.objectContaining({ change: { type: "twoFactorDisabled" } }),
    )
    expect(adapter.authenticators.size).toBe(0)
    expect((await signIn(new Browser(config))).location!.pathname).toBe("/home")
    void second
    void credential
  })

  it("turning the app off while a key remains keeps it on, with new recovery codes", async () => {
    // Date stands still: the two codes are of steps next to this one, whatever the test's time.
    vi.useFakeTimers({ toFake: ["Date"] })
    const { browser, config, more } = await adaWithKey(strategy)
    const { secret } = await enrol(browser)
    const answer = await browser.fetch("/auth/two-factor/disable", {
      form: {
        csrfToken: await browser.csrfToken(),
        code: await codeAt(secret, 1),
        callbackUrl: "/profile",
      },
      headers: { "x-auth-return-redirect": "1" },
    })
    const body = (await answer.json()) as { recoveryCodes?: string[] }
    expect(body.recoveryCodes).toHaveLength(10)
    expect(more.twoFactorDisabled).not.toHaveBeenCalled()
    const status = await getTwoFactorStatus(
      authRequest("/profile", { headers: { cookie: browser.cookieHeader() } }),
      config,
    )
    expect(status).toMatchObject({ enabled: true, app: false })
    expect((await signIn(new Browser(config))).location!.pathname).toBe("/auth/two-factor")
  })

  it("a key may be named; a name with control characters is refused", async () => {
    const context = app({ strategy })
    await owner(context.adapter)
    const browser = new Browser(context.config)
    await signIn(browser)
    const add = async (name: string) => {
      const { body } = await keyOptions(browser, "security-key-setup")
      const { response } = new SoftAuthenticator().create(
        ceremony(body.options.challenge),
        body.options.user.id,
      )
      return post(browser, "/auth/two-factor/security-key-setup", {
        data: JSON.stringify(response),
        name,
      })
    }
    const refused = await add("key\u202Egnp.exe")
    expect(refused.location!.searchParams.get("code")).toBe("invalid_name")
    expect(context.adapter.authenticators.size).toBe(0)
    await add("  Blue key  ")
    expect([...context.adapter.authenticators.values()][0]!.name).toBe("Blue key")
  })

  it("an unknown key id is a clear refusal", async () => {
    const { browser } = await adaWithKey(strategy)
    const { location } = await post(browser, "/auth/two-factor/security-key-remove", {
      id: "nope",
    })
    expect(location!.searchParams.get("code")).toBe("not_found")
  })

  it("twoFactor.required: the enrol step is satisfied by a key alone", async () => {
    const context = withEvents(app({ strategy, extra: { twoFactor: { required: () => true } } }))
    await owner(context.adapter)
    const browser = new Browser(context.config)
    const first = await signIn(browser)
    expect(first.location!.pathname).toBe("/auth/two-factor")
    expect(await browser.session()).toBeNull()
    const added = await addKey(browser)
    expect(added.answer!.status).toBe(200)
    expect(added.body.recoveryCodes).toHaveLength(10)
    expect(new URL(added.body.url).pathname).toBe("/home")
    expect((await browser.session())!.user.email).toBe("ada@example.com")
    // Next time, the key is asked for.
    const next = new Browser(context.config)
    await signIn(next)
    const { location } = await answerWithKey(next, added.key, added.credential!)
    expect(location!.pathname).toBe("/home")
  })

  it("an adapter without updateAuthenticator gets MissingAdapterMethods", async () => {
    const context = app({ strategy })
    await owner(context.adapter)
    const browser = new Browser(context.config)
    await signIn(browser)
    delete (context.adapter as { updateAuthenticator?: unknown }).updateAuthenticator
    const response = await browser.fetch("/auth/two-factor/security-key-setup")
    expect(response.status).toBeGreaterThanOrEqual(300)
    expect(context.config.logger!.error).toHaveBeenCalledWith(
      expect.objectContaining({
        type: "MissingAdapterMethods",
        message: expect.stringContaining("updateAuthenticator"),
      }),
    )
  })
})

describe.each(["jwt", "database"] as const)("attacks on security keys (%s)", (strategy) => {
  it("a stolen session alone cannot enrol a key (fresh proof is asked)", async () => {
    const context = app({ strategy })
    await owner(context.adapter)
    const victim = new Browser(context.config)
    await signIn(victim)
    const thief = steal(victim)
    const { refused } = await addKey(thief)
    expect(refused!.response.status).toBe(403)
    expect(refused!.body.error).toBe("ReauthenticationRequired")
    reauthenticationAsked(new URL(refused!.body.url))

    // Nor with options the victim's browser got: the post asks for proof again.
    const { body } = await keyOptions(victim, "security-key-setup")
    const { response: created } = new SoftAuthenticator().create(
      ceremony(body.options.challenge),
      body.options.user.id,
    )
    thief.cookies.set("authjs.challenge", victim.cookies.get("authjs.challenge") ?? "")
    for (const [name, value] of victim.cookies)
      if (name.includes("challenge")) thief.cookies.set(name, value)
    const { location } = await post(thief, "/auth/two-factor/security-key-setup", {
      data: JSON.stringify(created),
    })
    reauthenticationAsked(location)
    expect(context.adapter.authenticators.size).toBe(0)
  })

  it("a stolen session alone cannot remove a key", async () => {
    const { browser, adapter } = await adaWithKey(strategy)
    const thief = steal(browser)
    const [id] = [...adapter.authenticators.keys()]
    const { location } = await post(thief, "/auth/two-factor/security-key-remove", { id: id! })
    reauthenticationAsked(location)
    expect(adapter.authenticators.size).toBe(1)
  })

  it("another user's key is refused at the code step", async () => {
    const { config, adapter, more } = await adaWithKey(strategy)
    // Bob has a key of his own.
    await owner(adapter, "bob@example.com")
    const bob = new Browser(config)
    await signIn(bob, { email: "bob@example.com" })
    const bobs = await addKey(bob)
    expect(bobs.answer!.status).toBe(200)

    const browser = new Browser(config)
    await signIn(browser)
    const { location } = await answerWithKey(browser, bobs.key, bobs.credential!)
    expect(location!.pathname).toBe("/auth/two-factor")
    expect(location!.searchParams.get("code")).toBe("key_refused")
    expect(await browser.session()).toBeNull()
    expect(more.twoFactorFailed).toHaveBeenCalledWith(
      expect.objectContaining({ reason: "key_refused" }),
    )
  })

  it("a replayed assertion is refused", async () => {
    const { config, key, credential } = await adaWithKey(strategy)
    const browser = new Browser(config)
    await signIn(browser)
    const { body } = await keyOptions(browser, "security-key")
    const assertion = key.get(credential!, ceremony(body.options.challenge))
    const challengeCookies = [...browser.cookies].filter(([name]) => name.includes("challenge"))
    const first = await post(browser, "/auth/two-factor/security-key", {
      data: JSON.stringify(assertion),
    })
    expect(first.location!.pathname).toBe("/home")

    // The same request again, from a browser holding the same pending sign-in and challenge.
    const again = new Browser(config)
    await signIn(again)
    for (const [name, value] of challengeCookies) again.cookies.set(name, value)
    const replay = await post(again, "/auth/two-factor/security-key", {
      data: JSON.stringify(assertion),
    })
    expect(replay.location!.searchParams.get("code")).toBe("key_refused")
    expect(await again.session()).toBeNull()
  })

  it("key answers count against the code step's limits, as codes do", async () => {
    const { config, key, credential, more } = await adaWithKey(strategy, {
      twoFactor: { rateLimit: { attempts: 2 } },
    })
    const browser = new Browser(config)
    browser.clientAddress = "203.0.113.7"
    await signIn(browser)
    const stranger = new SoftAuthenticator()
    stranger.create({ challenge: "AAAA", origin: ORIGIN, rpId: "localhost" })
    const strangers = stranger.credentials.values().next().value!
    for (let i = 0; i < 2; i++) {
      const { location } = await answerWithKey(browser, stranger, strangers)
      expect(location!.searchParams.get("code")).toBe("key_refused")
    }
    // Over the limit: even the right key waits.
    const { location, response } = await answerWithKey(browser, key, credential!)
    expect(location!.searchParams.get("code")).toBe("rate_limited")
    expect(response.headers.get("retry-after")).toMatch(/^\d+$/)
    expect(more.twoFactorFailed).toHaveBeenLastCalledWith(
      expect.objectContaining({ reason: "rate_limited" }),
    )
    expect(await browser.session()).toBeNull()
  })

  it("a counter that goes back is refused", async () => {
    const { config, key, credential } = await adaWithKey(strategy)
    const browser = new Browser(config)
    await signIn(browser)
    const { body } = await keyOptions(browser, "security-key")
    await post(browser, "/auth/two-factor/security-key", {
      data: JSON.stringify(key.get(credential!, ceremony(body.options.challenge), { counter: 5 })),
    })
    const next = new Browser(config)
    await signIn(next)
    const options = (await keyOptions(next, "security-key")).body.options
    const { location } = await post(next, "/auth/two-factor/security-key", {
      data: JSON.stringify(key.get(credential!, ceremony(options.challenge), { counter: 3 })),
    })
    expect(location!.searchParams.get("code")).toBe("key_refused")
  })

  it("a primary sign-in's challenge is refused at the code step", async () => {
    const { config, key, credential } = await adaWithKey(strategy)
    const browser = new Browser(config)
    await signIn(browser)
    const { body } = await passkeyOptions(browser, "authenticate")
    const { location } = await answerWithKey(browser, key, credential!, body.options)
    expect(location!.searchParams.get("code")).toBe("key_refused")
    expect(await browser.session()).toBeNull()
  })

  it("a code step's challenge signs nobody in as a primary sign-in", async () => {
    const { config, browser } = await adaWithKey(strategy)
    const { credential: passkey, authenticator } = await addPasskey(browser)
    const next = new Browser(config)
    await signIn(next)
    const { body } = await keyOptions(next, "security-key")
    const assertion = authenticator!.get(passkey!, {
      ...ceremony(body.options.challenge),
      flags: {},
    })
    const { location } = await post(next, "/auth/callback/passkey", {
      action: "authenticate",
      data: JSON.stringify(assertion),
    })
    expect(location!.searchParams.get("code")).toBe("challenge")
    expect(await next.session()).toBeNull()
  })

  it("the passkey of a sign-in without user verification is not its own second factor", async () => {
    const { config, browser } = await adaWithKey(strategy)
    const { credential: passkey, authenticator } = await addPasskey(browser)
    const { browser: next, answer } = await passkeySignIn(config, authenticator!, passkey!, {
      userVerified: false,
    })
    expect(answer.location!.pathname).toBe("/auth/two-factor")
    const { body } = await keyOptions(next, "security-key")
    expect(body.options.allowCredentials.map((c: { id: string }) => c.id)).not.toContain(
      passkey!.id,
    )
    const { location } = await answerWithKey(next, authenticator!, passkey!, body.options)
    expect(location!.searchParams.get("code")).toBe("key_refused")
  })

  it("without a pending sign-in or a session there are no options", async () => {
    const { config } = await adaWithKey(strategy)
    const response = await new Browser(config).fetch("/auth/two-factor/security-key")
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).searchParams.get("code")).toBe("expired")
  })

  it("a session's re-authentication challenge completes no code step", async () => {
    const { config, key, credential } = await adaWithKey(strategy)
    const signedIn = new Browser(config)
    await signIn(signedIn)
    await answerWithKey(signedIn, key, credential!)
    const { body } = await keyOptions(signedIn, "security-key")
    const pending = new Browser(config)
    await signIn(pending)
    for (const [name, value] of signedIn.cookies)
      if (name.includes("challenge")) pending.cookies.set(name, value)
    const { location } = await answerWithKey(pending, key, credential!, body.options)
    expect(location!.searchParams.get("code")).toBe("key_refused")
    expect(await pending.session()).toBeNull()
  })
})

describe.each(["jwt", "database"] as const)(
  "re-authentication of a user whose second factor is a key (%s)",
  (strategy) => {
    /** Ada signed in with her key, her proof then gone stale (the cookie dropped, as at expiry). */
    async function staleSession() {
      const context = await adaWithKey(strategy)
      const browser = new Browser(context.config)
      await signIn(browser)
      await answerWithKey(browser, context.key, context.credential!)
      browser.cookies.delete(PROOF_COOKIE)
      return { ...context, browser }
    }

    it("offers the key (no passkey: a key signs nobody in), and the key confirms", async () => {
      const { browser, config, adapter, key, credential, events } = await staleSession()
      const reauthentication = await getReauthentication(
        authRequest("/profile", { headers: { cookie: browser.cookieHeader() } }),
        config,
      )
      expect(reauthentication!.methods).toEqual(["code", "securityKey"])
      const html = await (await browser.fetch("/auth/reauthenticate")).text()
      expect(html).toContain("Use a security key")
      expect(html).not.toContain("Use a passkey")

      const [id] = [...adapter.authenticators.keys()]
      const remove = () =>
        post(browser, "/auth/two-factor/security-key-remove", { id: id!, callbackUrl: "/profile" })
      reauthenticationAsked((await remove()).location)

      const { body } = await keyOptions(browser, "security-key")
      expect(body.options.userVerification).toBe("discouraged")
      const assertion = key.get(credential!, ceremony(body.options.challenge))
      const { location } = await post(browser, "/auth/reauthenticate", {
        method: "securityKey",
        data: JSON.stringify(assertion),
        callbackUrl: "/profile",
      })
      expect(location!.pathname).toBe("/profile")
      expect(events.reauthenticated).toHaveBeenCalledWith(
        expect.objectContaining({ method: "securityKey" }),
      )
      expect((await remove()).location!.pathname).toBe("/profile")
      expect(adapter.authenticators.size).toBe(0)
    })

    it("a recovery code confirms too", async () => {
      const { browser, body } = await staleSession()
      const { location } = await post(browser, "/auth/reauthenticate", {
        method: "code",
        recoveryCode: body.recoveryCodes[2],
        callbackUrl: "/profile",
      })
      expect(location!.pathname).toBe("/profile")
    })

    it("a code step's challenge does not confirm a session, nor another user's key", async () => {
      const { browser, config, key, credential, adapter } = await staleSession()
      // A challenge made for a pending sign-in (another browser's), carried over with its cookie.
      const other = new Browser(config)
      await signIn(other)
      const { body } = await keyOptions(other, "security-key")
      for (const [name, value] of other.cookies)
        if (name.includes("challenge")) browser.cookies.set(name, value)
      const crossed = await post(browser, "/auth/reauthenticate", {
        method: "securityKey",
        data: JSON.stringify(key.get(credential!, ceremony(body.options.challenge))),
      })
      expect(crossed.location!.searchParams.get("code")).toBe("passkey_failed")

      await owner(adapter, "bob@example.com")
      const bob = new Browser(config)
      await signIn(bob, { email: "bob@example.com" })
      const bobs = await addKey(bob)
      const options = (await keyOptions(browser, "security-key")).body.options
      const foreign = await post(browser, "/auth/reauthenticate", {
        method: "securityKey",
        data: JSON.stringify(bobs.key.get(bobs.credential!, ceremony(options.challenge))),
      })
      expect(foreign.location!.searchParams.get("code")).toBe("passkey_failed")
      reauthenticationAsked(
        (
          await post(browser, "/auth/two-factor/security-key-remove", {
            id: [...adapter.authenticators.values()][0]!.credentialID,
          })
        ).location,
      )
    })
  },
)

describe("the built-in pages", () => {
  it("the code step offers the key, and asks no app code of a user without an app", async () => {
    const { config } = await adaWithKey("jwt")
    const browser = new Browser(config)
    await signIn(browser)
    const page = await browser.fetch("/auth/two-factor")
    const html = await page.text()
    expect(html).toContain(`data-options-url="${ORIGIN}/auth/two-factor/security-key"`)
    expect(html).toContain("Use a security key")
    expect(html).not.toContain('name="code"')
    expect(html).toContain('name="recoveryCode"')
    const nonce = /<script nonce="([^"]+)"/.exec(html)![1]
    expect(page.headers.get("content-security-policy")).toContain(`'nonce-${nonce}'`)
  })

  it("a user with only an app is not offered a key at the code step", async () => {
    const context = app({ strategy: "jwt" })
    await owner(context.adapter)
    const browser = new Browser(context.config)
    await signIn(browser)
    const { secret } = await enrol(browser)
    const next = new Browser(context.config)
    await signIn(next)
    const html = await (await next.fetch("/auth/two-factor")).text()
    expect(html).toContain('name="code"')
    expect(html).not.toContain("security-key")
    expect(secret).toBeTruthy()
  })

  it("the setup page offers adding a key; the key's options say register", async () => {
    const context = app({ strategy: "database" })
    await owner(context.adapter)
    const browser = new Browser(context.config)
    await signIn(browser)
    const html = await (await browser.fetch("/auth/two-factor/setup?callbackUrl=/profile")).text()
    expect(html).toContain(`data-options-url="${ORIGIN}/auth/two-factor/security-key-setup"`)
    expect(html).toContain('data-action="register"')
    const { body } = await keyOptions(browser, "security-key-setup")
    expect(body.action).toBe("register")
  })
})
