/**
 * "Confirm it is you" in SvelteKit: an account action whose change needs fresh proof redirects
 * (303) to the re-authentication step, coming back to the page; the `reauthenticate` form action
 * takes the confirmation (and throws its refusals to the page); `getReauthentication` tells a
 * page whether a change may be made now. Core's tests cover the rules; these, what the
 * integration adds.
 */
import { isRedirect } from "@sveltejs/kit"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { TOTP_PERIOD, totpAt } from "../../core/src/flows/two-factor/totp.js"
import { hashPassword } from "@latch/core/providers/password"
import { memoryAdapter } from "../../core/test/helpers/memory-adapter.js"
import {
  beginTwoFactorSetup,
  getReauthentication,
  ReauthenticationRequired,
  SvelteKitAuth,
  type Reauthentication,
} from "../src/lib/index.js"
import Password from "../src/lib/providers/password.js"
import { testConfig } from "./helpers/config.js"
import { Browser, ORIGIN } from "./helpers/event.js"
import { onPage, redirectOf, submit } from "./helpers/form-actions.js"

const PASSWORD = "correct horse battery"
const FAST = { ln: 10, r: 8, p: 1 }

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
})
afterEach(() => {
  vi.useRealTimers()
})

/** The code of the next 30-second step (the clock moves there: a step's code works once). */
async function nextCode(secret: string): Promise<string> {
  vi.setSystemTime(Date.now() + TOTP_PERIOD * 1000)
  return totpAt(secret, Date.now())
}

async function setup(pages: { reauthenticate?: string } = {}) {
  const adapter = memoryAdapter()
  const mails: string[] = []
  const auth = SvelteKitAuth(
    testConfig({
      adapter,
      session: { strategy: "database" },
      twoFactor: {},
      pages,
      providers: [Password({ scrypt: FAST, sendMail: ({ subject }) => void mails.push(subject) })],
    }),
  )
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email: "ada@example.org",
    emailVerified: new Date(),
  })
  adapter.passwords.set(user.id, await hashPassword(PASSWORD, FAST))
  const browser = new Browser(auth.handle)
  redirectOf(
    (
      await submit(browser, auth.signIn, "/login", {
        providerId: "password",
        email: user.email,
        password: PASSWORD,
      })
    ).thrown,
  )
  return { adapter, auth, browser, mails, user }
}

type App = Awaited<ReturnType<typeof setup>>

const stepOf = (browser: Browser) =>
  onPage<Reauthentication | null>(browser, (event) => getReauthentication(event))

/** Turns two-factor authentication on from the signed-in browser; the secret. */
async function enrol({ auth, browser }: App): Promise<string> {
  const { secret, setup: sealed } = (await onPage(browser, beginTwoFactorSetup))!
  await submit(browser, auth.confirmTwoFactorSetup, "/settings?/setup", {
    setup: sealed,
    code: await nextCode(secret),
  })
  return secret
}

describe("re-authentication in SvelteKit", () => {
  it("says when a change may be made, and which ways the user has to confirm", async () => {
    const app = await setup()
    const fresh = (await stepOf(app.browser))!
    expect(fresh).toMatchObject({
      fresh: true,
      secondFactor: false,
      methods: ["password", "email"],
      email: "ada@example.org",
    })
    expect(fresh.freshUntil!.getTime() - Date.now()).toBeLessThanOrEqual(300_000)
    vi.setSystemTime(Date.now() + 301_000)
    expect(await stepOf(app.browser)).toMatchObject({ fresh: false })
    expect(await stepOf(new Browser(app.auth.handle))).toBeNull()
  })

  it("sends a change of a stale session to the step (303), and takes the confirmation back there", async () => {
    const app = await setup()
    const secret = await enrol(app)
    vi.setSystemTime(Date.now() + 301_000)
    const asked = await submit(
      app.browser,
      app.auth.changePassword,
      "/account/password?/change",
      { currentPassword: PASSWORD, password: "a brand new password" },
      { headers: { origin: ORIGIN, referer: `${ORIGIN}/account/password` } },
    )
    const { status, url } = redirectOf(asked.thrown)
    expect(status).toBe(303)
    expect(url.pathname).toBe("/auth/reauthenticate")
    expect(url.searchParams.get("code")).toBe("required")
    expect(url.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/account/password`)
    expect((await stepOf(app.browser))!.methods).toEqual(["code"])

    // A refusal at the step is thrown to the page, not redirected.
    const wrong = await submit(app.browser, app.auth.reauthenticate, url.pathname + url.search, {
      method: "code",
      code: "000000",
    })
    expect(isRedirect(wrong.thrown)).toBe(false)
    expect(wrong.thrown).toBeInstanceOf(ReauthenticationRequired)
    expect((wrong.thrown as ReauthenticationRequired).code).toBe("wrong_code")
    // A password does not include the second factor.
    const weak = await submit(app.browser, app.auth.reauthenticate, url.pathname + url.search, {
      method: "password",
      password: PASSWORD,
    })
    expect((weak.thrown as ReauthenticationRequired).code).toBe("second_factor")

    const confirmed = await submit(
      app.browser,
      app.auth.reauthenticate,
      url.pathname + url.search,
      { method: "code", code: await nextCode(secret) },
    )
    expect(redirectOf(confirmed.thrown)).toEqual({
      status: 303,
      url: new URL(`${ORIGIN}/account/password`),
    })
    expect((await stepOf(app.browser))!.fresh).toBe(true)
    const changed = await submit(app.browser, app.auth.changePassword, "/account/password", {
      currentPassword: PASSWORD,
      password: "a brand new password",
      redirectTo: "/account/password?changed",
    })
    expect(redirectOf(changed.thrown).url.search).toBe("?changed")
    expect(app.mails.at(-1)).toMatch(/^Your password on .* was changed$/)
  })

  it("sends the user to the app's own step page when pages.reauthenticate names one", async () => {
    const app = await setup({ reauthenticate: "/confirm" })
    vi.setSystemTime(Date.now() + 301_000)
    // Turning two-factor authentication on is a change of the account.
    const { secret, setup: sealed } = (await onPage(app.browser, beginTwoFactorSetup))!
    const asked = await submit(app.browser, app.auth.confirmTwoFactorSetup, "/profile", {
      setup: sealed,
      code: await nextCode(secret),
      redirectTo: "/profile",
    })
    const { url } = redirectOf(asked.thrown)
    expect(url.pathname).toBe("/confirm")
    expect(url.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/profile`)
    // The user confirms on that page; the form action comes back to /profile.
    const confirmed = await submit(
      app.browser,
      app.auth.reauthenticate,
      url.pathname + url.search,
      {
        method: "password",
        password: PASSWORD,
      },
    )
    expect(redirectOf(confirmed.thrown).url.href).toBe(`${ORIGIN}/profile`)
  })
})
