/**
 * Attack: someone holding only a session of the victim — a cookie read from a log, a backup, a
 * proxy, a shared computer; or a JWT session issued before the victim turned two-factor
 * authentication on, which no enrolment can end — tries to make the account theirs:
 *
 * 1. add a passkey of their own, which would then sign in with no code (a passkey that verifies
 *    its user counts as two factors), after a password change and after "sign out everywhere";
 * 2. link an account of theirs at an OAuth provider;
 * 3. turn two-factor authentication on with their own authenticator, receiving the recovery
 *    codes — after which every way back in asks for their code;
 * 4. remove the owner's ways in, or change the password.
 *
 * Safe outcome, with either session strategy: each change sends the thief to the
 * re-authentication step and changes nothing; the owner, who can confirm it is them, makes the
 * same change, keeps their session, and is mailed a notice of it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { resolveConfig } from "../../src/config/resolve.js"
import { sealSecret } from "../../src/flows/two-factor/store.js"
import { newTotpSecret } from "../../src/flows/two-factor/totp.js"
import { verifyPassword } from "../../src/password/hash.js"
import { SoftAuthenticator } from "../helpers/authenticator.js"
import {
  addPasskey,
  app,
  codeAt,
  enrol,
  FAST,
  linkOP,
  owner,
  passkeyOptions,
  passkeySignIn,
  post,
  PASSWORD,
  PROOF_COOKIE,
  reauthenticate,
  reauthenticationAsked,
  SESSION_COOKIE,
  signIn,
  steal,
} from "../helpers/account-security.js"
import { startOP, type OP } from "../helpers/oidc-provider.js"
import { Browser, ORIGIN } from "../helpers/request.js"

let op: OP
beforeAll(async () => {
  op = await startOP()
})
afterAll(async () => {
  await op?.stop()
  vi.useRealTimers()
})

describe.each(["database", "jwt"] as const)("a stolen %s session", (strategy) => {
  /** Ada, with two-factor authentication on, signed in (with her code) in her own browser. */
  async function adaSignedIn() {
    const context = app({ strategy, op })
    const user = await owner(context.adapter)
    const setupBrowser = new Browser(context.config)
    await signIn(setupBrowser)
    const { secret } = await enrol(setupBrowser)
    const browser = new Browser(context.config)
    const signedIn = await signIn(browser, { secret })
    expect(signedIn.location!.href).toBe(`${ORIGIN}/home`)
    context.mails.length = 0
    context.events.accountChanged.mockClear()
    return { ...context, user, secret, browser }
  }

  it("adds no passkey: the options are refused, a forced registration too, and nothing signs in without a code", async () => {
    const { adapter, config, browser, secret, events } = await adaSignedIn()
    const thief = steal(browser)
    // The stolen cookie is a session: the thief is signed in as Ada.
    expect((await thief.session())?.user?.email).toBe("ada@example.com")

    const attempt = await addPasskey(thief)
    expect(attempt.refused!.response.status).toBe(403)
    expect(attempt.refused!.body).toMatchObject({ error: "ReauthenticationRequired" })
    const url = new URL(attempt.refused!.body.url as string)
    expect(url.origin).toBe(ORIGIN)
    expect(url.pathname).toBe("/auth/reauthenticate")

    // A registration answered to a sign-in challenge: refused, nothing stored.
    const { body } = await passkeyOptions(thief, "authenticate")
    const forced = new SoftAuthenticator().create({
      challenge: body.options.challenge,
      origin: ORIGIN,
      rpId: "localhost",
    })
    await post(thief, "/auth/callback/passkey", {
      action: "register",
      data: JSON.stringify(forced.response),
    })
    expect(adapter.authenticators.size).toBe(0)
    expect(events.accountChanged).not.toHaveBeenCalled()

    // Ada's own session is as it was, and her code still guards every sign-in.
    expect((await browser.session())?.user?.email).toBe("ada@example.com")
    const asked = await signIn(new Browser(config))
    expect(asked.location!.pathname).toBe("/auth/two-factor")
    const again = await signIn(new Browser(config), { secret, step: 0 })
    expect(again.location!.href).toBe(`${ORIGIN}/home`)
  })

  it("a proof made without the second factor does not add a passkey for a user who has one", async () => {
    // A session (and its proof) from before Ada turned two-factor on: fresh, but one factor.
    const context = app({ strategy, op })
    await owner(context.adapter)
    const before = new Browser(context.config)
    await signIn(before)
    const other = new Browser(context.config)
    await signIn(other)
    await enrol(other)
    expect(before.cookies.has(PROOF_COOKIE)).toBe(true)

    const attempt = await addPasskey(before)
    expect(attempt.refused!.response.status).toBe(403)
    if (strategy === "database") {
      // Turning two-factor on ended every other database session: nobody is signed in there.
      expect(await before.session()).toBeNull()
      expect(attempt.refused!.body.error).toBe("WebAuthnRegistrationRequiresSignIn")
    } else {
      // A JWT session lives on; its proof did not include the second factor.
      expect((await before.session())?.user?.email).toBe("ada@example.com")
      expect(new URL(attempt.refused!.body.url as string).searchParams.get("code")).toBe(
        "second_factor",
      )
    }
    expect(context.adapter.authenticators.size).toBe(0)
  })

  it("links no account at an OAuth provider", async () => {
    const { adapter, browser, events } = await adaSignedIn()
    const thief = steal(browser)
    const answer = await linkOP(thief)
    const asked = reauthenticationAsked(new URL(answer.headers.get("location")!))
    expect(asked.code).toBe("required")
    expect([...adapter.accounts.values()].some((account) => account.provider === "op")).toBe(false)
    expect(events.linkAccount).not.toHaveBeenCalled()
  })

  it("turns no two-factor authentication on: no factor stored, no recovery codes, no session ended", async () => {
    const context = app({ strategy, op })
    await owner(context.adapter)
    const browser = new Browser(context.config)
    await signIn(browser)
    const other = new Browser(context.config)
    await signIn(other)
    const thief = steal(browser)

    // The built-in setup page shows no key: it sends the thief to the step first.
    const page = await thief.fetch("/auth/two-factor/setup?callbackUrl=%2Fprofile")
    const asked = reauthenticationAsked(new URL(page.headers.get("location")!))
    expect(asked.code).toBe("required")
    expect(asked.callbackUrl).toBe(
      `${ORIGIN}/auth/two-factor/setup?callbackUrl=${encodeURIComponent("/profile")}`,
    )
    // A setup made for the account anyway (as an app's own page would show it) is refused.
    const user = (await context.adapter.getUserByEmail!("ada@example.com"))!
    const secret = newTotpSecret()
    const setup = await sealSecret({ config: resolveConfig(context.config) }, user.id, secret)
    const { response, location } = await post(thief, "/auth/two-factor/setup", {
      setup,
      code: await codeAt(secret),
      callbackUrl: "/profile",
    })
    expect(reauthenticationAsked(location).code).toBe("required")
    expect(await response.text()).not.toMatch(/[a-z2-7]{5}-[a-z2-7]{5}/)
    expect(context.adapter.twoFactors.size).toBe(0)
    expect(context.adapter.recoveryCodes.size).toBe(0)
    // The owner's sessions are all still there.
    expect((await other.session())?.user?.email).toBe("ada@example.com")
    expect((await browser.session())?.user?.email).toBe("ada@example.com")
    expect(context.mails).toHaveLength(0)
  })

  it("removes no way in, and changes no password, without the step", async () => {
    const { adapter, browser, user } = await adaSignedIn()
    const authenticator = new SoftAuthenticator()
    const added = await addPasskey(browser, authenticator)
    expect(added.answer!.location!.pathname).toBe("/profile")
    const thief = steal(browser)
    const credentialID = [...adapter.authenticators.keys()][0]!

    const unlink = await post(thief, "/auth/unlink/passkey", { id: credentialID })
    expect(reauthenticationAsked(unlink.location).code).toBe("required")
    expect(adapter.authenticators.size).toBe(1)

    // Even knowing the password (phished): the second factor is asked.
    const change = await post(thief, "/auth/change-password/password", {
      currentPassword: PASSWORD,
      password: "the thief's own password",
      callbackUrl: "/profile",
    })
    expect(reauthenticationAsked(change.location).code).toBe("required")
    const stored = adapter.passwords.get(user.id)!
    expect((await verifyPassword(PASSWORD, stored, FAST)).ok).toBe(true)
  })

  it("turns no two-factor authentication off and gets no recovery codes, even after the step's other ways", async () => {
    const { adapter, browser, user, mails } = await adaSignedIn()
    const thief = steal(browser)
    const before = new Set(adapter.recoveryCodes.get(user.id))
    for (const path of ["/auth/two-factor/disable", "/auth/two-factor/recovery-codes"]) {
      const { response, location } = await post(thief, path, {
        code: "000000",
        callbackUrl: "/profile",
      })
      expect(location!.searchParams.get("code")).toBe("wrong_code")
      expect(await response.text()).not.toMatch(/[a-z2-7]{5}-[a-z2-7]{5}/)
    }
    // The step does not take what the thief may hold besides the session: the password, a code
    // mailed to the owner.
    const weak: Record<string, string>[] = [
      { method: "password", password: PASSWORD },
      { method: "email", send: "1" },
    ]
    for (const form of weak) {
      const refused = await reauthenticate(thief, form)
      expect(refused.location!.searchParams.get("code")).toBe("second_factor")
    }
    expect(adapter.twoFactors.has(user.id)).toBe(true)
    expect(new Set(adapter.recoveryCodes.get(user.id))).toEqual(before)
    expect(mails).toHaveLength(0)
  })

  it("the owner confirms it is them, adds the passkey in the same session, and is told by mail", async () => {
    const { adapter, config, browser, secret, mails, events } = await adaSignedIn()
    // Later than the window: the sign-in's proof is stale.
    vi.useFakeTimers({ now: Date.now() + 301_000, toFake: ["Date"] })
    const stale = await addPasskey(browser)
    expect(stale.refused!.response.status).toBe(403)

    const confirmed = await reauthenticate(browser, {
      method: "code",
      code: await codeAt(secret, 1),
    })
    expect(confirmed.location!.href).toBe(`${ORIGIN}/profile`)
    expect(events.reauthenticated).toHaveBeenCalledWith(expect.objectContaining({ method: "code" }))
    const sessionBefore = browser.cookies.get(SESSION_COOKIE)
    const rowsBefore = adapter.sessions.size
    const authenticator = new SoftAuthenticator()
    const added = await addPasskey(browser, authenticator)
    expect(added.answer!.location!.href).toBe(`${ORIGIN}/profile`)
    expect(adapter.authenticators.size).toBe(1)
    if (strategy === "database") {
      // No new session: the one Ada had goes on.
      expect(browser.cookies.get(SESSION_COOKIE)).toBe(sessionBefore)
      expect(adapter.sessions.size).toBe(rowsBefore)
    }
    expect((await browser.session())?.user?.email).toBe("ada@example.com")

    expect(events.accountChanged).toHaveBeenCalledWith({
      user: expect.objectContaining({ email: "ada@example.com" }),
      change: { type: "passkeyAdded", credentialID: expect.any(String) },
    })
    const notice = mails.find((mail) => mail.subject.startsWith("A passkey was added"))
    expect(notice?.to).toBe("ada@example.com")
    expect(notice!.text).toContain(`${ORIGIN}/auth/reset-password`)

    // Her passkey (which verified her) signs in without a code.
    const { answer } = await passkeySignIn(config, authenticator, added.credential!)
    expect(answer.location!.href).toBe(`${ORIGIN}/home`)
  })
})
