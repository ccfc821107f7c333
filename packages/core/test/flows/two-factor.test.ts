/**
 * Two-factor authentication through `Auth()`: once a user turns it on, no primary method —
 * credentials, password, OAuth (a real OpenID Provider), passkey — yields a session before the
 * code; wrong, replayed and late codes fail with coded errors; a recovery code works once;
 * turning it off or getting new codes needs a code. On both session strategies.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { TOTP_PERIOD, totpAt } from "../../src/flows/two-factor/totp.js"
import { beginTwoFactorSetup, getTwoFactorStatus } from "../../src/index.js"
import { hashPassword } from "../../src/password/hash.js"
import Credentials from "../../src/providers/credentials.js"
import Passkey from "../../src/providers/passkey.js"
import Password from "../../src/providers/password.js"
import type { AuthConfig, TwoFactorOptions } from "../../src/types.js"
import { SoftAuthenticator } from "../helpers/authenticator.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { followLink } from "../helpers/continue-page.js"
import { CLIENTS, login, startOP, type OP } from "../helpers/oidc-provider.js"
import Email from "../../src/providers/email.js"
import { Browser, ORIGIN, SECRET } from "../helpers/request.js"
import { readQrSvg } from "../helpers/qr-reader.js"

const FAST = { ln: 10, r: 8, p: 1 }
const PASSWORD = "correct horse battery"
/** The links the email provider "sent". */
const mailedLinks: string[] = []

let op: OP
beforeAll(async () => {
  op = await startOP()
})
afterAll(async () => {
  await op?.stop()
})
// Date stands still in every test (timers run as usual): a code computed for a step is checked
// in that step, however long the request takes. With the real clock, a step boundary passing
// between the two made a code of the step before two steps old, and refused (wrong_code). A test
// that needs time to pass moves the clock itself.
beforeEach(() => vi.useFakeTimers({ toFake: ["Date"] }))
afterEach(() => vi.useRealTimers())

type Events = Record<
  | "signIn"
  | "twoFactorEnrolled"
  | "twoFactorVerified"
  | "twoFactorFailed"
  | "recoveryCodeUsed"
  | "twoFactorDisabled",
  ReturnType<typeof vi.fn<(message: unknown) => void>>
>

function setup(strategy: "jwt" | "database", twoFactor: TwoFactorOptions = {}) {
  const adapter: MemoryAdapter = memoryAdapter()
  const events: Events = {
    signIn: vi.fn(),
    twoFactorEnrolled: vi.fn(),
    twoFactorVerified: vi.fn(),
    twoFactorFailed: vi.fn(),
    recoveryCodeUsed: vi.fn(),
    twoFactorDisabled: vi.fn(),
  }
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy },
    experimental: { enableWebAuthn: true },
    twoFactor,
    providers: [
      Password({ scrypt: FAST, sendMail: () => {} }),
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: async ({ username, password }) =>
          username === "ada" && password === PASSWORD
            ? await adapter.getUserByEmail!("ada@example.com")
            : null,
      }),
      { id: "op", name: "Test OP", type: "oidc", issuer: op.issuer, ...CLIENTS.basic },
      Email({
        sendVerificationRequest: ({ url }) => {
          mailedLinks.push(url)
        },
      }),
      // "preferred": a passkey may sign in without verifying the user, and then asks a code.
      Passkey({ userVerification: "preferred" }),
    ],
    events,
    logger: { error: vi.fn(), warn: () => {}, debug: () => {} },
  }
  return { adapter, config, events }
}

async function ada(adapter: MemoryAdapter, email = "ada@example.com") {
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email,
    emailVerified: new Date("2026-01-01"),
  })
  adapter.passwords.set(user.id, await hashPassword(PASSWORD, FAST))
  return user
}

async function post(browser: Browser, path: string, form: Record<string, string> = {}) {
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch(path, { form: { csrfToken, ...form } })
  const location = response.headers.get("location")
  return { response, location: location ? new URL(location) : null }
}

const passwordSignIn = (browser: Browser, email = "ada@example.com") =>
  post(browser, "/auth/callback/password", { email, password: PASSWORD, callbackUrl: "/home" })

/** The code of the secret for the step `offset` steps from now. */
const codeAt = (secret: string, offset = 0) =>
  totpAt(secret, Date.now() + offset * TOTP_PERIOD * 1000)

/** A signed-in browser turns two-factor authentication on through the setup page. */
async function enrol(browser: Browser) {
  const page = await browser.fetch("/auth/two-factor/setup")
  expect(page.status).toBe(200)
  const html = await page.text()
  expect(html).toContain("<svg")
  const setupValue = /name="setup" value="([^"]+)"/.exec(html)![1]!
  const secret = /Key: <code>([A-Z2-7 ]+)<\/code>/.exec(html)![1]!.replace(/ /g, "")
  // The QR code, read as an app reads it, carries the key shown beside it.
  const qr = readQrSvg(
    /<svg [^>]*aria-label="QR code for your authenticator app"[^]*?<\/svg>/.exec(html)![0],
  )
  expect(new URL(qr.text).protocol).toBe("otpauth:")
  expect(new URL(qr.text).searchParams.get("secret")).toBe(secret)
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch("/auth/two-factor/setup", {
    form: { csrfToken, setup: setupValue, code: await codeAt(secret, -1), callbackUrl: "/profile" },
  })
  expect(response.status).toBe(200)
  const codes = [
    ...(await response.text()).matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code>/g),
  ].map((match) => match[1]!)
  expect(codes).toHaveLength(10)
  return { secret, recoveryCodes: codes }
}

/** Ada, with a password and two-factor authentication on; signed out. */
async function adaWithTwoFactor(strategy: "jwt" | "database", options: TwoFactorOptions = {}) {
  const context = setup(strategy, options)
  const user = await ada(context.adapter)
  const browser = new Browser(context.config)
  await passwordSignIn(browser)
  expect(await browser.session()).not.toBeNull()
  const enrolled = await enrol(browser)
  return { ...context, user, ...enrolled }
}

describe.each(["database", "jwt"] as const)(
  "two-factor authentication (%s sessions)",
  (strategy) => {
    it("signs in with a password, then the code; no session before it", async () => {
      const { config, secret, events, user } = await adaWithTwoFactor(strategy)
      const browser = new Browser(config)
      const { location } = await passwordSignIn(browser)
      expect(location!.href).toBe(`${ORIGIN}/auth/two-factor`)
      expect(await browser.session()).toBeNull()
      const page = await browser.fetch("/auth/two-factor")
      expect(await page.text()).toContain('autocomplete="one-time-code"')

      const done = await post(browser, "/auth/two-factor", { code: await codeAt(secret, 1) })
      expect(done.location!.href).toBe(`${ORIGIN}/home`)
      expect((await browser.session())?.user?.email).toBe("ada@example.com")
      expect(events.twoFactorVerified).toHaveBeenCalledWith({
        user: expect.objectContaining({ id: user.id }),
        method: "totp",
      })
      // The pending state is gone with its use.
      expect([...browser.cookies.keys()].some((name) => name.includes("two-factor"))).toBe(false)
    })

    it.each([
      [
        "credentials",
        (browser: Browser) =>
          post(browser, "/auth/callback/credentials", { username: "ada", password: PASSWORD }),
      ],
      [
        "OAuth",
        async (browser: Browser) => {
          const start = await post(browser, "/auth/signin/op", { callbackUrl: "/home" })
          const response = await browser.fetch(await login(browser, start.location!.href))
          return { response, location: new URL(response.headers.get("location")!) }
        },
      ],
      [
        "email link",
        async (browser: Browser) => {
          await post(browser, "/auth/signin/email", {
            email: "ada@example.com",
            callbackUrl: "/home",
          })
          const response = await followLink(browser, mailedLinks.at(-1)!)
          return { response, location: new URL(response.headers.get("location")!) }
        },
      ],
    ])("stops a %s sign-in before its session", async (_, signIn) => {
      const { adapter, config, secret, user } = await adaWithTwoFactor(strategy)
      // The OP's alice is ada's account at the OP.
      await adapter.linkAccount!({
        userId: user.id,
        type: "oidc",
        provider: "op",
        providerAccountId: "alice",
      })
      const browser = new Browser(config)
      const { location } = await signIn(browser)
      expect(location!.pathname).toBe("/auth/two-factor")
      expect(await browser.session()).toBeNull()
      await post(browser, "/auth/two-factor", { code: await codeAt(secret, 1) })
      expect((await browser.session())?.user?.email).toBe("ada@example.com")
    })

    it("refuses a wrong code, a replayed one, and a late sign-in", async () => {
      const { config, secret, events } = await adaWithTwoFactor(strategy)
      const browser = new Browser(config)
      await passwordSignIn(browser)
      const wrong = await post(browser, "/auth/two-factor", { code: "000000" })
      expect(wrong.location!.pathname).toBe("/auth/two-factor")
      expect(wrong.location!.searchParams.get("error")).toBe("TwoFactorError")
      expect(wrong.location!.searchParams.get("code")).toBe("wrong_code")
      expect(await browser.session()).toBeNull()
      expect(events.twoFactorFailed).toHaveBeenCalledWith(
        expect.objectContaining({ reason: "wrong_code" }),
      )

      // The code used at enrolment (the previous step) is spent.
      const replayed = await post(browser, "/auth/two-factor", { code: await codeAt(secret, -1) })
      expect(replayed.location!.searchParams.get("code")).toBe("replayed_code")
      const code = await codeAt(secret, 0)
      await post(browser, "/auth/two-factor", { code })
      expect(await browser.session()).not.toBeNull()
      // The same code again, in another sign-in: refused.
      const other = new Browser(config)
      await passwordSignIn(other)
      const again = await post(other, "/auth/two-factor", { code })
      expect(again.location!.searchParams.get("code")).toBe("replayed_code")
      expect(await other.session()).toBeNull()

      // A sign-in that waited past its five minutes starts again.
      const late = new Browser(config)
      await passwordSignIn(late)
      vi.useFakeTimers({ now: Date.now() + 301_000, toFake: ["Date"] })
      const expired = await post(late, "/auth/two-factor", { code: await codeAt(secret, 0) })
      expect(expired.location!.pathname).toBe("/auth/signin")
      expect(expired.location!.searchParams.get("code")).toBe("expired")
      expect(await late.session()).toBeNull()
    })

    it("has no pending state without a primary sign-in", async () => {
      const { config, secret } = await adaWithTwoFactor(strategy)
      const browser = new Browser(config)
      const response = await post(browser, "/auth/two-factor", { code: await codeAt(secret, 1) })
      expect(response.location!.searchParams.get("code")).toBe("expired")
      expect(await browser.session()).toBeNull()
      // A forged pending cookie is nobody's.
      browser.cookies.set("latch.two-factor", "eyJhbGciOiJkaXIifQ..AAAA.AAAA.AAAA")
      const forged = await post(browser, "/auth/two-factor", { code: await codeAt(secret, 1) })
      expect(forged.location!.searchParams.get("code")).toBe("expired")
    })

    it("limits wrong codes per account: after five, the sixth is refused even if right", async () => {
      // One second into a 15-minute window (the limits' windows are aligned to the clock).
      const start = (Math.floor(Date.now() / 900_000) + 1) * 900_000 + 1000
      vi.useFakeTimers({ now: start, toFake: ["Date"] })
      const { config, secret } = await adaWithTwoFactor(strategy)
      const browser = new Browser(config)
      await passwordSignIn(browser)
      // The enrolment's right code counted nothing: five wrong ones fill the limit.
      for (let i = 0; i < 5; i++) {
        const wrong = await post(browser, "/auth/two-factor", { code: "000000" })
        expect(wrong.location!.searchParams.get("code")).toBe("wrong_code")
      }
      const limited = await post(browser, "/auth/two-factor", { code: await codeAt(secret, 1) })
      expect(limited.location!.searchParams.get("code")).toBe("rate_limited")
      // Until the window ends.
      expect(limited.response.headers.get("retry-after")).toBe("899")
      expect(await browser.session()).toBeNull()
    })

    it("follows twoFactor.rateLimit: its attempts, in windows of its length", async () => {
      // One second into a window of a minute.
      const start = (Math.floor(Date.now() / 60_000) + 1) * 60_000 + 1000
      vi.useFakeTimers({ now: start, toFake: ["Date"] })
      const { config, secret } = await adaWithTwoFactor(strategy, {
        rateLimit: { attempts: 2, window: 60 },
      })
      const browser = new Browser(config)
      await passwordSignIn(browser)
      const codes = []
      for (let i = 0; i < 3; i++)
        codes.push((await post(browser, "/auth/two-factor", { code: "000000" })).location)
      expect(codes.map((location) => location!.searchParams.get("code"))).toEqual([
        "wrong_code",
        "wrong_code",
        "rate_limited",
      ])
      const limited = await post(browser, "/auth/two-factor", { code: await codeAt(secret, 1) })
      expect(limited.location!.searchParams.get("code")).toBe("rate_limited")
      expect(limited.response.headers.get("retry-after")).toBe("59")
      // The next window: the code is accepted (the pending state lasts five minutes).
      vi.setSystemTime(Date.now() + 60_000)
      await post(browser, "/auth/two-factor", { code: await codeAt(secret, 0) })
      expect(await browser.session()).not.toBeNull()
    })

    it.each([
      ["the app's code and a recovery code", "right", "valid", "totp"],
      ["the app's code and anything", "right", "not a code", "totp"],
      ["a wrong app code and a recovery code", "000000", "valid", "recovery"],
      ["no app code and a recovery code", "", "valid", "recovery"],
      ["a wrong code in each field", "000000", "aaaaa-aaaaa", null],
    ] as const)(
      "with both fields filled — %s — tries the app's code first",
      async (_, code, recovery, method) => {
        const { config, secret, recoveryCodes, events } = await adaWithTwoFactor(strategy)
        const browser = new Browser(config)
        await passwordSignIn(browser)
        const done = await post(browser, "/auth/two-factor", {
          code: code === "right" ? await codeAt(secret, 1) : code,
          recoveryCode: recovery === "valid" ? recoveryCodes[0]! : recovery,
        })
        if (method === null) {
          expect(done.location!.searchParams.get("code")).toBe("wrong_code")
          expect(await browser.session()).toBeNull()
          return
        }
        expect(done.location!.href).toBe(`${ORIGIN}/home`)
        expect(events.twoFactorVerified).toHaveBeenCalledWith(expect.objectContaining({ method }))
        expect(events.recoveryCodeUsed).toHaveBeenCalledTimes(method === "recovery" ? 1 : 0)
        // A recovery code is spent only when it was what got the user in.
        const other = new Browser(config)
        await passwordSignIn(other)
        const again = await post(other, "/auth/two-factor", { recoveryCode: recoveryCodes[0]! })
        expect(again.location!.searchParams.get("code")).toBe(
          method === "recovery" ? "wrong_code" : null,
        )
      },
    )

    it("turns off with a right app code whatever the recovery-code field holds", async () => {
      const { config, secret, adapter, user, recoveryCodes } = await adaWithTwoFactor(strategy)
      const browser = new Browser(config)
      await passwordSignIn(browser)
      // The step of now, then the next one: a 30-s boundary between the requests never makes
      // them one (enrolment spent the step before).
      await post(browser, "/auth/two-factor", { code: await codeAt(secret, 0) })
      const disabled = await post(browser, "/auth/two-factor/disable", {
        code: await codeAt(secret, 1),
        recoveryCode: recoveryCodes[9]!.slice(0, 4),
        callbackUrl: "/profile",
      })
      expect(disabled.location!.href).toBe(`${ORIGIN}/profile`)
      expect(adapter.twoFactors.has(user.id)).toBe(false)
    })

    it("refuses a twoFactor.rateLimit that is not a positive integer, naming it", async () => {
      const { adapter, config } = setup(strategy, { rateLimit: { attempts: 0 } })
      const user = await ada(adapter)
      const browser = new Browser(config)
      await passwordSignIn(browser)
      const page = await (await browser.fetch("/auth/two-factor/setup")).text()
      const refused = await post(browser, "/auth/two-factor/setup", {
        setup: /name="setup" value="([^"]+)"/.exec(page)![1]!,
        code: await codeAt(/Key: <code>([A-Z2-7 ]+)<\/code>/.exec(page)![1]!.replace(/ /g, "")),
      })
      expect(refused.location!.searchParams.get("error")).toBe("Configuration")
      expect(adapter.twoFactors.has(user.id)).toBe(false)
      expect(config.logger!.error).toHaveBeenCalledWith(
        expect.objectContaining({
          message: expect.stringContaining("twoFactor.rateLimit.attempts"),
        }),
      )
    })

    it("takes a recovery code once", async () => {
      const { config, recoveryCodes, events } = await adaWithTwoFactor(strategy)
      const first = new Browser(config)
      await passwordSignIn(first)
      await post(first, "/auth/two-factor", { recoveryCode: recoveryCodes[3]!.toUpperCase() })
      expect(await first.session()).not.toBeNull()
      expect(events.recoveryCodeUsed).toHaveBeenCalledTimes(1)
      const second = new Browser(config)
      await passwordSignIn(second)
      const reused = await post(second, "/auth/two-factor", { recoveryCode: recoveryCodes[3]! })
      expect(reused.location!.searchParams.get("code")).toBe("wrong_code")
      expect(await second.session()).toBeNull()
    })

    it("asks no code of a passkey that verified the user, and one of a passkey that did not", async () => {
      const { adapter, config, secret, user } = await adaWithTwoFactor(strategy)
      const authenticator = new SoftAuthenticator()
      // Ada registers a passkey while signed in.
      const browser = new Browser(config)
      await passwordSignIn(browser)
      await post(browser, "/auth/two-factor", { code: await codeAt(secret, 1) })
      const registerOptions = await (
        await browser.fetch("/auth/webauthn-options/passkey?action=register")
      ).json()
      const { credential, response } = authenticator.create(
        { challenge: registerOptions.options.challenge, origin: ORIGIN, rpId: "localhost" },
        registerOptions.options.user.id,
      )
      await post(browser, "/auth/callback/passkey", {
        action: "register",
        data: JSON.stringify(response),
      })
      expect([...adapter.authenticators.values()][0]).toMatchObject({ userId: user.id })

      for (const userVerified of [true, false]) {
        const fresh = new Browser(config)
        const options = await (
          await fresh.fetch("/auth/webauthn-options/passkey?action=authenticate")
        ).json()
        const assertion = authenticator.get(credential, {
          challenge: options.options.challenge,
          origin: ORIGIN,
          rpId: "localhost",
          flags: { userVerified },
        })
        const { location } = await post(fresh, "/auth/callback/passkey", {
          action: "authenticate",
          data: JSON.stringify(assertion),
          callbackUrl: "/home",
        })
        if (userVerified) {
          expect(location!.href).toBe(`${ORIGIN}/home`)
          expect(await fresh.session()).not.toBeNull()
        } else {
          expect(location!.pathname).toBe("/auth/two-factor")
          expect(await fresh.session()).toBeNull()
        }
      }
    })

    it("turns off only with a code, and gives new recovery codes only with one", async () => {
      const { config, secret, adapter, user, events } = await adaWithTwoFactor(strategy)
      const browser = new Browser(config)
      await passwordSignIn(browser)
      // The step of now, then the next one later: distinct whatever 30-s boundary falls between.
      await post(browser, "/auth/two-factor", { code: await codeAt(secret, 0) })

      const account = (await (await browser.fetch("/auth/account")).json()) as Record<
        string,
        unknown
      >
      expect(account.twoFactor).toEqual({ enabled: true, app: true, securityKeys: [] })
      const refused = await post(browser, "/auth/two-factor/disable", {
        code: "123456",
        callbackUrl: "/profile",
      })
      expect(refused.location!.searchParams.get("error")).toBe("TwoFactorError")
      expect(adapter.twoFactors.has(user.id)).toBe(true)

      const csrfToken = await browser.csrfToken()
      const codes = await browser.fetch("/auth/two-factor/recovery-codes", {
        form: { csrfToken, code: await codeAt(secret, 1) },
        headers: { "x-auth-return-redirect": "1" },
      })
      const body = (await codes.json()) as { recoveryCodes: string[] }
      expect(body.recoveryCodes).toHaveLength(10)

      const disabled = await post(browser, "/auth/two-factor/disable", {
        recoveryCode: body.recoveryCodes[0]!,
        callbackUrl: "/profile",
      })
      expect(disabled.location!.href).toBe(`${ORIGIN}/profile`)
      expect(adapter.twoFactors.has(user.id)).toBe(false)
      expect(events.twoFactorDisabled).toHaveBeenCalledTimes(1)
      const request = new Request(`${ORIGIN}/profile`, {
        headers: { cookie: browser.cookieHeader() },
      })
      expect(await getTwoFactorStatus(request, config)).toEqual({
        enabled: false,
        app: false,
        securityKeys: [],
      })
      expect(await getTwoFactorStatus(new Request(`${ORIGIN}/profile`), config)).toBeNull()
      // Signing in asks no code any more.
      const fresh = new Browser(config)
      expect((await passwordSignIn(fresh)).location!.href).toBe(`${ORIGIN}/home`)
    })

    it("makes a required user set a factor up before the session, then shows the codes", async () => {
      const { adapter, config, events } = setup(strategy, {
        required: ({ user }) => user.email === "admin@example.com",
      })
      await ada(adapter, "admin@example.com")
      const browser = new Browser(config)
      const { location } = await passwordSignIn(browser, "admin@example.com")
      expect(location!.pathname).toBe("/auth/two-factor")
      expect(await browser.session()).toBeNull()
      const step = await browser.fetch("/auth/two-factor")
      expect(new URL(step.headers.get("location")!).pathname).toBe("/auth/two-factor/setup")
      const { recoveryCodes } = await enrol(browser)
      expect(recoveryCodes).toHaveLength(10)
      expect((await browser.session())?.user?.email).toBe("admin@example.com")
      expect(events.twoFactorEnrolled).toHaveBeenCalledTimes(1)
      // Others are not asked.
      await ada(adapter, "someone@example.com")
      const other = new Browser(config)
      expect((await passwordSignIn(other, "someone@example.com")).location!.href).toBe(
        `${ORIGIN}/home`,
      )
    })

    it("refuses a setup form made for another user, and a wrong first code", async () => {
      const { adapter, config } = setup(strategy)
      await ada(adapter)
      await ada(adapter, "eve@example.com")
      const eve = new Browser(config)
      await passwordSignIn(eve, "eve@example.com")
      const evePage = await (await eve.fetch("/auth/two-factor/setup")).text()
      const eveSetup = /name="setup" value="([^"]+)"/.exec(evePage)![1]!
      const eveSecret = /Key: <code>([A-Z2-7 ]+)<\/code>/.exec(evePage)![1]!.replace(/ /g, "")
      const browser = new Browser(config)
      await passwordSignIn(browser)
      const stolen = await post(browser, "/auth/two-factor/setup", {
        setup: eveSetup,
        code: await codeAt(eveSecret),
      })
      expect(stolen.location!.searchParams.get("code")).toBe("wrong_code")
      const page = await (await browser.fetch("/auth/two-factor/setup")).text()
      const own = /name="setup" value="([^"]+)"/.exec(page)![1]!
      const wrong = await post(browser, "/auth/two-factor/setup", { setup: own, code: "000000" })
      expect(wrong.location!.pathname).toBe("/auth/two-factor/setup")
      expect(adapter.twoFactors.size).toBe(0)
    })

    it("gives a custom page the setup data (beginTwoFactorSetup) for the signed-in or enrolling user", async () => {
      const { adapter, config } = setup(strategy, {
        required: ({ user }) => user.email === "admin@example.com",
      })
      await ada(adapter)
      await ada(adapter, "admin@example.com")
      const requestOf = (browser: Browser) =>
        new Request(`${ORIGIN}/settings/two-factor`, {
          headers: { cookie: browser.cookieHeader() },
        })
      expect(await beginTwoFactorSetup(requestOf(new Browser(config)), config)).toBeNull()

      const browser = new Browser(config)
      await passwordSignIn(browser)
      const data = (await beginTwoFactorSetup(requestOf(browser), config))!
      expect(data.uri).toMatch(
        /^otpauth:\/\/totp\/localhost%3A3000:ada%40example\.com\?secret=[A-Z2-7]+&issuer=localhost%3A3000/,
      )
      expect(data.qrSvg).toMatch(/^<svg[^>]*role="img"/)
      expect(readQrSvg(data.qrSvg).text).toBe(data.uri)
      expect(data.replacing).toBe(false)
      const confirmed = await browser.fetch("/auth/two-factor/setup", {
        form: {
          csrfToken: await browser.csrfToken(),
          setup: data.setup,
          code: await codeAt(data.secret),
        },
        headers: { "x-auth-return-redirect": "1" },
      })
      expect(((await confirmed.json()) as { recoveryCodes: string[] }).recoveryCodes).toHaveLength(
        10,
      )

      // A sign-in that must set a factor up has no session, yet gets its setup.
      const admin = new Browser(config)
      await passwordSignIn(admin, "admin@example.com")
      expect(await admin.session()).toBeNull()
      const adminData = await beginTwoFactorSetup(requestOf(admin), config)
      expect(adminData?.uri).toContain("admin%40example.com")
    })

    it("sends the code step and its refusals to the app's own pages when configured", async () => {
      const context = setup(strategy)
      context.config.pages = { twoFactor: "/verify", twoFactorSetup: "/settings/two-factor" }
      const user = await ada(context.adapter)
      const browser = new Browser(context.config)
      await passwordSignIn(browser)
      const data = (await beginTwoFactorSetup(
        new Request(`${ORIGIN}/`, { headers: { cookie: browser.cookieHeader() } }),
        context.config,
      ))!
      await post(browser, "/auth/two-factor/setup", {
        setup: data.setup,
        code: await codeAt(data.secret, -1),
      })
      expect(context.adapter.twoFactors.has(user.id)).toBe(true)

      const fresh = new Browser(context.config)
      expect((await passwordSignIn(fresh)).location!.href).toBe(`${ORIGIN}/verify`)
      expect((await fresh.fetch("/auth/two-factor")).headers.get("location")).toBe(
        `${ORIGIN}/verify`,
      )
      const wrong = await post(fresh, "/auth/two-factor", { code: "000000" })
      expect(wrong.location!.pathname).toBe("/verify")
      expect(wrong.location!.searchParams.get("code")).toBe("wrong_code")
      await post(fresh, "/auth/two-factor", { code: await codeAt(data.secret, 1) })
      expect(await fresh.session()).not.toBeNull()
    })

    it("replaces the authenticator with a code of each, both of the same step", async () => {
      const { config, secret, adapter, user } = await adaWithTwoFactor(strategy)
      const browser = new Browser(config)
      await passwordSignIn(browser)
      // The step of now, then the next one later: distinct whatever 30-s boundary falls between.
      await post(browser, "/auth/two-factor", { code: await codeAt(secret, 0) })
      const before = adapter.twoFactors.get(user.id)!.secret
      const data = (await beginTwoFactorSetup(
        new Request(`${ORIGIN}/`, { headers: { cookie: browser.cookieHeader() } }),
        config,
      ))!
      expect(data.replacing).toBe(true)
      const missing = await post(browser, "/auth/two-factor/setup", {
        setup: data.setup,
        code: await codeAt(data.secret),
      })
      expect(missing.location!.searchParams.get("code")).toBe("wrong_code")
      const replaced = await browser.fetch("/auth/two-factor/setup", {
        form: {
          csrfToken: await browser.csrfToken(),
          setup: data.setup,
          currentCode: await codeAt(secret, 1),
          code: await codeAt(data.secret, 1),
        },
      })
      expect(replaced.status).toBe(200)
      expect(adapter.twoFactors.get(user.id)!.secret).not.toBe(before)
    })

    if (strategy === "database")
      it("ends the user's other sessions when it is turned on", async () => {
        const { adapter, config } = setup(strategy)
        await ada(adapter)
        const other = new Browser(config)
        await passwordSignIn(other)
        const browser = new Browser(config)
        await passwordSignIn(browser)
        await enrol(browser)
        expect(await browser.session()).not.toBeNull()
        expect(await other.session()).toBeNull()
      })
  },
)

it("sends a setup whose URI no QR code holds (an issuer of 1,200 characters) to the error page, saying what to shorten", async () => {
  const { adapter, config } = setup("jwt", { issuer: "x".repeat(1200) })
  await ada(adapter)
  const browser = new Browser(config)
  await passwordSignIn(browser)
  const page = await browser.fetch("/auth/two-factor/setup")
  expect(page.status).toBe(302)
  expect(page.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
  expect(config.logger!.error).toHaveBeenCalledWith(
    expect.objectContaining({ message: expect.stringMatching(/shorten it/) }),
  )
  const [error] = vi.mocked(config.logger!.error!).mock.calls[0]! as [Error]
  expect(error.message).toMatch(/^QR code: 2515 bytes .* long twoFactor\.issuer/)
})
