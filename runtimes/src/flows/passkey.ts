/**
 * A passkey registered by a signed-in user, then a sign-in with it from a fresh browser; the
 * ceremonies are answered by a software authenticator and verified by @simplewebauthn/server.
 */
import Credentials from "@latch/core/providers/credentials"
import Passkey from "@latch/core/providers/passkey"
import { assert, createCredential } from "../authenticator.js"
import { Browser, check, expectRedirect, ORIGIN } from "../browser.js"
import { baseConfig, PASSWORD, withUser } from "./config.js"

async function options(browser: Browser, action: string) {
  const response = await browser.fetch(`/auth/webauthn-options/passkey?action=${action}`)
  check(response.status === 200, `${action} options answered ${response.status}`)
  return ((await response.json()) as { options: { challenge: string; user?: { id: string } } })
    .options
}

export async function passkey(): Promise<string> {
  const email = "frank@example.com"
  const { adapter, id } = await withUser(email)
  const config = baseConfig({
    adapter,
    experimental: { enableWebAuthn: true },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: ({ username, password }) =>
          username === email && password === PASSWORD ? adapter.getUser!(id) : null,
      }),
      Passkey(),
    ],
  })
  const rpId = new URL(ORIGIN).hostname
  const browser = new Browser(config)
  expectRedirect(
    await browser.post("/auth/callback/credentials", { username: email, password: PASSWORD }),
    "/",
  )
  const creation = await options(browser, "register")
  const { credential, response } = await createCredential(
    { challenge: creation.challenge, origin: ORIGIN, rpId },
    creation.user!.id,
  )
  const registered = await browser.post("/auth/callback/passkey", {
    action: "register",
    data: JSON.stringify(response),
    callbackUrl: "/keys",
  })
  expectRedirect(registered, "/keys")
  check(adapter.authenticators.size === 1, "no passkey stored")

  const fresh = new Browser(config)
  const request = await options(fresh, "authenticate")
  const assertion = await assert(credential, { challenge: request.challenge, origin: ORIGIN, rpId })
  const signedIn = await fresh.post("/auth/callback/passkey", {
    action: "authenticate",
    data: JSON.stringify(assertion),
    callbackUrl: "/home",
  })
  expectRedirect(signedIn, "/home")
  check((await fresh.session())?.user?.email === email, "the passkey made no session")
  return "registered, then signed in with it"
}
