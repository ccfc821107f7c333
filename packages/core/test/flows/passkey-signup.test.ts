/**
 * Passkey-first sign-up (`Passkey({ signUp: true })`) through `Auth`, with real WebAuthn
 * payloads (the software authenticator) and the app's mails kept in order: an address, the code
 * mailed to it, a passkey, an account with only that passkey — and what an attacker holding
 * only the victim's address, a copied cookie, or a code for another address gets out of it.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import Email from "../../src/providers/email.js"
import Passkey from "../../src/providers/passkey.js"
import type { AuthConfig } from "../../src/types.js"
import {
  app,
  enrol,
  owner,
  passkeySignIn,
  signIn,
  steal,
  type App,
  type SentMail,
} from "../helpers/account-security.js"
import { SoftAuthenticator } from "../helpers/authenticator.js"
import { Browser, ORIGIN, SECRET } from "../helpers/request.js"

afterEach(() => vi.useRealTimers())

const SIGN_UP = "/auth/passkey-signup/passkey"
const SIGN_UP_COOKIE = "latch.passkey-sign-up"

/** The account-security app, its passkey provider with sign-up on. */
function signUpApp(strategy: "jwt" | "database" = "jwt"): App {
  const made = app({ strategy })
  made.config.providers = made.config.providers!.map((provider) =>
    typeof provider !== "function" && provider.id === "passkey"
      ? Passkey({ userVerification: "preferred", signUp: true })
      : provider,
  )
  return made
}

async function post(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch(path, { form: { csrfToken, ...form } })
  const location = response.headers.get("location")
  return { response, location: location ? new URL(location) : null }
}

/** The code in the last mail to `to`, if it carries one. */
function codeFor(mails: SentMail[], to: string): string | undefined {
  const mail = mails.filter((sent) => sent.to === to).at(-1)
  return mail && /^\s*(\d{6})\s*$/m.exec(mail.text)?.[1]
}

async function options(browser: Browser, query = "action=register") {
  const response = await browser.fetch(`/auth/webauthn-options/passkey?${query}`)
  return { response, body: (await response.json()) as Record<string, any> }
}

/** Makes the passkey in `browser` (whose address is proven) and posts it; the callback's answer. */
async function createPasskey(browser: Browser, authenticator = new SoftAuthenticator()) {
  const { response, body } = await options(browser)
  expect(response.status).toBe(200)
  expect(body.action).toBe("register")
  const made = authenticator.create(
    { challenge: body.options.challenge, origin: ORIGIN, rpId: "localhost" },
    body.options.user.id,
  )
  const answer = await post(browser, "/auth/callback/passkey", {
    action: "register",
    data: JSON.stringify(made.response),
    callbackUrl: "/welcome",
  })
  return { answer, credential: made.credential, authenticator, user: body.options.user }
}

/** Starts a sign-up for `email` and types the code mailed to it. */
async function proveAddress(made: App, browser: Browser, email: string) {
  const started = await post(browser, SIGN_UP, { email, callbackUrl: "/welcome" })
  expect(started.location?.pathname).toBe(SIGN_UP)
  const code = codeFor(made.mails, email)
  expect(code).toMatch(/^\d{6}$/)
  const confirmed = await post(browser, SIGN_UP, { code: code! })
  expect(confirmed.location?.pathname).toBe(SIGN_UP)
  expect(confirmed.location?.searchParams.get("error")).toBeNull()
  return code!
}

async function sessionOf(browser: Browser) {
  const response = await browser.fetch("/auth/session")
  return (await response.json()) as { user?: { email?: string } } | null
}

describe.each(["jwt", "database"] as const)("passkey-first sign-up (%s sessions)", (strategy) => {
  it("creates an account with only a passkey and a verified address, signed in; the passkey signs in again", async () => {
    const made = signUpApp(strategy)
    const browser = new Browser(made.config)
    await proveAddress(made, browser, "new@example.com")

    const { answer, credential, authenticator, user } = await createPasskey(browser)
    expect(answer.location?.href).toBe(`${ORIGIN}/welcome`)
    expect(user.name).toBe("new@example.com")
    expect((await sessionOf(browser))?.user?.email).toBe("new@example.com")
    expect(browser.cookies.has(SIGN_UP_COOKIE)).toBe(false)

    const stored = await made.adapter.getUserByEmail!("new@example.com")
    expect(stored?.emailVerified).toBeInstanceOf(Date)
    expect(made.adapter.passwords.has(stored!.id)).toBe(false)
    expect(await made.adapter.listAuthenticatorsByUserId!(stored!.id)).toHaveLength(1)
    expect(made.events.signIn).toHaveBeenCalledWith(expect.objectContaining({ isNewUser: true }))

    // Signed out (a fresh browser), the passkey signs in to the same account.
    const again = await passkeySignIn(made.config, authenticator, credential)
    expect(again.answer.location?.href).toBe(`${ORIGIN}/home`)
    expect((await sessionOf(again.browser))?.user?.email).toBe("new@example.com")
  })
})

describe("passkey-first sign-up: the page tells nobody whether an address has an account", () => {
  it("answers an address with an account exactly as a new one, and mails its owner no code", async () => {
    const made = signUpApp()
    await owner(made.adapter, "ada@example.com")
    const answers = []
    for (const email of ["ada@example.com", "nobody@example.com"]) {
      const browser = new Browser(made.config)
      const { response, location } = await post(browser, SIGN_UP, { email })
      const page = await browser.fetch(SIGN_UP)
      answers.push({
        status: response.status,
        location: location?.href,
        cookies: response.headers
          .getSetCookie()
          .map((cookie) => cookie.replace(/=[^;]*/, "=…").replace(/Expires=[^;]*/i, "")),
        page: (await page.text())
          .replaceAll(email, "ADDRESS")
          .replace(/nonce-[^'"]+|value="[^"]{20,}"/g, ""),
      })
    }
    expect(answers[0]).toEqual(answers[1])

    const toOwner = made.mails.filter((mail) => mail.to === "ada@example.com")
    expect(toOwner).toHaveLength(1)
    expect(toOwner[0]!.subject).toMatch(/Someone tried to create an account/)
    expect(codeFor(made.mails, "ada@example.com")).toBeUndefined()
    expect(codeFor(made.mails, "nobody@example.com")).toMatch(/^\d{6}$/)
  })

  it("gives the holder of a mailbox no passkey for an account that has one, a password or a second factor", async () => {
    const made = signUpApp("database")
    await owner(made.adapter, "ada@example.com")
    // The owner turns two-factor authentication on.
    const owners = new Browser(made.config)
    await signIn(owners)
    await enrol(owners)
    const ada = await made.adapter.getUserByEmail!("ada@example.com")
    expect(await made.adapter.getTwoFactor!(ada!.id)).toBeTruthy()

    // Someone who reads the owner's mail asks for a passkey account: no code comes.
    const reader = new Browser(made.config)
    await post(reader, SIGN_UP, { email: "ada@example.com" })
    expect(codeFor(made.mails, "ada@example.com")).toBeUndefined()
    // Whatever they type, nothing is proven, and no registration is offered.
    for (const code of ["000000", "123456"]) {
      const { location } = await post(reader, SIGN_UP, { code })
      expect(location?.searchParams.get("code")).toBe("wrong_code")
    }
    expect((await options(reader)).response.status).toBe(403)
    const user = await made.adapter.getUserByEmail!("ada@example.com")
    expect(await made.adapter.listAuthenticatorsByUserId!(user!.id)).toHaveLength(0)
  })
})

describe("passkey-first sign-up: attacks", () => {
  it("someone with only the victim's address gets no account: the victim's own sign-up later is theirs alone", async () => {
    const made = signUpApp()
    const attacker = new Browser(made.config)
    const attackerKey = new SoftAuthenticator()
    await post(attacker, SIGN_UP, { email: "victim@example.com" })
    // No code reached them: registering is refused, with or without an address in the query.
    expect((await options(attacker)).response.status).toBe(403)
    expect((await options(attacker, "action=register&email=victim%40example.com")).body).toEqual(
      expect.objectContaining({ error: "WebAuthnRegistrationRequiresSignIn" }),
    )
    // Guessing: five tries, then even the right code is refused.
    const right = codeFor(made.mails, "victim@example.com")!
    for (let i = 0; i < 5; i++) {
      const guess = String((Number(right) + 1 + i) % 1_000_000).padStart(6, "0")
      const { location } = await post(attacker, SIGN_UP, { code: guess })
      expect(location?.searchParams.get("code")).toBe("wrong_code")
    }
    const { location } = await post(attacker, SIGN_UP, { code: right })
    expect(location?.searchParams.get("code")).toBe("rate_limited")
    expect(await made.adapter.getUserByEmail!("victim@example.com")).toBeNull()

    // The victim signs up in their own browser; the attacker's authenticator opens nothing.
    const victim = new Browser(made.config)
    await proveAddress(made, victim, "victim@example.com")
    const mine = await createPasskey(victim)
    expect(mine.answer.location?.href).toBe(`${ORIGIN}/welcome`)
    const user = await made.adapter.getUserByEmail!("victim@example.com")
    const passkeys = await made.adapter.listAuthenticatorsByUserId!(user!.id)
    expect(passkeys).toHaveLength(1)
    expect(attackerKey.credentials.size).toBe(0)
  })

  it("a code works only in the browser it was asked from, for its own address", async () => {
    const made = signUpApp()
    const a = new Browser(made.config)
    const b = new Browser(made.config)
    await post(a, SIGN_UP, { email: "a@example.com" })
    await post(b, SIGN_UP, { email: "b@example.com" })
    const codeA = codeFor(made.mails, "a@example.com")!
    // B's browser types A's code: it is not B's.
    const { location } = await post(b, SIGN_UP, { code: codeA })
    expect(location?.searchParams.get("code")).toBe("wrong_code")
    // A browser that never asked has no sign-up to confirm.
    const stranger = new Browser(made.config)
    const refused = await post(stranger, SIGN_UP, { code: codeA })
    expect(refused.location?.searchParams.get("code")).toBe("no_request")

    // A's proof registers A, whatever the options request names.
    await post(a, SIGN_UP, { code: codeA })
    const { body } = await options(a, "action=register&email=b%40example.com")
    expect(body.options.user.name).toBe("a@example.com")
  })

  it("a proof of the address works once: a copied cookie replayed after the sign-up creates nothing", async () => {
    const made = signUpApp("database")
    const browser = new Browser(made.config)
    await proveAddress(made, browser, "once@example.com")
    const copy = new Browser(made.config)
    copy.cookies.set(SIGN_UP_COOKIE, browser.cookies.get(SIGN_UP_COOKIE)!)

    expect((await createPasskey(browser)).answer.location?.href).toBe(`${ORIGIN}/welcome`)
    const { response, body } = await options(copy)
    expect(response.status).toBe(200)
    const made2 = new SoftAuthenticator().create(
      { challenge: body.options.challenge, origin: ORIGIN, rpId: "localhost" },
      body.options.user.id,
    )
    const { location } = await post(copy, "/auth/callback/passkey", {
      action: "register",
      data: JSON.stringify(made2.response),
    })
    expect(location?.pathname).toBe(SIGN_UP)
    expect(location?.searchParams.get("error")).toBe("PasskeySignUpError")
    expect(location?.searchParams.get("code")).toBe("replay")
    const user = await made.adapter.getUserByEmail!("once@example.com")
    expect(await made.adapter.listAuthenticatorsByUserId!(user!.id)).toHaveLength(1)
  })

  it("a copied proof replayed before the owner registers loses to the first registration, which spends it", async () => {
    const made = signUpApp()
    const browser = new Browser(made.config)
    await proveAddress(made, browser, "race@example.com")
    const copy = new Browser(made.config)
    copy.cookies.set(SIGN_UP_COOKIE, browser.cookies.get(SIGN_UP_COOKIE)!)
    const first = await createPasskey(copy)
    expect(first.answer.location?.href).toBe(`${ORIGIN}/welcome`)
    const second = await createPasskey(browser)
    expect(second.answer.location?.searchParams.get("code")).toBe("replay")
  })

  it("an expired code, and an expired proof, are refused", async () => {
    const made = signUpApp()
    const browser = new Browser(made.config)
    await post(browser, SIGN_UP, { email: "late@example.com" })
    const code = codeFor(made.mails, "late@example.com")!
    const jar = new Map(browser.cookies)
    vi.useFakeTimers({ now: Date.now() + 11 * 60 * 1000, toFake: ["Date"] })
    const late = await post(browser, SIGN_UP, { code })
    expect(late.location?.searchParams.get("code")).toBe("expired")

    vi.useRealTimers()
    browser.cookies = jar
    await post(browser, SIGN_UP, { code })
    vi.useFakeTimers({ now: Date.now() + 11 * 60 * 1000, toFake: ["Date"] })
    expect((await options(browser)).response.status).toBe(403)
    expect(await made.adapter.getUserByEmail!("late@example.com")).toBeNull()
  })

  it("limits the codes mailed to an address, counted before anything looks it up", async () => {
    const made = signUpApp()
    await owner(made.adapter, "ada@example.com")
    for (const email of ["ada@example.com", "new@example.com"]) {
      const codes = []
      for (let i = 0; i < 4; i++) {
        const { response, location } = await post(new Browser(made.config), SIGN_UP, { email })
        codes.push(location?.searchParams.get("code") ?? null)
        if (i === 3) expect(response.headers.get("retry-after")).toBe("600")
      }
      expect(codes).toEqual([null, null, null, "rate_limited"])
    }
    expect(made.mails.filter((mail) => mail.to === "new@example.com")).toHaveLength(3)
  })

  it("limits the sign-ups one client starts, whatever the addresses", async () => {
    const made = signUpApp()
    const codes = []
    for (let i = 0; i < 21; i++) {
      const browser = new Browser(made.config)
      browser.clientAddress = "203.0.113.7"
      const { location } = await post(browser, SIGN_UP, { email: `spray${i}@example.com` })
      codes.push(location?.searchParams.get("code") ?? null)
    }
    expect(codes.filter((code) => code === "rate_limited")).toEqual(["rate_limited"])
    expect(codes.at(-1)).toBe("rate_limited")
  })

  it("a stolen session plus a proof of the thief's own address adds no passkey to the session's account", async () => {
    const made = signUpApp("database")
    const ada = await owner(made.adapter, "ada@example.com")
    const victim = new Browser(made.config)
    await signIn(victim)
    const thief = steal(victim)
    // The thief proves an address they own, in the browser holding the stolen session.
    await proveAddress(made, thief, "thief@example.com")
    // Registering there is a change of the signed-in account: it asks for fresh proof.
    const { response, body } = await options(thief)
    expect(response.status).toBe(403)
    expect(body.error).toBe("ReauthenticationRequired")
    expect(await made.adapter.listAuthenticatorsByUserId!(ada.id)).toHaveLength(0)
    expect(await made.adapter.getUserByEmail!("thief@example.com")).toBeNull()
  })

  it("asks the signIn callback before mailing: a refusal mails nothing, a URL sends the visitor there", async () => {
    const made = signUpApp()
    const asked: unknown[] = []
    made.config.callbacks = {
      signIn: (params) => {
        asked.push(params)
        const email = params.user.email ?? ""
        if (email.endsWith("@blocked.example")) return false
        if (email.endsWith("@invite.example")) return "/invitations"
        return true
      },
    }
    const refused = await post(new Browser(made.config), SIGN_UP, { email: "x@blocked.example" })
    expect(refused.location?.pathname).toBe("/auth/error")
    expect(refused.location?.searchParams.get("error")).toBe("AccessDenied")
    const elsewhere = await post(new Browser(made.config), SIGN_UP, { email: "y@invite.example" })
    expect(elsewhere.location?.href).toBe(`${ORIGIN}/invitations`)
    expect(made.mails).toHaveLength(0)
    expect(asked[0]).toMatchObject({
      account: { provider: "passkey", type: "webauthn" },
      email: { verificationRequest: true },
    })
    await proveAddress(made, new Browser(made.config), "ok@example.com")
  })

  it("a signed-in browser gets no new account: the page sends it on", async () => {
    const made = signUpApp()
    await owner(made.adapter, "ada@example.com")
    const browser = new Browser(made.config)
    await signIn(browser)
    const page = await browser.fetch(`${SIGN_UP}?callbackUrl=/home`)
    expect(page.headers.get("location")).toBe(`${ORIGIN}/home`)
  })
})

describe("passkey-first sign-up: the pages and bad input", () => {
  it("walks the built-in page through its three stages, linked from the sign-in page", async () => {
    const made = signUpApp()
    const browser = new Browser(made.config)
    const signInPage = await (await browser.fetch("/auth/signin")).text()
    expect(signInPage).toContain(`href="${ORIGIN}${SIGN_UP}"`)
    expect(signInPage).toContain("Create an account with a passkey")

    expect(await (await browser.fetch(SIGN_UP)).text()).toContain('name="email"')
    await post(browser, SIGN_UP, { email: "page@example.com" })
    const codePage = await (await browser.fetch(SIGN_UP)).text()
    expect(codePage).toContain('name="code"')
    expect(codePage).toContain("page@example.com")
    await post(browser, SIGN_UP, { code: codeFor(made.mails, "page@example.com")! })
    const passkeyPage = await browser.fetch(SIGN_UP)
    const html = await passkeyPage.text()
    expect(html).toContain('data-action="register"')
    expect(html).toContain(`action="${ORIGIN}/auth/callback/passkey"`)
    expect(passkeyPage.headers.get("content-security-policy")).toMatch(/script-src 'nonce-/)
  })

  it("refuses bad input with a 4xx or a coded redirect, never a 500", async () => {
    const made = signUpApp()
    const browser = new Browser(made.config)
    const bad = await post(browser, SIGN_UP, { email: "a@b.com, c@d.com" })
    expect(bad.location?.searchParams.get("code")).toBe("invalid_email")
    expect((await post(browser, SIGN_UP, {})).response.status).toBe(400)
    expect(
      (await post(browser, "/auth/passkey-signup/email", { email: "x@y.z" })).response.status,
    ).toBe(400)
    expect((await browser.fetch("/auth/passkey-signup/nope")).status).toBe(400)
    // Without the CSRF token, nothing is mailed.
    const forged = await browser.fetch(SIGN_UP, { form: { email: "x@example.com" } })
    expect(forged.status).toBeLessThan(500)
    expect(made.mails.filter((mail) => mail.to === "x@example.com")).toHaveLength(0)
    // With the header, JSON with the page's URL.
    const csrfToken = await browser.csrfToken()
    const json = await browser.fetch(SIGN_UP, {
      form: { csrfToken, email: "json@example.com" },
      headers: { "x-auth-return-redirect": "1" },
    })
    expect(await json.json()).toEqual({ url: `${ORIGIN}${SIGN_UP}` })
  })

  it("is refused at startup without a way to mail the code", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: app({ strategy: "jwt" }).adapter,
      experimental: { enableWebAuthn: true },
      providers: [Passkey({ signUp: true })],
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    }
    const response = await Auth(new Request(`${ORIGIN}/auth/providers`), config)
    expect(response.status).toBe(500)
    expect(JSON.stringify(await response.json())).toMatch(/signUp on, which mails a code/)
    const withMail = {
      ...config,
      providers: [
        Passkey({ signUp: true }),
        Email({ sendVerificationRequest: () => {}, sendMail: () => {} }),
      ],
    }
    expect((await Auth(new Request(`${ORIGIN}/auth/providers`), withMail)).status).toBe(200)
  })
})

describe("getPasskeySignUp", () => {
  it("tells an app's own page the stage of the browser's sign-up, and the address", async () => {
    const { getPasskeySignUp } = await import("../../src/index.js")
    const made = signUpApp()
    const browser = new Browser(made.config)
    const read = () =>
      getPasskeySignUp(
        new Request(`${ORIGIN}/join`, { headers: { cookie: browser.cookieHeader() } }),
        made.config,
      )
    expect(await read()).toEqual({ stage: "email", provider: "passkey" })
    await post(browser, SIGN_UP, { email: "own@example.com" })
    expect(await read()).toEqual({ stage: "code", email: "own@example.com", provider: "passkey" })
    await post(browser, SIGN_UP, { code: codeFor(made.mails, "own@example.com")! })
    expect(await read()).toEqual({
      stage: "passkey",
      email: "own@example.com",
      provider: "passkey",
    })
  })
})

describe("passkey-first sign-up with a page of the app's own", () => {
  it("sends every step, and every refusal, to pages.passkeySignUp with the provider", async () => {
    const made = signUpApp()
    made.config.pages = { passkeySignUp: "/join" }
    const browser = new Browser(made.config)
    const page = await browser.fetch(`${SIGN_UP}?callbackUrl=/home`)
    expect(page.headers.get("location")).toBe(`${ORIGIN}/join?provider=passkey&callbackUrl=%2Fhome`)
    const started = await post(browser, SIGN_UP, { email: "own@example.com", callbackUrl: "/home" })
    expect(started.location?.href).toBe(
      `${ORIGIN}/join?provider=passkey&callbackUrl=${encodeURIComponent(`${ORIGIN}/home`)}`,
    )
    const wrong = await post(browser, SIGN_UP, { code: "000000" })
    expect(wrong.location?.pathname).toBe("/join")
    expect(Object.fromEntries(wrong.location!.searchParams)).toMatchObject({
      provider: "passkey",
      error: "PasskeySignUpError",
      code: "wrong_code",
    })
  })
})
