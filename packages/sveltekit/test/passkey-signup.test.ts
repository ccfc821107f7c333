/**
 * Passkey-first sign-up in SvelteKit: the `startPasskeySignUp` and `confirmPasskeySignUp` form
 * actions and `getPasskeySignUp` on a page of the app's own (`pages.passkeySignUp`), the code
 * arriving over SMTP (latch-mailbox on 127.0.0.1, through the Nodemailer provider), and the
 * registration through the handle with a software authenticator. Core's tests cover the flow's
 * rules; these check what the integration adds: the fields posted, the refusals thrown to the
 * page, the redirects, the cookies.
 */
import { isRedirect } from "@sveltejs/kit"
import { startMailbox, type Mailbox } from "latch-mailbox"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SoftAuthenticator } from "../../core/test/helpers/authenticator.js"
import { memoryAdapter } from "../../core/test/helpers/memory-adapter.js"
import {
  getPasskeySignUp,
  PasskeySignUpError,
  SvelteKitAuth,
  type AuthFormAction,
} from "../src/lib/index.js"
import Nodemailer from "../src/lib/providers/nodemailer.js"
import Passkey from "../src/lib/providers/passkey.js"
import { testConfig } from "./helpers/config.js"
import { Browser, ORIGIN, type TestEvent } from "./helpers/event.js"

let mailbox: Mailbox
beforeAll(async () => {
  mailbox = await startMailbox()
})
afterAll(() => mailbox.close())

let counter = 0
const newAddress = () => `passkey${++counter}.${Date.now()}@example.org`

function setup(strategy: "database" | "jwt") {
  const adapter = memoryAdapter()
  const auth = SvelteKitAuth(
    testConfig({
      adapter,
      session: { strategy },
      experimental: { enableWebAuthn: true },
      pages: { passkeySignUp: "/join" },
      providers: [
        Passkey({ signUp: true }),
        Nodemailer({
          server: { host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true },
          from: "Example <no-reply@example.com>",
        }),
      ],
    }),
  )
  return { adapter, auth }
}

/** Runs a form action on the page `/join` for `browser`; what it threw. */
async function submit(browser: Browser, action: AuthFormAction, form: Record<string, string>) {
  const event = browser.event("/join", { form, headers: { origin: ORIGIN } })
  let thrown: unknown
  try {
    await action(event)
  } catch (error) {
    thrown = error
  }
  browser.store({ response: new Response(), event })
  return thrown
}

/** The page's load: where the browser is, read as a page of the app's own reads it. */
async function stageOf(browser: Browser) {
  let read: Awaited<ReturnType<typeof getPasskeySignUp>> | undefined
  await browser.fetch("/join", {}, async (event: TestEvent) => {
    read = await getPasskeySignUp(event)
  })
  return read!
}

describe.each(["database", "jwt"] as const)("passkey-first sign-up (%s sessions)", (strategy) => {
  it("takes the address, the mailed code and the passkey to a signed-in account", async () => {
    const { adapter, auth } = setup(strategy)
    const browser = new Browser(auth.handle)
    const email = newAddress()
    expect((await stageOf(browser)).stage).toBe("email")

    const started = await submit(browser, auth.startPasskeySignUp, {
      email,
      redirectTo: "/welcome",
    })
    expect(isRedirect(started) && started.status).toBe(303)
    const back = new URL((started as { location: string }).location, ORIGIN)
    expect(back.pathname).toBe("/join")
    expect(back.searchParams.get("provider")).toBe("passkey")
    expect(await stageOf(browser)).toEqual({ stage: "code", email, provider: "passkey" })

    const mail = await mailbox.nextFor(email)
    const code = /\b(\d{6})\b/.exec(mail.text ?? "")![1]!
    const wrong = await submit(browser, auth.confirmPasskeySignUp, {
      code: code === "000000" ? "111111" : "000000",
    })
    expect(wrong).toBeInstanceOf(PasskeySignUpError)
    expect((wrong as PasskeySignUpError).code).toBe("wrong_code")
    const confirmed = await submit(browser, auth.confirmPasskeySignUp, { code })
    expect(isRedirect(confirmed)).toBe(true)
    expect((await stageOf(browser)).stage).toBe("passkey")

    // What `signIn("passkey", { action: "register" })` does in the browser.
    const { response } = await browser.fetch("/auth/webauthn-options/passkey?action=register")
    const { options } = (await response.json()) as {
      options: { challenge: string; user: { id: string; name: string } }
    }
    expect(options.user.name).toBe(email)
    const made = new SoftAuthenticator().create(
      { challenge: options.challenge, origin: ORIGIN, rpId: "localhost" },
      options.user.id,
    )
    const csrfToken = await browser.csrfToken()
    const registered = await browser.fetch("/auth/callback/passkey", {
      form: { csrfToken, action: "register", data: JSON.stringify(made.response) },
      headers: { origin: ORIGIN },
    })
    expect(registered.response.headers.get("location")).toBe(`${ORIGIN}/`)

    let session: { user?: { email?: string } } | null = null
    await browser.fetch("/", {}, async (event) => {
      session = (await event.locals.auth()) as typeof session
    })
    expect(session!.user?.email).toBe(email)
    const user = await adapter.getUserByEmail!(email)
    expect(user?.emailVerified).toBeInstanceOf(Date)
    expect(await adapter.listAuthenticatorsByUserId!(user!.id)).toHaveLength(1)
  })
})

describe("passkey-first sign-up refusals", () => {
  it("throws an address that is not one to the page, and a browser without a sign-up its code", async () => {
    const { auth } = setup("jwt")
    const browser = new Browser(auth.handle)
    const bad = await submit(browser, auth.startPasskeySignUp, { email: "a@b.c, d@e.f" })
    expect((bad as PasskeySignUpError).code).toBe("invalid_email")
    const none = await submit(browser, auth.confirmPasskeySignUp, { code: "123456" })
    expect((none as PasskeySignUpError).code).toBe("no_request")
  })
})
