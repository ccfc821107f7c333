/**
 * What the release lacked, taken up after the upgrade: the app adds a `Password` provider and
 * two-factor authentication to its configuration, and a user of the release gets a password
 * through the reset link, turns a second factor on and signs in with its codes.
 */
import { expect } from "vitest"
import Password from "@latch/core/providers/password"
import type { Server } from "./browser.js"
import { Browser, ORIGIN } from "./browser.js"
import { HOME } from "./flows.js"
import { totp } from "./totp.js"

export const NEW_PASSWORD = "a new password, after the upgrade"

/** The mails of the Password provider and the account notices, in order. */
export type Mails = { to: string; subject: string; text: string }[]

/** `server` with a Password provider and two-factor authentication added. */
export function withNewFeatures(server: Server, mails: Mails): Server {
  const config = server.config as { providers: unknown[] }
  return {
    auth: server.auth,
    config: {
      ...server.config,
      twoFactor: {},
      providers: [
        ...config.providers,
        Password({
          // The lowest cost scrypt accepts: the test is about the upgrade, not the hash's strength.
          scrypt: { ln: 10, r: 1, p: 1 },
          sendMail: (mail) => {
            mails.push({ to: mail.to, subject: mail.subject, text: mail.text })
          },
        }),
      ],
    },
  }
}

/** A user with no password chooses one through the reset link; the browser it signs in. */
export async function choosePassword(server: Server, mails: Mails, email: string) {
  const browser = new Browser(server)
  const sent = mails.length
  const asked = await browser.post("/auth/reset-password/password", { email })
  expect(asked.location?.pathname, "the reset is asked").toBe("/auth/verify-request")
  const mail = mails.slice(sent).find((m) => m.to === email && /new-password/.test(m.text))
  expect(mail, `a reset link mailed to ${email}`).toBeTruthy()
  const link = new URL(/https?:\/\/\S+/.exec(mail!.text)![0])
  expect(link.origin).toBe(ORIGIN)
  const token = link.searchParams.get("token")!
  const { location } = await browser.post("/auth/new-password/password", {
    token,
    password: NEW_PASSWORD,
    callbackUrl: "/home",
  })
  expect(location?.origin, "the new password signs in").toBe(ORIGIN)
  expect((await browser.session())?.user?.email).toBe(email)
  return browser
}

/** Turns a second factor on from a freshly signed-in browser; its key and recovery codes. */
export async function turnOnTwoFactor(browser: Browser) {
  const page = await browser.fetch("/auth/two-factor/setup")
  expect(page.status, "the setup page").toBe(200)
  const html = await page.text()
  const setup = /name="setup" value="([^"]+)"/.exec(html)?.[1]
  const key = /Key: <code>([A-Z2-7 ]+)<\/code>/.exec(html)?.[1]?.replace(/ /g, "")
  expect(setup && key, "the setup page shows a key").toBeTruthy()
  // The code of the step before: the sign-ins below use the current step's, which is new.
  const { response } = await browser.post(
    "/auth/two-factor/setup",
    { setup: setup!, code: totp(key!, Date.now() - 30_000), callbackUrl: "/home" },
    { "x-auth-return-redirect": "1" },
  )
  const answer = (await response.json()) as { url: string; recoveryCodes?: string[] }
  expect(answer.url, "the setup is confirmed").toBe(HOME)
  expect(answer.recoveryCodes?.length, "recovery codes are shown").toBeGreaterThan(0)
  return { key: key!, recoveryCodes: answer.recoveryCodes! }
}

/** Signs in with the password, then the second factor (`code` or `recoveryCode`). */
export async function signInWithSecondFactor(
  server: Server,
  email: string,
  factor: { code: string } | { recoveryCode: string },
) {
  const browser = new Browser(server)
  const first = await browser.post("/auth/callback/password", {
    email,
    password: NEW_PASSWORD,
    callbackUrl: "/home",
  })
  expect(first.location?.pathname, "the password asks for the second factor").toBe(
    "/auth/two-factor",
  )
  expect(await browser.session(), "no session before the second factor").toBeNull()
  const second = await browser.post("/auth/two-factor", factor)
  expect(second.location?.href, "the second factor signs in").toBe(HOME)
  return browser
}
