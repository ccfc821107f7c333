/**
 * The setting of the account-security tests (test/attacks/stolen-session.test.ts,
 * unproven-account.test.ts, test/flows/reauthenticate.test.ts): an app with password accounts,
 * passkeys, a real OpenID Provider to link, email links and two-factor authentication, its mails
 * kept in order; and what the attackers and the owner do in it.
 */
import { expect, vi } from "vitest"
import { TOTP_PERIOD, totpAt } from "../../src/flows/two-factor/totp.js"
import { hashPassword } from "../../src/password/hash.js"
import Email from "../../src/providers/email.js"
import Passkey from "../../src/providers/passkey.js"
import Password, { type PasswordMail, type PasswordOptions } from "../../src/providers/password.js"
import type { AuthConfig, EventCallbacks } from "../../src/types.js"
import type { AdapterUser } from "../../src/adapters.js"
import { SoftAuthenticator, type CeremonyInput } from "./authenticator.js"
import { memoryAdapter, type MemoryAdapter } from "./memory-adapter.js"
import { CLIENTS, login, type OP } from "./oidc-provider.js"
import { Browser, ORIGIN, SECRET } from "./request.js"

/** Cheap scrypt parameters for tests. */
export const FAST = { ln: 10, r: 8, p: 1 }
export const PASSWORD = "correct horse battery"
export const SESSION_COOKIE = "authjs.session-token"
export const PROOF_COOKIE = "latch.proof"

/** A mail as the app sent it. */
export interface SentMail extends PasswordMail {
  /** The first link in its text part, if any. */
  link?: string
}

export type EventLog = { [K in keyof EventCallbacks]?: ReturnType<typeof vi.fn> }

export interface App {
  adapter: MemoryAdapter
  config: AuthConfig
  /** Every mail, in order (the Password provider's and the account notices). */
  mails: SentMail[]
  /** Email sign-in links, in order. */
  emailLinks: string[]
  events: Required<Pick<EventLog, "accountChanged" | "linkAccount" | "signIn" | "reauthenticated">>
}

export interface AppOptions {
  strategy: "jwt" | "database"
  op?: OP
  password?: PasswordOptions
  extra?: Partial<AuthConfig>
}

/** The app. */
export function app({ strategy, op, password = {}, extra = {} }: AppOptions): App {
  const adapter = memoryAdapter()
  const mails: SentMail[] = []
  const emailLinks: string[] = []
  const events = {
    accountChanged: vi.fn(),
    linkAccount: vi.fn(),
    signIn: vi.fn(),
    reauthenticated: vi.fn(),
  }
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy },
    experimental: { enableWebAuthn: true },
    twoFactor: {},
    providers: [
      Password({
        scrypt: FAST,
        sendMail: (mail) => {
          mails.push({ ...mail, link: /https?:\/\/\S+/.exec(mail.text)?.[0] })
        },
        ...password,
      }),
      Email({
        sendVerificationRequest: ({ url }) => {
          emailLinks.push(url)
        },
      }),
      // "preferred": a passkey may verify the user or not.
      Passkey({ userVerification: "preferred" }),
      ...(op
        ? [
            {
              id: "op",
              name: "Test OP",
              type: "oidc" as const,
              issuer: op.issuer,
              ...CLIENTS.basic,
            },
          ]
        : []),
    ],
    events,
    logger: { error: vi.fn(), warn: () => {}, debug: () => {} },
    ...extra,
  }
  return { adapter, config, mails, emailLinks, events }
}

/** A user with a verified address and a password. */
export async function owner(
  adapter: MemoryAdapter,
  email = "ada@example.com",
): Promise<AdapterUser> {
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email,
    emailVerified: new Date("2026-01-01"),
  })
  adapter.passwords.set(user.id, await hashPassword(PASSWORD, FAST))
  return user
}

/** A CSRF-checked post; its answer and where it redirects. */
export async function post(browser: Browser, path: string, form: Record<string, string> = {}) {
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch(path, { form: { csrfToken, ...form } })
  const location = response.headers.get("location")
  return { response, location: location ? new URL(location) : null }
}

/**
 * Signs in with the password (and the code of `step` steps from now, when `secret` is given: a
 * step's code works once).
 */
export async function signIn(
  browser: Browser,
  {
    email = "ada@example.com",
    password = PASSWORD,
    secret,
    step = 1,
  }: { email?: string; password?: string; secret?: string; step?: number } = {},
) {
  const first = await post(browser, "/auth/callback/password", {
    email,
    password,
    callbackUrl: "/home",
  })
  if (!secret || first.location?.pathname !== "/auth/two-factor") return first
  return post(browser, "/auth/two-factor", { code: await codeAt(secret, step) })
}

/** The code of a TOTP secret `offset` steps from now. */
export const codeAt = (secret: string, offset = 0) =>
  totpAt(secret, Date.now() + offset * TOTP_PERIOD * 1000)

/** Turns two-factor authentication on from a signed-in browser; the secret and the codes. */
export async function enrol(browser: Browser) {
  const page = await browser.fetch("/auth/two-factor/setup")
  expect(page.status).toBe(200)
  const html = await page.text()
  const setup = /name="setup" value="([^"]+)"/.exec(html)![1]!
  const secret = /Key: <code>([A-Z2-7 ]+)<\/code>/.exec(html)![1]!.replace(/ /g, "")
  const { response } = await post(browser, "/auth/two-factor/setup", {
    setup,
    code: await codeAt(secret, -1),
    callbackUrl: "/profile",
  })
  return { response, secret }
}

/**
 * A thief's browser holding only the session cookie of `victim` (a cookie read from a log, a
 * backup, a proxy, a shared computer): none of the victim's other cookies.
 */
export function steal(victim: Browser): Browser {
  const thief = new Browser(victim.config)
  for (const [name, value] of victim.cookies)
    if (name === SESSION_COOKIE || name.startsWith(`${SESSION_COOKIE}.`))
      thief.cookies.set(name, value)
  expect(thief.cookies.size).toBeGreaterThan(0)
  return thief
}

const ceremony = (challenge: string): CeremonyInput => ({
  challenge,
  origin: ORIGIN,
  rpId: "localhost",
})

/** Asks for passkey options. */
export async function passkeyOptions(browser: Browser, action: "register" | "authenticate") {
  const response = await browser.fetch(`/auth/webauthn-options/passkey?action=${action}`)
  return { response, body: (await response.json()) as Record<string, any> }
}

/**
 * Registers a new passkey from `browser`, as the profile's "Add a passkey" does; the answer of
 * the callback (or of the options, when they are refused), and the credential.
 */
export async function addPasskey(browser: Browser, authenticator = new SoftAuthenticator()) {
  const { response, body } = await passkeyOptions(browser, "register")
  if (response.status !== 200) return { refused: { response, body } }
  const { credential, response: created } = authenticator.create(
    ceremony(body.options.challenge),
    body.options.user.id,
  )
  const answer = await post(browser, "/auth/callback/passkey", {
    action: "register",
    data: JSON.stringify(created),
    callbackUrl: "/profile",
  })
  return { answer, credential, authenticator }
}

/** Signs a fresh browser in with a passkey; its answer. */
export async function passkeySignIn(
  config: AuthConfig,
  authenticator: SoftAuthenticator,
  credential: Parameters<SoftAuthenticator["get"]>[0],
  { userVerified = true }: { userVerified?: boolean } = {},
) {
  const browser = new Browser(config)
  const { body } = await passkeyOptions(browser, "authenticate")
  const assertion = authenticator.get(credential, {
    ...ceremony(body.options.challenge),
    flags: { userVerified },
  })
  const answer = await post(browser, "/auth/callback/passkey", {
    action: "authenticate",
    data: JSON.stringify(assertion),
    callbackUrl: "/home",
  })
  return { browser, answer }
}

/** Starts linking the OP's `alice` from `browser`; the callback's answer. */
export async function linkOP(browser: Browser): Promise<Response> {
  const { location } = await post(browser, "/auth/signin/op", { callbackUrl: "/profile" })
  return browser.fetch(await login(browser, location!.href))
}

/** Confirms it is them at the re-authentication step with `form`; where it sends them. */
export async function reauthenticate(
  browser: Browser,
  form: Record<string, string>,
  callbackUrl = "/profile",
) {
  return post(browser, "/auth/reauthenticate", { callbackUrl, ...form })
}

/** Where a response sends the browser: the re-authentication step, and why. */
export function reauthenticationAsked(location: URL | null | undefined) {
  expect(location?.pathname).toBe("/auth/reauthenticate")
  return {
    code: location!.searchParams.get("code"),
    callbackUrl: location!.searchParams.get("callbackUrl"),
  }
}
