/**
 * The re-authentication step, `{basePath}/reauthenticate`, through `Auth()`: which ways it offers
 * (the password, a code of the second factor, a passkey, a code mailed to the address), what each
 * records, what it refuses and how often, and the page it shows. On both session strategies.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { SoftAuthenticator } from "../helpers/authenticator.js"
import {
  addPasskey,
  app,
  codeAt,
  enrol,
  owner,
  passkeyOptions,
  PASSWORD,
  post,
  PROOF_COOKIE,
  reauthenticate,
  signIn,
} from "../helpers/account-security.js"
import { Browser, ORIGIN, storedTokenOf } from "../helpers/request.js"

afterEach(() => vi.useRealTimers())

/** Moves the clock past the window: the session's proof is stale. */
const later = () => vi.useFakeTimers({ now: Date.now() + 301_000, toFake: ["Date"] })

describe.each(["database", "jwt"] as const)("re-authentication (%s sessions)", (strategy) => {
  async function signedIn() {
    const context = app({ strategy })
    const user = await owner(context.adapter)
    const browser = new Browser(context.config)
    await signIn(browser)
    return { ...context, user, browser }
  }

  it("shows the ways the user has, each form posting back with where they were going", async () => {
    const { browser } = await signedIn()
    const page = await browser.fetch("/auth/reauthenticate?callbackUrl=%2Fprofile")
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain("<h1>Confirm it is you</h1>")
    expect(html).toContain('name="method" value="password"')
    expect(html).toContain('name="method" value="email"')
    expect(html).not.toContain('name="method" value="code"')
    expect(html).toContain(`name="callbackUrl" value="${ORIGIN}/profile"`)
    const signInAgain = /<a href="([^"]+)">Sign in again instead<\/a>/.exec(html)![1]!
    const url = new URL(signInAgain.replace(/&#61;/g, "=").replace(/&amp;/g, "&"))
    expect(url.pathname).toBe("/auth/signin")
    expect(url.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/profile`)
    // A callback URL of another site is not followed: home instead.
    const foreign = await browser.fetch(
      "/auth/reauthenticate?callbackUrl=https%3A%2F%2Fevil.example",
    )
    expect(await foreign.text()).toContain(`name="callbackUrl" value="${ORIGIN}/"`)
  })

  it("sends a browser without a session to sign in", async () => {
    const { config } = await signedIn()
    const page = await new Browser(config).fetch("/auth/reauthenticate?callbackUrl=%2Fprofile")
    const location = new URL(page.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/profile`)
    const posted = await post(new Browser(config), "/auth/reauthenticate", {
      method: "password",
      password: PASSWORD,
    })
    expect(posted.location!.pathname).toBe("/auth/signin")
    expect(posted.location!.searchParams.get("code")).toBe("signed_out")
  })

  it("confirms with the password: a fresh proof, the change allowed, the event emitted", async () => {
    const { browser, events, adapter } = await signedIn()
    later()
    expect((await addPasskey(browser)).refused!.response.status).toBe(403)
    const wrong = await reauthenticate(browser, { method: "password", password: "not it" })
    expect(wrong.location!.pathname).toBe("/auth/reauthenticate")
    expect(wrong.location!.searchParams.get("code")).toBe("wrong_password")
    expect(wrong.location!.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/profile`)
    const confirmed = await reauthenticate(browser, { method: "password", password: PASSWORD })
    expect(confirmed.location!.href).toBe(`${ORIGIN}/profile`)
    expect(browser.cookies.has(PROOF_COOKIE)).toBe(true)
    expect(events.reauthenticated).toHaveBeenCalledWith(
      expect.objectContaining({ method: "password" }),
    )
    expect((await addPasskey(browser)).answer!.location!.pathname).toBe("/profile")
    expect(adapter.authenticators.size).toBe(1)
  })

  it("limits tries at the password per account", async () => {
    const { browser } = await signedIn()
    for (let i = 0; i < 5; i++)
      await reauthenticate(browser, { method: "password", password: `guess ${i}` })
    const limited = await reauthenticate(browser, { method: "password", password: PASSWORD })
    expect(limited.location!.searchParams.get("code")).toBe("rate_limited")
    expect(limited.response.headers.get("retry-after")).toBe("900")
  })

  it("mails a code to the verified address, which works once", async () => {
    const { browser, mails } = await signedIn()
    const sent = await reauthenticate(browser, { method: "email", send: "1" })
    expect(sent.location!.pathname).toBe("/auth/reauthenticate")
    expect(sent.location!.searchParams.get("sent")).toBe("1")
    expect(sent.location!.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/profile`)
    const page = await browser.fetch(`${sent.location!.pathname}${sent.location!.search}`)
    expect(await page.text()).toContain('name="emailCode"')
    const mail = mails.at(-1)!
    expect(mail.to).toBe("ada@example.com")
    const code = /\b(\d{6})\b/.exec(mail.text)![1]!
    expect(mail.subject).toContain(code)

    const wrong = await reauthenticate(browser, {
      method: "email",
      emailCode: code === "000000" ? "111111" : "000000",
    })
    expect(wrong.location!.searchParams.get("code")).toBe("wrong_code")
    const confirmed = await reauthenticate(browser, { method: "email", emailCode: code })
    expect(confirmed.location!.href).toBe(`${ORIGIN}/profile`)
    const again = await reauthenticate(browser, { method: "email", emailCode: code })
    expect(again.location!.searchParams.get("code")).toBe("wrong_code")
  })

  it("lets a mailed code expire, and limits mails and tries per account", async () => {
    const { browser, mails } = await signedIn()
    await reauthenticate(browser, { method: "email", send: "1" })
    const code = /\b(\d{6})\b/.exec(mails.at(-1)!.text)![1]!
    vi.useFakeTimers({ now: Date.now() + 601_000, toFake: ["Date"] })
    const expired = await reauthenticate(browser, { method: "email", emailCode: code })
    expect(expired.location!.searchParams.get("code")).toBe("code_expired")
    vi.useRealTimers()

    const fresh = await signedIn()
    for (let i = 0; i < 3; i++) await reauthenticate(fresh.browser, { method: "email", send: "1" })
    const over = await reauthenticate(fresh.browser, { method: "email", send: "1" })
    expect(over.location!.searchParams.get("code")).toBe("rate_limited")
    expect(fresh.mails.filter((mail) => /Confirm it is you/.test(mail.text))).toHaveLength(3)
    for (let i = 0; i < 5; i++)
      await reauthenticate(fresh.browser, { method: "email", emailCode: "123456" })
    const tries = await reauthenticate(fresh.browser, { method: "email", emailCode: "654321" })
    expect(tries.location!.searchParams.get("code")).toBe("rate_limited")
  })

  it("confirms with one of the user's passkeys, not with another user's", async () => {
    const { browser, config, adapter } = await signedIn()
    const authenticator = new SoftAuthenticator()
    const { credential } = await addPasskey(browser, authenticator)
    later()
    const { body } = await passkeyOptions(browser, "authenticate")
    // The signed-in user's own credentials are offered.
    expect(body.options.allowCredentials).toHaveLength(1)
    const assertion = authenticator.get(credential!, {
      challenge: body.options.challenge,
      origin: ORIGIN,
      rpId: "localhost",
    })
    const confirmed = await reauthenticate(browser, {
      method: "passkey",
      action: "authenticate",
      data: JSON.stringify(assertion),
    })
    expect(confirmed.location!.href).toBe(`${ORIGIN}/profile`)

    // Bob's passkey confirms nothing for Ada.
    await owner(adapter, "bob@example.com")
    const bob = new Browser(config)
    await signIn(bob, { email: "bob@example.com" })
    const bobs = new SoftAuthenticator()
    const bobCredential = (await addPasskey(bob, bobs)).credential!
    const adasBrowser = new Browser(config)
    await signIn(adasBrowser)
    const options = await passkeyOptions(adasBrowser, "authenticate")
    const foreign = bobs.get(bobCredential, {
      challenge: options.body.options.challenge,
      origin: ORIGIN,
      rpId: "localhost",
    })
    const refused = await reauthenticate(adasBrowser, {
      method: "passkey",
      action: "authenticate",
      data: JSON.stringify(foreign),
    })
    expect(refused.location!.searchParams.get("code")).toBe("passkey_failed")
  })

  describe("a user with a second factor", () => {
    async function withFactor() {
      const context = await signedIn()
      const { secret } = await enrol(context.browser)
      return { ...context, secret }
    }

    it("is asked for the factor: a code, a recovery code or a passkey that verifies them", async () => {
      const { browser, secret, adapter, user } = await withFactor()
      const html = await (await browser.fetch("/auth/reauthenticate")).text()
      expect(html).toContain('name="method" value="code"')
      expect(html).not.toContain('name="method" value="password"')
      expect(html).not.toContain('name="method" value="email"')
      const weak: Record<string, string>[] = [
        { method: "password", password: PASSWORD },
        { method: "email", send: "1" },
      ]
      for (const form of weak) {
        const refused = await reauthenticate(browser, form)
        expect(refused.location!.searchParams.get("code")).toBe("second_factor")
      }
      const wrong = await reauthenticate(browser, { method: "code", code: "000000" })
      expect(wrong.location!.searchParams.get("code")).toBe("wrong_code")
      const confirmed = await reauthenticate(browser, {
        method: "code",
        code: await codeAt(secret, 1),
      })
      expect(confirmed.location!.href).toBe(`${ORIGIN}/profile`)
      // A step's code works once.
      const replay = await reauthenticate(browser, {
        method: "code",
        code: await codeAt(secret, 1),
      })
      expect(replay.location!.searchParams.get("code")).toBe("replayed_code")
      expect(adapter.twoFactors.has(user.id)).toBe(true)
    })

    it("refuses a passkey that did not verify the user", async () => {
      const { browser, secret } = await withFactor()
      await reauthenticate(browser, { method: "code", code: await codeAt(secret, 1) })
      const authenticator = new SoftAuthenticator()
      const { credential } = await addPasskey(browser, authenticator)
      const { body } = await passkeyOptions(browser, "authenticate")
      const assertion = authenticator.get(credential!, {
        challenge: body.options.challenge,
        origin: ORIGIN,
        rpId: "localhost",
        flags: { userVerified: false },
      })
      const refused = await reauthenticate(browser, {
        method: "passkey",
        action: "authenticate",
        data: JSON.stringify(assertion),
      })
      expect(refused.location!.searchParams.get("code")).toBe("second_factor")
    })
  })

  it("offers signing in again to a user who has no way to confirm here", async () => {
    // An account of another site only: no password, no passkey, no verified address.
    const { adapter, config } = app({ strategy: "database" })
    const user = await adapter.createUser!({
      id: crypto.randomUUID(),
      email: "oauth-only@example.com",
      emailVerified: null,
    })
    const token = crypto.randomUUID()
    await adapter.createSession!({
      sessionToken: storedTokenOf(token),
      userId: user.id,
      expires: new Date(Date.now() + 60_000),
    })
    const browser = new Browser(config)
    browser.cookies.set("authjs.session-token", token)
    const html = await (await browser.fetch("/auth/reauthenticate?callbackUrl=%2Fprofile")).text()
    expect(html).not.toContain('name="method"')
    expect(html).toMatch(
      /<a class="button primary" href="[^"]*\/auth\/signin[^"]*">Sign in again<\/a>/,
    )
    const refused = await reauthenticate(browser, { method: "password", password: "anything" })
    expect(refused.location!.searchParams.get("code")).toBe("no_method")
  })

  it("sends a stale first setup of two-factor authentication to the step before showing a key", async () => {
    const { browser } = await signedIn()
    const fresh = await browser.fetch("/auth/two-factor/setup")
    expect(fresh.status).toBe(200)
    later()
    const stale = await browser.fetch("/auth/two-factor/setup")
    const location = new URL(stale.headers.get("location")!)
    expect(location.pathname).toBe("/auth/reauthenticate")
    const back = location.searchParams.get("callbackUrl")!
    expect(back).toBe(`${ORIGIN}/auth/two-factor/setup`)
    const confirmed = await reauthenticate(
      browser,
      { method: "password", password: PASSWORD },
      back,
    )
    expect(confirmed.location!.href).toBe(back)
    expect((await browser.fetch("/auth/two-factor/setup")).status).toBe(200)
  })

  it("changes nothing on a GET", async () => {
    const { browser, adapter, user } = await signedIn()
    later()
    for (const path of [
      "/auth/reauthenticate?method=password&password=correct%20horse%20battery",
      "/auth/unlink/password?id=",
      "/auth/two-factor/disable",
    ])
      await browser.fetch(path)
    expect(adapter.passwords.has(user.id)).toBe(true)
    expect((await addPasskey(browser)).refused!.response.status).toBe(403)
  })
})
