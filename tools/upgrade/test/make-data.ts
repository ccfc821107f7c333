/**
 * The data of the last release: real flows through its `Auth`, as users of an app running it
 * would have left behind — rows in the database and cookies in their browsers.
 */
import { expect } from "vitest"
import {
  SoftAuthenticator,
  type SoftCredential,
} from "../../../packages/core/test/helpers/authenticator.js"
import type { OAuthServer } from "../../../packages/core/test/helpers/oauth-server.js"
import type { Apps, GitHubLogin, Outbox } from "./apps.js"
import { Browser } from "./browser.js"
import {
  addPasskey,
  credentialsSignIn,
  gitHubSignIn,
  HOME,
  open,
  passkeySignIn,
  requestLink,
} from "./flows.js"

/** A browser signed in by the release, and the session the release showed it. */
export interface SignedIn {
  label: string
  app: keyof Apps
  browser: Browser
  before: { user: Record<string, unknown>; expires: string }
}

export interface Passkey {
  label: string
  email: string
  authenticator: SoftAuthenticator
  credential: SoftCredential
}

export interface Made {
  signedIn: SignedIn[]
  passkeys: Passkey[]
  /** Links mailed and not yet opened, to an address with or without an account. */
  pendingLinks: { email: string; link: URL }[]
  /** Ivan, signed in on two devices, whose sessions are managed after the upgrade. */
  devices: { laptop: Browser; phone: Browser }
  /** GitHub accounts and the user each was stored under, by app. */
  oauth: { login: GitHubLogin; app: "database" | "jwt"; email: string }[]
}

export async function makeData(
  old: Apps,
  { oauth, github, outbox }: { oauth: OAuthServer; github: { next: GitHubLogin }; outbox: Outbox },
): Promise<Made> {
  const signedIn: Omit<SignedIn, "before">[] = []
  const home = (response: Response | URL | null, what: string) =>
    expect(
      response instanceof Response ? response.headers.get("location") : response?.href,
      what,
    ).toBe(HOME)

  // Alice signs up with GitHub, adds a passkey, and signs in with it on a second device.
  const alice = new Browser(old.database)
  home(await gitHubSignIn(alice, oauth, github, "alice"), "alice signs in with GitHub")
  signedIn.push({ label: "alice (GitHub, database session)", app: "database", browser: alice })
  const aliceKeys = new SoftAuthenticator()
  const aliceKey = await addPasskey(alice, aliceKeys)
  const phone = await passkeySignIn(old.database, aliceKeys, aliceKey)
  home(phone.location, "alice signs in with her passkey")
  signedIn.push({
    label: "alice (passkey, database session)",
    app: "database",
    browser: phone.browser,
  })

  // Erin signs up with an email link, adds a passkey from an authenticator without a signature
  // counter, then links her GitHub account.
  const erin = new Browser(old.database)
  home(
    await open(erin, await requestLink(erin, outbox, "erin@example.com")),
    "erin signs in with an email link",
  )
  signedIn.push({ label: "erin (email link, database session)", app: "database", browser: erin })
  const erinKeys = new SoftAuthenticator({ counter: false })
  const erinKey = await addPasskey(erin, erinKeys)
  home(await gitHubSignIn(erin, oauth, github, "erin"), "erin links GitHub")

  // Links mailed and never opened: to a new address, and to Alice's.
  const pendingLinks = []
  for (const email of ["grace@example.com", "alice@example.com"]) {
    const browser = new Browser(old.database)
    pendingLinks.push({ email, link: await requestLink(browser, outbox, email) })
  }

  // Ivan signs in with GitHub on his laptop and on his phone.
  const devices = { laptop: new Browser(old.database), phone: new Browser(old.database) }
  for (const [device, browser] of Object.entries(devices)) {
    home(await gitHubSignIn(browser, oauth, github, "ivan"), `ivan signs in on his ${device}`)
  }

  // Frank signs up with GitHub in the app with JWT sessions and a database.
  const frank = new Browser(old.jwt)
  home(await gitHubSignIn(frank, oauth, github, "frank"), "frank signs in with GitHub")
  signedIn.push({ label: "frank (GitHub, JWT session, adapter)", app: "jwt", browser: frank })

  // Carol and Dan sign in to the app without a database; Dan's cookie comes in chunks.
  for (const member of ["carol", "dan"]) {
    const browser = new Browser(old.stateless)
    home(await credentialsSignIn(browser, member), `${member} signs in`)
    signedIn.push({ label: `${member} (credentials, JWT session)`, app: "stateless", browser })
  }
  const dan = signedIn.at(-1)!.browser
  expect(
    [...dan.cookies.keys()].filter((name) => /session-token\.\d$/.test(name)),
    "dan's session cookie is in chunks",
  ).toHaveLength(2)

  const sessions: SignedIn[] = []
  for (const entry of signedIn) {
    const before = await entry.browser.session()
    expect(before?.user, `the release sees ${entry.label} signed in`).toBeTruthy()
    sessions.push({ ...entry, before: before as SignedIn["before"] })
  }

  return {
    signedIn: sessions,
    passkeys: [
      {
        label: "alice's (with a counter)",
        email: "alice@example.com",
        authenticator: aliceKeys,
        credential: aliceKey,
      },
      {
        label: "erin's (without a counter)",
        email: "erin@example.com",
        authenticator: erinKeys,
        credential: erinKey,
      },
    ],
    pendingLinks,
    devices,
    oauth: [
      { login: "alice", app: "database", email: "alice@example.com" },
      { login: "erin", app: "database", email: "erin@example.com" },
      { login: "frank", app: "jwt", email: "frank@example.com" },
    ],
  }
}
