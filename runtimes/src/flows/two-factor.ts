/**
 * Two-factor enrolment (the setup page's secret and a code) and a sign-in that stops before its
 * session until the code. Codes are computed as an authenticator app does (RFC 6238).
 */
import Credentials from "@latch/core/providers/credentials"
import { TOTP_PERIOD, totpAt } from "../../../packages/core/src/flows/two-factor/totp.js"
import { Browser, check, expectRedirect } from "../browser.js"
import { baseConfig, PASSWORD, withUser } from "./config.js"

export async function twoFactor(): Promise<string> {
  const email = "erin@example.com"
  const { adapter, id } = await withUser(email)
  const config = baseConfig({
    adapter,
    twoFactor: {},
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: ({ username, password }) =>
          username === email && password === PASSWORD ? adapter.getUser!(id) : null,
      }),
    ],
  })
  const signIn = (browser: Browser) =>
    browser.post("/auth/callback/credentials", {
      username: email,
      password: PASSWORD,
      callbackUrl: "/home",
    })

  const browser = new Browser(config)
  expectRedirect(await signIn(browser), "/home")
  const setup = await browser.fetch("/auth/two-factor/setup")
  check(setup.status === 200, `the setup page answered ${setup.status}`)
  const page = await setup.text()
  const setupValue = /name="setup" value="([^"]+)"/.exec(page)?.[1]
  const secret = /Key: <code>([A-Z2-7 ]+)<\/code>/.exec(page)?.[1]?.replace(/ /g, "")
  check(setupValue && secret, "the setup page shows no key")
  // The QR code of the key is drawn on every runtime (its encoder runs in the page's request).
  const qr =
    /<svg [^>]*aria-label="QR code for your authenticator app"><rect [^>]*\/><path fill="#000" d="M\d/
  check(qr.test(page), "the setup page draws no QR code")
  const enrolled = await browser.post("/auth/two-factor/setup", {
    setup: setupValue,
    code: await totpAt(secret, Date.now()),
  })
  const codes = (await enrolled.text()).match(/<li><code>[a-z2-7]{5}-[a-z2-7]{5}<\/code>/g) ?? []
  check(codes.length === 10, `enrolment showed ${codes.length} recovery codes, not 10`)
  check(await adapter.getTwoFactor!(id), "no second factor stored")

  // The next step's code: the current one was spent by the enrolment.
  const next = new Browser(config)
  expectRedirect(await signIn(next), "/auth/two-factor")
  check((await next.session()) === null, "a session before the code")
  const code = await totpAt(secret, Date.now() + TOTP_PERIOD * 1000)
  expectRedirect(await next.post("/auth/two-factor", { code }), "/home")
  check((await next.session())?.user?.email === email, "the code made no session")
  return "enrolled, 10 recovery codes, code sign-in"
}
