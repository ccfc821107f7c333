/**
 * The sign-in flows, driven as a browser drives them, against either version's `Auth`: the
 * release's to make the data, this checkout's to use it.
 */
import { expect } from "vitest"
import {
  SoftAuthenticator,
  type CeremonyInput,
  type SoftCredential,
} from "../../../packages/core/test/helpers/authenticator.js"
import type { OAuthServer } from "../../../packages/core/test/helpers/oauth-server.js"
import type { GitHubLogin, Outbox } from "./apps.js"
import { Browser, ORIGIN, type Server } from "./browser.js"

/** Where a sign-in that worked sends the browser. */
export const HOME = `${ORIGIN}/home`

/** Signs in with the local GitHub as `login`; the callback's answer. */
export async function gitHubSignIn(
  browser: Browser,
  oauth: OAuthServer,
  github: { next: GitHubLogin },
  login: GitHubLogin,
): Promise<Response> {
  github.next = login
  const { location } = await browser.post("/auth/signin/github", { callbackUrl: "/home" })
  expect(location?.host, "the sign-in goes to GitHub").toBe("github.com")
  const callback = new URL(oauth.authorize("github", location!.href))
  return browser.fetch(`${callback.pathname}${callback.search}`)
}

/** Asks for an email sign-in link to `email`; the link mailed. */
export async function requestLink(browser: Browser, outbox: Outbox, email: string) {
  const sent = outbox.length
  const { location } = await browser.post("/auth/signin/email", { email, callbackUrl: "/home" })
  expect(location?.pathname, "the email sign-in answers with the check-your-mail page").toBe(
    "/auth/verify-request",
  )
  expect(outbox.length).toBe(sent + 1)
  const mail = outbox.at(-1)!
  expect(mail.to).toBe(email)
  return new URL(mail.url)
}

/** Opens a link the app mailed, in `browser`. */
export async function open(browser: Browser, link: URL): Promise<Response> {
  expect(link.origin).toBe(ORIGIN)
  return browser.fetch(`${link.pathname}${link.search}`)
}

const decode = (value: string) =>
  value.replace(/&(amp|lt|gt|quot|#39|#61|#96);/g, (_, name: string) => ENTITIES[name]!)
const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  "#39": "'",
  "#61": "=",
  "#96": "`",
}

/**
 * Follows a mailed link as a person does: where the link opens a page with a button (later
 * versions ask for one press, since mail scanners open links too), presses it.
 */
export async function follow(browser: Browser, link: URL): Promise<Response> {
  const opened = await open(browser, link)
  if (opened.status !== 200) return opened
  const page = await opened.text()
  const form = /<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/.exec(page)
  expect(form, "the link's page has a form to post").not.toBeNull()
  const fields: Record<string, string> = {}
  for (const [, name, value] of form![2]!.matchAll(
    /<input type="hidden" name="([^"]*)" value="([^"]*)"/g,
  )) {
    fields[decode(name!)] = decode(value!)
  }
  return browser.fetch(decode(form![1]!), { form: fields })
}

const ceremony = (challenge: string): CeremonyInput => ({
  challenge,
  origin: ORIGIN,
  rpId: "localhost",
})

async function passkeyOptions(browser: Browser, action: "register" | "authenticate") {
  const response = await browser.fetch(`/auth/webauthn-options/passkey?action=${action}`)
  expect(response.status, `passkey options (${action})`).toBe(200)
  return ((await response.json()) as { options: any }).options
}

/** The signed-in user of `browser` adds a passkey made by `authenticator`. */
export async function addPasskey(
  browser: Browser,
  authenticator: SoftAuthenticator,
): Promise<SoftCredential> {
  const options = await passkeyOptions(browser, "register")
  const { credential, response } = authenticator.create(
    ceremony(options.challenge),
    options.user.id,
  )
  const { location } = await browser.post("/auth/callback/passkey", {
    action: "register",
    data: JSON.stringify(response),
    callbackUrl: "/home",
  })
  expect(location?.href, "the passkey is registered").toBe(HOME)
  return credential
}

/** A new browser signs in with a passkey; the browser and the callback's answer. */
export async function passkeySignIn(
  server: Server,
  authenticator: SoftAuthenticator,
  credential: SoftCredential,
) {
  const browser = new Browser(server)
  const options = await passkeyOptions(browser, "authenticate")
  const assertion = authenticator.get(credential, ceremony(options.challenge))
  const { location } = await browser.post("/auth/callback/passkey", {
    action: "authenticate",
    data: JSON.stringify(assertion),
    callbackUrl: "/home",
  })
  return { browser, location }
}

/** Signs in with the stateless app's credentials provider. */
export async function credentialsSignIn(browser: Browser, username: string) {
  const { location } = await browser.post("/auth/callback/credentials", {
    username,
    password: `${username}-password`,
    callbackUrl: "/home",
  })
  return location
}
