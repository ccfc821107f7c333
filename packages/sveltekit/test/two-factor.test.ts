/**
 * Two-factor authentication in SvelteKit: the `verifyTwoFactor`, `confirmTwoFactorSetup`,
 * `disableTwoFactor` and `regenerateRecoveryCodes` form actions driven with request events as a
 * page's actions get them, `getTwoFactorStatus` and `beginTwoFactorSetup` after the handle, and
 * codes computed from the secret as an authenticator app computes them. Core's tests cover the
 * flows' rules (every primary method stopped, the pending state, the limits); these check what
 * the integration adds: the fields it posts, the refusals thrown to the page, the codes returned
 * rather than a page, the redirects, the cookies, the origin check.
 */
import { isRedirect } from "@sveltejs/kit"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { TOTP_PERIOD, totpAt } from "../../core/src/flows/two-factor/totp.js"
import { memoryAdapter } from "../../core/test/helpers/memory-adapter.js"
import {
  beginTwoFactorSetup,
  getTwoFactorStatus,
  SvelteKitAuth,
  TwoFactorError,
  type RecoveryCodes,
  type SvelteKitAuthConfig,
  type TwoFactorOptions,
  type TwoFactorSetupData,
  type TwoFactorStatus,
} from "../src/lib/index.js"
import Credentials from "../src/lib/providers/credentials.js"
import { testConfig } from "./helpers/config.js"
import { Browser, ORIGIN, SESSION_COOKIE, type TestEvent } from "./helpers/event.js"
import { onPage, redirectOf, submit } from "./helpers/form-actions.js"

const PASSWORD = "correct horse battery"

// The clock is Date's alone, moved by hand: each code comes from a step of its own (a step is
// accepted once per account), and a sign-in can be made to wait past its five minutes.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
})
afterEach(() => {
  vi.useRealTimers()
})

/** The code the authenticator app shows in the next 30-second step (the clock moves there). */
async function nextCode(secret: string): Promise<string> {
  vi.setSystemTime(Date.now() + TOTP_PERIOD * 1000)
  return totpAt(secret, Date.now())
}

interface SetupOptions {
  strategy?: "database" | "jwt"
  twoFactor?: TwoFactorOptions
  config?: Partial<SvelteKitAuthConfig>
}

/** An app: a credentials provider over the memory adapter's users, two-factor authentication on. */
function setup({ strategy = "database", twoFactor, config }: SetupOptions = {}) {
  const adapter = memoryAdapter()
  const auth = SvelteKitAuth(
    testConfig({
      adapter,
      session: { strategy },
      // A generous limit, so that a test may try many codes; one test checks the default.
      twoFactor: twoFactor ?? { rateLimit: { attempts: 100 } },
      providers: [
        Credentials({
          credentials: { email: {}, password: { type: "password" } },
          authorize: async ({ email, password }) =>
            typeof email === "string" && password === PASSWORD
              ? await adapter.getUserByEmail!(email)
              : null,
        }),
      ],
      ...config,
    }),
  )
  const createUser = () =>
    adapter.createUser!({
      id: crypto.randomUUID(),
      email: `${crypto.randomUUID()}@example.org`,
      emailVerified: null,
    })
  return { adapter, auth, createUser }
}

type App = ReturnType<typeof setup>

/** The code of the TwoFactorError an action threw; a redirect fails the test. */
function refusalOf(thrown: unknown): string {
  if (isRedirect(thrown)) throw new Error(`redirected to ${thrown.location}, not refused`)
  expect(thrown).toBeInstanceOf(TwoFactorError)
  return (thrown as TwoFactorError).code
}

/** What an action returned; a throw fails the test. */
function resultOf<T>(outcome: { result?: T; thrown?: unknown }): T {
  if ("thrown" in outcome && outcome.thrown !== undefined) throw outcome.thrown
  return outcome.result!
}

/** The session the browser's cookies open, read through the handle. */
const sessionOf = (browser: Browser) =>
  onPage(browser, (event) => event.locals.auth()) as Promise<{ user?: { email?: string } } | null>

const statusOf = (browser: Browser) =>
  onPage<TwoFactorStatus | null>(browser, (event) => getTwoFactorStatus(event))

/** Whether the browser holds a sign-in waiting for its code. */
const isPending = (browser: Browser) =>
  [...browser.cookies.keys()].some((name) => name.includes("two-factor"))

/** Signs `browser` in with the signIn form action, headed for /home. */
function signIn(app: Pick<App, "auth">, browser: Browser, email: string) {
  return submit(browser, app.auth.signIn, "/login", {
    providerId: "credentials",
    email,
    password: PASSWORD,
    redirectTo: "/home",
  })
}

/** The signed-in browser turns two-factor authentication on, as a settings page would. */
async function enrol(app: App, browser: Browser) {
  const setupData = (await onPage(browser, beginTwoFactorSetup))!
  const { secret, setup: sealed } = setupData
  const confirmed = resultOf(
    await submit(browser, app.auth.confirmTwoFactorSetup, "/settings?/setup", {
      setup: sealed,
      code: await nextCode(secret),
    }),
  )
  return { secret, recoveryCodes: confirmed.recoveryCodes }
}

/** A user with two-factor authentication on, and a browser signed out. */
async function withTwoFactor(options: SetupOptions = {}) {
  const app = setup(options)
  const user = await app.createUser()
  const first = new Browser(app.auth.handle)
  redirectOf((await signIn(app, first, user.email)).thrown)
  const enrolled = await enrol(app, first)
  return { ...app, user, ...enrolled, browser: new Browser(app.auth.handle) }
}

describe.each(["database", "jwt"] as const)("verifyTwoFactor (%s sessions)", (strategy) => {
  it("stops a credentials sign-in before its session; the code starts it where it was going", async () => {
    const app = await withTwoFactor({ strategy })
    const { browser, secret, user } = app
    const { thrown, event } = await signIn(app, browser, user.email)
    const { status, url } = redirectOf(thrown)
    expect(status).toBe(303)
    expect(url.href).toBe(`${ORIGIN}/auth/two-factor`)
    expect(event.cookies.writes.filter((write) => write.name === SESSION_COOKIE)).toEqual([])
    expect(isPending(browser)).toBe(true)
    expect(await sessionOf(browser)).toBeNull()
    expect(await statusOf(browser)).toBeNull()
    // The built-in code page still answers through the handle.
    const page = await browser.fetch("/auth/two-factor")
    expect(page.response.status).toBe(200)
    expect(await page.response.text()).toContain('autocomplete="one-time-code"')

    const verified = await submit(browser, app.auth.verifyTwoFactor, "/two-factor", {
      code: await nextCode(secret),
    })
    expect(redirectOf(verified.thrown)).toEqual({ status: 303, url: new URL(`${ORIGIN}/home`) })
    expect((await sessionOf(browser))?.user?.email).toBe(user.email)
    expect(await statusOf(browser)).toEqual({ enabled: true, app: true, securityKeys: [] })
    expect(isPending(browser)).toBe(false)
  })

  it("throws TwoFactorError for a wrong code and keeps the sign-in waiting; then a used code", async () => {
    const app = await withTwoFactor({ strategy })
    const { browser, secret, user } = app
    await signIn(app, browser, user.email)
    for (const code of ["000000", "12345", "", "abcdef"]) {
      const { thrown, event } = await submit(browser, app.auth.verifyTwoFactor, "/two-factor", {
        code,
      })
      expect(refusalOf(thrown), code).toBe("wrong_code")
      expect(event.cookies.writes.filter((write) => write.name === SESSION_COOKIE)).toEqual([])
    }
    expect(await sessionOf(browser)).toBeNull()
    // "123 456", as apps show codes: the spaces do not matter.
    const code = await nextCode(secret)
    const spaced = `${code.slice(0, 3)} ${code.slice(3)}`
    redirectOf((await submit(browser, app.auth.verifyTwoFactor, "/", { code: spaced })).thrown)
    expect((await sessionOf(browser))?.user?.email).toBe(user.email)

    // The same code in another sign-in, within its 30 seconds: refused.
    const other = new Browser(app.auth.handle)
    await signIn(app, other, user.email)
    const replayed = await submit(other, app.auth.verifyTwoFactor, "/two-factor", { code })
    expect(refusalOf(replayed.thrown)).toBe("replayed_code")
    expect(await sessionOf(other)).toBeNull()
  })

  it("throws expired without a sign-in waiting, and once it waited past its five minutes", async () => {
    const app = await withTwoFactor({ strategy })
    const { browser, secret, user } = app
    const none = await submit(browser, app.auth.verifyTwoFactor, "/two-factor", {
      code: await nextCode(secret),
    })
    expect(refusalOf(none.thrown)).toBe("expired")

    await signIn(app, browser, user.email)
    vi.setSystemTime(Date.now() + 301_000)
    const late = await submit(browser, app.auth.verifyTwoFactor, "/two-factor", {
      code: await nextCode(secret),
    })
    expect(refusalOf(late.thrown)).toBe("expired")
    expect(await sessionOf(browser)).toBeNull()
  })

  it("takes a recovery code once", async () => {
    const app = await withTwoFactor({ strategy })
    const { browser, recoveryCodes, user } = app
    expect(recoveryCodes).toHaveLength(10)
    await signIn(app, browser, user.email)
    const used = await submit(browser, app.auth.verifyTwoFactor, "/two-factor", {
      recoveryCode: recoveryCodes[2]!.toUpperCase(),
    })
    expect(redirectOf(used.thrown).url.href).toBe(`${ORIGIN}/home`)
    expect((await sessionOf(browser))?.user?.email).toBe(user.email)

    const other = new Browser(app.auth.handle)
    await signIn(app, other, user.email)
    const again = await submit(other, app.auth.verifyTwoFactor, "/two-factor", {
      recoveryCode: recoveryCodes[2]!,
    })
    expect(refusalOf(again.thrown)).toBe("wrong_code")
    expect(await sessionOf(other)).toBeNull()
  })
})

describe("verifyTwoFactor", () => {
  it("over the limit, throws rate_limited with Retry-After on the page's response, even for the right code", async () => {
    // One second into a 15-minute window (the limit's windows are aligned to the clock): the
    // clock's two steps below stay in it. Started from the real time, a run 30 to 60 seconds
    // before a window's end counted the wrong codes in one window and the right one in the next.
    vi.setSystemTime((Math.floor(Date.now() / 900_000) + 1) * 900_000 + 1000)
    const app = await withTwoFactor({ twoFactor: {} })
    const { browser, secret, user } = app
    await signIn(app, browser, user.email)
    // Five wrong codes (right ones do not count): the sixth is refused, even the right one.
    for (let i = 0; i < 5; i++) {
      const { thrown } = await submit(browser, app.auth.verifyTwoFactor, "/two-factor", {
        code: "000000",
      })
      expect(refusalOf(thrown)).toBe("wrong_code")
    }
    let headers: Record<string, string> = {}
    const event = browser.event("/two-factor", {
      form: { code: await nextCode(secret) },
      headers: { origin: ORIGIN },
    })
    event.setHeaders = vi.fn((set: Record<string, string>) => {
      headers = set
    })
    const thrown = await app.auth.verifyTwoFactor(event).catch((error: unknown) => error)
    expect(refusalOf(thrown)).toBe("rate_limited")
    // Until the limit's window (aligned to the clock, 15 minutes) ends.
    const retryAfter = (thrown as TwoFactorError).retryAfter!
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(900)
    expect(headers["retry-after"]).toBe(String(retryAfter))
    expect(await sessionOf(browser)).toBeNull()
  })

  it("redirects even when the page's request asked for JSON redirects (X-Auth-Return-Redirect)", async () => {
    const app = await withTwoFactor()
    const { browser, secret, user } = app
    const headers = { origin: ORIGIN, "x-auth-return-redirect": "1" }
    const signedIn = await submit(
      browser,
      app.auth.signIn,
      "/login",
      { providerId: "credentials", email: user.email, password: PASSWORD, redirectTo: "/home" },
      { headers },
    )
    expect(redirectOf(signedIn.thrown).url.pathname).toBe("/auth/two-factor")
    const { thrown } = await submit(
      browser,
      app.auth.verifyTwoFactor,
      "/two-factor",
      { code: await nextCode(secret) },
      { headers },
    )
    expect(redirectOf(thrown).url.href).toBe(`${ORIGIN}/home`)
  })

  it("takes the fields of a remote form instead of the request's, and posts no others", async () => {
    const app = await withTwoFactor()
    const { browser, secret, user } = app
    await signIn(app, browser, user.email)
    const event = browser.event("/two-factor", {
      form: { code: "000000" },
      headers: { origin: ORIGIN },
    })
    const thrown = await app.auth
      .verifyTwoFactor(event, {
        code: await nextCode(secret),
        // Not a field of the code step: the sign-in goes where it was going.
        callbackUrl: "/elsewhere",
      })
      .catch((error: unknown) => error)
    browser.store({ response: new Response(), event })
    expect(redirectOf(thrown).url.href).toBe(`${ORIGIN}/home`)
    expect((await sessionOf(browser))?.user?.email).toBe(user.email)
  })
})

describe("confirmTwoFactorSetup", () => {
  /** A user without a second factor, signed in. */
  async function signedIn(options: SetupOptions = {}) {
    const app = setup(options)
    const user = await app.createUser()
    const browser = new Browser(app.auth.handle)
    redirectOf((await signIn(app, browser, user.email)).thrown)
    return { ...app, user, browser }
  }

  it("returns ten recovery codes and where to go on, rather than redirecting", async () => {
    const { auth, adapter, browser, user } = await signedIn()
    expect(await statusOf(browser)).toEqual({ enabled: false, app: false, securityKeys: [] })
    const data = (await onPage(browser, beginTwoFactorSetup))!
    expect(data).toMatchObject({ replacing: false, secret: expect.stringMatching(/^[A-Z2-7]+$/) })
    expect(data.uri).toMatch(/^otpauth:\/\/totp\/localhost%3A5173:/)
    expect(data.uri).toContain(`secret=${data.secret}`)
    expect(data.qrSvg).toMatch(/^<svg/)

    const wrong = await submit(browser, auth.confirmTwoFactorSetup, "/settings", {
      setup: data.setup,
      code: "000000",
    })
    expect(refusalOf(wrong.thrown)).toBe("wrong_code")
    expect(adapter.twoFactors.has(user.id)).toBe(false)

    const confirmed = resultOf<RecoveryCodes>(
      await submit(browser, auth.confirmTwoFactorSetup, "/settings?/setup", {
        setup: data.setup,
        code: await nextCode(data.secret),
        redirectTo: "/settings",
      }),
    )
    expect(confirmed.continueUrl).toBe(`${ORIGIN}/settings`)
    expect(confirmed.recoveryCodes).toHaveLength(10)
    for (const code of confirmed.recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/)
    expect(await statusOf(browser)).toEqual({ enabled: true, app: true, securityKeys: [] })
    // The session that turned it on goes on.
    expect((await sessionOf(browser))?.user?.email).toBe(user.email)
  })

  /** A user with two-factor authentication on, signed in, and a setup to replace it. */
  async function replacing() {
    const app = await withTwoFactor()
    const { auth, browser, user, secret } = app
    await signIn(app, browser, user.email)
    redirectOf(
      (await submit(browser, auth.verifyTwoFactor, "/two-factor", { code: await nextCode(secret) }))
        .thrown,
    )
    const data = (await onPage(browser, beginTwoFactorSetup))!
    expect(data.replacing).toBe(true)
    return { ...app, data }
  }

  it("replaces the authenticator only with a code of the current one", async () => {
    const app = await replacing()
    const { auth, browser, user, secret, data } = app
    const without = await submit(browser, auth.confirmTwoFactorSetup, "/settings", {
      setup: data.setup,
      code: await nextCode(data.secret),
    })
    expect(refusalOf(without.thrown)).toBe("wrong_code")
    // The current app's code of the step before the new app's (see the test below).
    const replaced = resultOf(
      await submit(browser, auth.confirmTwoFactorSetup, "/settings", {
        setup: data.setup,
        code: await nextCode(data.secret),
        currentCode: await totpAt(secret, Date.now() - TOTP_PERIOD * 1000),
      }),
    )
    expect(replaced.recoveryCodes).toHaveLength(10)

    // Signing in now asks a code of the new secret; the old one's is wrong.
    const next = new Browser(auth.handle)
    await signIn(app, next, user.email)
    const old = await submit(next, auth.verifyTwoFactor, "/two-factor", {
      code: await nextCode(secret),
    })
    expect(refusalOf(old.thrown)).toBe("wrong_code")
    redirectOf(
      (
        await submit(next, auth.verifyTwoFactor, "/two-factor", {
          code: await nextCode(data.secret),
        })
      ).thrown,
    )
    expect((await sessionOf(next))?.user?.email).toBe(user.email)
  })

  // Both apps show codes of the same step while the user types them: each secret's step is its own.
  it("replaces the authenticator with both codes of the same step", async () => {
    const { auth, browser, secret, data } = await replacing()
    const code = await nextCode(data.secret)
    const replaced = await submit(browser, auth.confirmTwoFactorSetup, "/settings", {
      setup: data.setup,
      code,
      currentCode: await totpAt(secret, Date.now()),
    })
    expect(resultOf(replaced).recoveryCodes).toHaveLength(10)
  })

  it("refuses a setup made for another user", async () => {
    const { auth, adapter, browser, user, createUser } = await signedIn()
    const eve = await createUser()
    const eveBrowser = new Browser(auth.handle)
    redirectOf((await signIn({ auth }, eveBrowser, eve.email)).thrown)
    const eveSetup = (await onPage(eveBrowser, beginTwoFactorSetup))!
    const stolen = await submit(browser, auth.confirmTwoFactorSetup, "/settings", {
      setup: eveSetup.setup,
      code: await nextCode(eveSetup.secret),
    })
    expect(refusalOf(stolen.thrown)).toBe("wrong_code")
    expect(adapter.twoFactors.has(user.id)).toBe(false)
    expect(adapter.twoFactors.has(eve.id)).toBe(false)
  })

  it.each(["database", "jwt"] as const)(
    "makes a required user set a factor up before the session, then starts it (%s sessions)",
    async (strategy) => {
      const app = setup({ strategy, twoFactor: { required: () => true } })
      const user = await app.createUser()
      const browser = new Browser(app.auth.handle)
      expect(redirectOf((await signIn(app, browser, user.email)).thrown).url.pathname).toBe(
        "/auth/two-factor",
      )
      expect(await sessionOf(browser)).toBeNull()
      // The sign-in's user gets a setup without a session.
      const data = (await onPage(browser, beginTwoFactorSetup))!
      expect(data).not.toBeNull()
      expect(data.replacing).toBe(false)
      const { result, event } = await submit(
        browser,
        app.auth.confirmTwoFactorSetup,
        "/two-factor",
        { setup: data.setup, code: await nextCode(data.secret), redirectTo: "/ignored" },
      )
      // Where the sign-in was going, not the form's destination.
      expect(result?.continueUrl).toBe(`${ORIGIN}/home`)
      expect(result?.recoveryCodes).toHaveLength(10)
      expect(event.cookies.writes.some((write) => write.name === SESSION_COOKIE)).toBe(true)
      expect((await sessionOf(browser))?.user?.email).toBe(user.email)
      expect(isPending(browser)).toBe(false)
      expect(await statusOf(browser)).toEqual({ enabled: true, app: true, securityKeys: [] })
    },
  )
})

describe("disableTwoFactor and regenerateRecoveryCodes", () => {
  /** A user with two-factor authentication on, signed in with a code. */
  async function signedInWithTwoFactor() {
    const app = await withTwoFactor()
    const { browser, user, secret } = app
    await signIn(app, browser, user.email)
    redirectOf(
      (
        await submit(browser, app.auth.verifyTwoFactor, "/two-factor", {
          code: await nextCode(secret),
        })
      ).thrown,
    )
    return app
  }

  it("turns it off only with a code; a session alone changes nothing", async () => {
    const app = await signedInWithTwoFactor()
    const { auth, browser, secret, user, adapter } = app
    const forms: Record<string, string>[] = [
      {},
      { code: "000000" },
      { recoveryCode: "aaaaa-aaaaa" },
    ]
    for (const form of forms) {
      const { thrown } = await submit(browser, auth.disableTwoFactor, "/settings", form)
      expect(refusalOf(thrown), JSON.stringify(form)).toBe("wrong_code")
    }
    expect(adapter.twoFactors.has(user.id)).toBe(true)

    const referer = `${ORIGIN}/settings/security`
    const { thrown } = await submit(
      browser,
      auth.disableTwoFactor,
      "/settings/security?/disable",
      { code: await nextCode(secret) },
      { headers: { origin: ORIGIN, referer } },
    )
    expect(redirectOf(thrown)).toEqual({ status: 303, url: new URL(referer) })
    expect(await statusOf(browser)).toEqual({ enabled: false, app: false, securityKeys: [] })
    expect(adapter.twoFactors.has(user.id)).toBe(false)
    // Signing in asks no code any more.
    const fresh = new Browser(auth.handle)
    expect(redirectOf((await signIn(app, fresh, user.email)).thrown).url.href).toBe(
      `${ORIGIN}/home`,
    )
  })

  it("gives new recovery codes for a code; the old ones stop working; one turns it off", async () => {
    const app = await signedInWithTwoFactor()
    const { auth, browser, secret, recoveryCodes } = app
    const wrong = await submit(browser, auth.regenerateRecoveryCodes, "/settings", {
      code: "000000",
    })
    expect(refusalOf(wrong.thrown)).toBe("wrong_code")
    // A recovery code is no code for new ones.
    const recovery = await submit(browser, auth.regenerateRecoveryCodes, "/settings", {
      recoveryCode: recoveryCodes[0]!,
    })
    expect(refusalOf(recovery.thrown)).toBe("wrong_code")

    const fresh = resultOf(
      await submit(browser, auth.regenerateRecoveryCodes, "/settings", {
        code: await nextCode(secret),
        redirectTo: "/settings",
      }),
    )
    expect(fresh.continueUrl).toBe(`${ORIGIN}/settings`)
    expect(fresh.recoveryCodes).toHaveLength(10)
    expect(fresh.recoveryCodes.filter((code) => recoveryCodes.includes(code))).toEqual([])

    const old = await submit(browser, auth.disableTwoFactor, "/settings", {
      recoveryCode: recoveryCodes[1]!,
    })
    expect(refusalOf(old.thrown)).toBe("wrong_code")
    const off = await submit(browser, auth.disableTwoFactor, "/settings", {
      recoveryCode: fresh.recoveryCodes[0]!,
      redirectTo: "/settings",
    })
    expect(redirectOf(off.thrown).url.href).toBe(`${ORIGIN}/settings`)
    expect(await statusOf(browser)).toEqual({ enabled: false, app: false, securityKeys: [] })
  })

  it("throws signed_out to a visitor, and not_enrolled to a user without a factor", async () => {
    const app = await withTwoFactor()
    const { auth, browser, secret } = app
    for (const action of [
      auth.disableTwoFactor,
      auth.regenerateRecoveryCodes,
      auth.confirmTwoFactorSetup,
    ]) {
      const { thrown } = await submit(browser, action, "/settings", {
        code: await nextCode(secret),
      })
      expect(refusalOf(thrown)).toBe("signed_out")
    }
    const other = await app.createUser()
    const signedIn = new Browser(auth.handle)
    redirectOf((await signIn(app, signedIn, other.email)).thrown)
    for (const action of [auth.disableTwoFactor, auth.regenerateRecoveryCodes]) {
      const { thrown } = await submit(signedIn, action, "/settings", { code: "123456" })
      expect(refusalOf(thrown)).toBe("not_enrolled")
    }
  })
})

describe("getTwoFactorStatus and beginTwoFactorSetup", () => {
  it("answer null to a visitor, and need the handle", async () => {
    const { auth } = setup()
    const visitor = new Browser(auth.handle)
    expect(await statusOf(visitor)).toBeNull()
    expect(await onPage(visitor, beginTwoFactorSetup)).toBeNull()
    await expect(getTwoFactorStatus(visitor.event("/settings"))).rejects.toThrow(/hooks\.server/)
    await expect(beginTwoFactorSetup(visitor.event("/settings"))).rejects.toThrow(/hooks\.server/)
  })

  it("make a new secret each time, sealed for the user", async () => {
    const { auth, createUser } = setup()
    const user = await createUser()
    const browser = new Browser(auth.handle)
    redirectOf((await signIn({ auth }, browser, user.email)).thrown)
    const [a, b] = [
      await onPage<TwoFactorSetupData | null>(browser, beginTwoFactorSetup),
      await onPage<TwoFactorSetupData | null>(browser, beginTwoFactorSetup),
    ]
    expect(a!.secret).not.toBe(b!.secret)
    expect(a!.setup).not.toContain(a!.secret)
  })
})

describe("failures that are not the user's", () => {
  it("without twoFactor configured, every action goes to the error page (303)", async () => {
    const app = setup({ config: { twoFactor: undefined } })
    const user = await app.createUser()
    const browser = new Browser(app.auth.handle)
    redirectOf((await signIn(app, browser, user.email)).thrown)
    const { auth } = app
    for (const action of [
      auth.verifyTwoFactor,
      auth.confirmTwoFactorSetup,
      auth.disableTwoFactor,
      auth.regenerateRecoveryCodes,
    ]) {
      const { thrown } = await submit(browser, action, "/settings", { code: "123456" })
      const { status, url } = redirectOf(thrown)
      expect(status).toBe(303)
      expect(url.pathname).toBe("/auth/error")
    }
  })
})

describe("the origin check", () => {
  it("refuses every two-factor form posted cross-site (403), even with SvelteKit's check off", async () => {
    const app = await withTwoFactor()
    const { auth, browser, secret, user, adapter, recoveryCodes } = app
    await signIn(app, browser, user.email)
    const code = await nextCode(secret)
    const forms: [(event: TestEvent) => Promise<unknown>, Record<string, string>][] = [
      [auth.verifyTwoFactor, { code }],
      [auth.verifyTwoFactor, { recoveryCode: recoveryCodes[0]! }],
      [auth.confirmTwoFactorSetup, { setup: "x", code }],
      [auth.disableTwoFactor, { code }],
      [auth.regenerateRecoveryCodes, { code }],
    ]
    for (const [action, form] of forms) {
      for (const headers of [{ origin: "https://evil.example" }, {}] as Record<string, string>[]) {
        const { thrown, event } = await submit(browser, action, "/two-factor", form, { headers })
        expect(thrown).toMatchObject({ status: 403 })
        expect(event.cookies.writes).toEqual([])
      }
    }
    expect(await sessionOf(browser)).toBeNull()
    expect(adapter.twoFactors.has(user.id)).toBe(true)
    // Nothing was spent: the code and the recovery code work from the site itself.
    redirectOf((await submit(browser, auth.verifyTwoFactor, "/two-factor", { code })).thrown)
    expect((await sessionOf(browser))?.user?.email).toBe(user.email)
    const other = new Browser(auth.handle)
    await signIn(app, other, user.email)
    const { thrown } = await submit(other, auth.verifyTwoFactor, "/two-factor", {
      recoveryCode: recoveryCodes[0]!,
    })
    redirectOf(thrown)
  })
})
