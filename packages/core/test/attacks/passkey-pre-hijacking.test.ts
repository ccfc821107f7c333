/**
 * Attack: account pre-hijacking with a passkey.
 *
 * Mallory, not signed in, asks `webauthn-options` to register a passkey for an address that has
 * no account yet — the victim's. Were a passkey allowed to create an account from a claimed
 * address, she would own an account under the victim's address; when the victim later signs in
 * by email link (or by OAuth with `allowDangerousEmailAccountLinking`), they would land in it,
 * and Mallory's passkey would still open it.
 *
 * Safe outcome, with either session strategy: an anonymous registration is refused with a 403
 * and a stable code (and no challenge cookie), whatever the address; no ceremony can create the
 * account; the victim's own sign-in later creates a fresh account that holds no passkey.
 */
import { startMailbox, type Mailbox, type ReceivedMail } from "latch-mailbox"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import Nodemailer from "../../src/providers/nodemailer.js"
import Passkey from "../../src/providers/passkey.js"
import type { AuthConfig } from "../../src/types.js"
import { SoftAuthenticator } from "../helpers/authenticator.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { followLink } from "../helpers/continue-page.js"
import { Browser, ORIGIN, setCookies, testConfig } from "../helpers/request.js"

let mailbox: Mailbox
beforeAll(async () => {
  mailbox = await startMailbox()
})
afterAll(() => mailbox.close())

const CHALLENGE_COOKIE = "authjs.challenge"
let sequence = 0
const victimAddress = () => `victim${++sequence}-${Date.now()}@example.com`

function setup(strategy: "database" | "jwt"): { adapter: MemoryAdapter; config: AuthConfig } {
  const adapter = memoryAdapter()
  const config = testConfig({
    adapter,
    session: { strategy },
    experimental: { enableWebAuthn: true },
    providers: [
      Nodemailer({
        server: { host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true },
        from: "Example <no-reply@example.com>",
      }),
      Passkey(),
    ],
  })
  return { adapter, config }
}

async function options(browser: Browser, query: Record<string, string>) {
  const response = await browser.fetch(
    `/auth/webauthn-options/passkey?${new URLSearchParams(query)}`,
  )
  return { response, body: (await response.json()) as Record<string, any> }
}

function linkIn(mail: ReceivedMail): string {
  const url = new URL(/https?:\/\/\S+/.exec(mail.text ?? "")![0])
  return `${url.pathname}${url.search}`
}

describe.each(["database", "jwt"] as const)("with %s sessions", (strategy) => {
  it("an anonymous visitor cannot register a passkey for an unused address", async () => {
    const { adapter, config } = setup(strategy)
    const victim = victimAddress()
    const mallory = new Browser(config)

    const { response, body } = await options(mallory, { email: victim, action: "register" })
    expect(response.status).toBe(403)
    expect(response.headers.get("content-type")).toMatch(/^application\/json/)
    expect(body).toEqual({
      error: "WebAuthnRegistrationRequiresSignIn",
      message: "Sign in first, then add a passkey from your account.",
    })
    expect(setCookies(response).has(CHALLENGE_COOKIE)).toBe(false)

    // Without `action`, the server decides: sign-in only, never a registration.
    const { body: decided } = await options(mallory, { email: victim })
    expect(decided.action).toBe("authenticate")
    expect(decided.options.user).toBeUndefined()

    // A registration answered to the sign-in challenge is refused: no account, no passkey.
    const { response: created } = new SoftAuthenticator().create({
      challenge: decided.options.challenge,
      origin: ORIGIN,
      rpId: "localhost",
    })
    const csrfToken = await mallory.csrfToken()
    const posted = await mallory.fetch("/auth/callback/passkey", {
      form: { csrfToken, action: "register", data: JSON.stringify(created) },
    })
    const refused = new URL(posted.headers.get("location")!)
    expect(refused.searchParams.get("error")).toBe("WebAuthnVerificationError")
    expect(await mallory.session()).toBeNull()
    expect(await adapter.getUserByEmail!(victim)).toBeNull()
    expect(adapter.authenticators.size).toBe(0)
  })

  it("the whole attack: the victim's later sign-in is theirs alone, and Mallory's passkey opens nothing", async () => {
    const { adapter, config } = setup(strategy)
    const victim = victimAddress()
    const ceremony = (challenge: string) => ({ challenge, origin: ORIGIN, rpId: "localhost" })

    // 1. Mallory asks for the options of the victim's address and answers them with a new
    //    passkey, as a registration (what the server offered before this was fixed).
    const mallory = new Browser(config)
    const authenticator = new SoftAuthenticator({ counter: false })
    const { body } = await options(mallory, { email: victim })
    const { credential, response } = authenticator.create(
      ceremony(body.options.challenge),
      body.options.user?.id ?? "",
    )
    const csrfToken = await mallory.csrfToken()
    await mallory.fetch("/auth/callback/passkey", {
      form: { csrfToken, action: "register", data: JSON.stringify(response) },
    })
    mallory.cookies.clear()

    // 2. The victim signs up by email link.
    const browser = new Browser(config)
    await browser.fetch("/auth/signin/nodemailer", {
      form: { csrfToken: await browser.csrfToken(), email: victim },
    })
    await followLink(browser, linkIn(await mailbox.nextFor(victim)))
    expect((await browser.session())?.user?.email).toBe(victim)
    const user = (await adapter.getUserByEmail!(victim))!
    expect(user.emailVerified).toBeInstanceOf(Date)
    const accounts = [...adapter.accounts.values()].filter((a) => a.userId === user.id)
    expect(accounts.map((account) => account.type)).toEqual(["email"])
    expect(adapter.authenticators.size).toBe(0)

    // 3. Mallory signs in with her passkey: refused, no session.
    const sign = await options(mallory, { action: "authenticate" })
    const assertion = authenticator.get(credential, ceremony(sign.body.options.challenge))
    const posted = await mallory.fetch("/auth/callback/passkey", {
      form: {
        csrfToken: await mallory.csrfToken(),
        action: "authenticate",
        data: JSON.stringify(assertion),
      },
    })
    const refused = new URL(posted.headers.get("location")!)
    expect(refused.searchParams.get("code")).toBe("unknown-credential")
    expect(await mallory.session()).toBeNull()
  })
})
