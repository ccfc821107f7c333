/**
 * Password accounts in SvelteKit: the `signUp`, `requestPasswordReset`, `setNewPassword`,
 * `changePassword` and `removeSignInMethod` form actions driven with request events as a page's
 * actions get them, `getSignInMethods` after the handle, and the mails they send arriving over
 * SMTP (latch-mailbox on 127.0.0.1, through the Nodemailer provider). Core's tests cover the
 * flows' rules; these check what the integration adds: the fields it posts, the refusals thrown
 * to the page, the redirects, the cookies, the origin check.
 */
import { hashPassword } from "@latch/core/providers/password"
import { isRedirect } from "@sveltejs/kit"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { memoryAdapter } from "../../core/test/helpers/memory-adapter.js"
import { startMailbox, type Mailbox, type ReceivedMail } from "latch-mailbox"
import {
  AccountError,
  CredentialsSignin,
  getSignInMethods,
  PasswordError,
  SvelteKitAuth,
  type AuthFormAction,
  type SignInMethod,
} from "../src/lib/index.js"
import GitHub from "../src/lib/providers/github.js"
import Nodemailer from "../src/lib/providers/nodemailer.js"
import Password, { type PasswordOptions } from "../src/lib/providers/password.js"
import { testConfig } from "./helpers/config.js"
import { Browser, ORIGIN, SESSION_COOKIE, type EventInit, type TestEvent } from "./helpers/event.js"

/** Cheap scrypt parameters for tests (the defaults cost ~0.4 s a hash). */
const FAST = { ln: 10, r: 8, p: 1 }
const FROM = "Example <no-reply@example.com>"
const OLD_PASSWORD = "an old passphrase, long enough"
const NEW_PASSWORD = "a brand new passphrase, long enough"

let mailbox: Mailbox
beforeAll(async () => {
  mailbox = await startMailbox()
})
afterAll(() => mailbox.close())

let counter = 0
/** A fresh address per test, so tests never see each other's mail. */
const newAddress = () => `user${++counter}.${Date.now()}@example.org`

interface SetupOptions {
  strategy?: "database" | "jwt"
  /**
   * Whether the Nodemailer provider is configured (a sign-in method of its own); without it the
   * Password provider sends through it all the same, by its `sendMail` option.
   */
  emailSignIn?: boolean
  /** Options of the Password provider. */
  password?: PasswordOptions
}

/** An app: a Password provider, GitHub (never contacted), mail to the mailbox, an adapter. */
function setup({
  strategy = "database",
  emailSignIn = true,
  password: options,
}: SetupOptions = {}) {
  const adapter = memoryAdapter()
  const smtp = Nodemailer({
    server: { host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true },
    from: FROM,
  })
  const password = Password({
    scrypt: FAST,
    ...options,
    ...(emailSignIn ? {} : { sendMail: (mail) => smtp.sendMail!({ ...mail, provider: smtp }) }),
  })
  const github = GitHub({ clientId: "github-id", clientSecret: "github-secret" })
  const auth = SvelteKitAuth(
    testConfig({
      adapter,
      session: { strategy },
      providers: emailSignIn ? [password, smtp, github] : [password, github],
    }),
  )
  /** A user with a verified address and `OLD_PASSWORD`. */
  const createUser = async (email = newAddress()) => {
    const user = await adapter.createUser!({
      id: crypto.randomUUID(),
      email,
      emailVerified: new Date("2026-01-01"),
    })
    adapter.passwords.set(user.id, await hashPassword(OLD_PASSWORD, FAST))
    return user
  }
  return { adapter, auth, createUser }
}

/** Runs a form action for `browser`, as a page's action; returns what it threw. */
async function submit(
  browser: Browser,
  action: AuthFormAction,
  path: string,
  form: Record<string, string>,
  init: EventInit = {},
): Promise<{ thrown: unknown; event: TestEvent }> {
  const event = browser.event(path, { form, headers: { origin: ORIGIN }, ...init })
  let thrown: unknown
  try {
    await action(event)
    throw new Error("the action returned")
  } catch (error) {
    thrown = error
  }
  browser.store({ response: new Response(), event })
  return { thrown, event }
}

/** What a redirect thrown by an action says, resolved on ORIGIN; anything else is rethrown. */
function redirectOf(thrown: unknown) {
  if (!isRedirect(thrown)) throw thrown
  return { status: thrown.status, url: new URL(thrown.location, ORIGIN) }
}

/** The refusal an action threw; a redirect fails the test. */
function refusalOf<T>(thrown: unknown, type: new (...args: never[]) => T): T {
  if (isRedirect(thrown)) throw new Error(`redirected to ${thrown.location}, not refused`)
  expect(thrown).toBeInstanceOf(type)
  return thrown as T
}

/** The first link of a mail's text under ORIGIN whose path starts with `prefix`. */
function linkIn(mail: ReceivedMail, prefix: string): URL {
  for (const match of (mail.text ?? "").matchAll(/https?:\/\/\S+/g)) {
    const url = new URL(match[0])
    if (url.origin === ORIGIN && url.pathname.startsWith(prefix)) return url
  }
  throw new Error(`no ${prefix} link in "${mail.subject}":\n${mail.text}`)
}

/** The session the browser's cookies open, read through the handle. */
async function sessionOf(browser: Browser) {
  let session: unknown
  await browser.fetch("/", {}, async (event) => {
    session = await event.locals.auth()
  })
  return session as { user?: { email?: string } } | null
}

/** Signs `browser` in with the signIn form action and the Password provider. */
async function signInWithPassword(
  auth: ReturnType<typeof SvelteKitAuth>,
  browser: Browser,
  email: string,
  password: string,
) {
  return submit(browser, auth.signIn, "/signin", { providerId: "password", email, password })
}

describe("signUp", () => {
  it("mails a link; following it creates the account and signs in where the form was headed", async () => {
    const { auth, adapter } = setup()
    const browser = new Browser(auth.handle)
    const email = newAddress()
    const { thrown, event } = await submit(
      browser,
      auth.signUp,
      "/signup",
      { email, password: NEW_PASSWORD, name: "Ann", redirectTo: "/welcome" },
      { headers: { origin: ORIGIN, referer: `${ORIGIN}/signup` } },
    )
    const { status, url } = redirectOf(thrown)
    expect(status).toBe(303)
    expect(url.pathname).toBe("/auth/verify-request")
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      provider: "password",
      type: "signup",
    })
    expect(event.cookies.writes.filter((w) => w.name === SESSION_COOKIE)).toEqual([])
    expect(await adapter.getUserByEmail!(email)).toBeNull()

    const mail = await mailbox.nextFor(email)
    expect(mail.from).toBe(FROM)
    const link = linkIn(mail, "/auth/verify-email/password")
    // The link opens the "Confirm your address" page and spends nothing (a mail scanner's visit);
    // its button confirms the address.
    const page = await browser.fetch(link.pathname + link.search)
    expect(page.response.status).toBe(200)
    expect(await page.response.text()).toContain("Confirm your address")
    expect(await adapter.getUserByEmail!(email)).toBeNull()
    const { response } = await browser.followLink(link)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/welcome`)
    expect((await sessionOf(browser))?.user).toMatchObject({ email, name: "Ann" })
    const user = await adapter.getUserByEmail!(email)
    expect(user?.emailVerified).toBeInstanceOf(Date)
    // The password chosen at sign-up signs in.
    const again = new Browser(auth.handle)
    redirectOf((await signInWithPassword(auth, again, email, NEW_PASSWORD)).thrown)
    expect((await sessionOf(again))?.user?.email).toBe(email)
  })

  it("after the link, lands on the page's ?callbackUrl=, else home: never back on the form", async () => {
    const { auth } = setup()
    const browser = new Browser(auth.handle)
    const referer = { origin: ORIGIN, referer: `${ORIGIN}/signup` }
    const headedFor = async (path: string) => {
      const email = newAddress()
      redirectOf(
        (
          await submit(
            browser,
            auth.signUp,
            path,
            { email, password: NEW_PASSWORD },
            { headers: referer },
          )
        ).thrown,
      )
      const link = linkIn(await mailbox.nextFor(email), "/auth/verify-email/")
      // Followed in another browser: the password chosen at sign-up is typed there.
      const { response } = await new Browser(auth.handle).followLink(link, {
        password: NEW_PASSWORD,
      })
      return response.headers.get("location")
    }
    expect(await headedFor("/signup?callbackUrl=%2Fdashboard")).toBe(`${ORIGIN}/dashboard`)
    expect(await headedFor("/signup")).toBe(`${ORIGIN}/`)
  })

  it("without requireEmailVerification, signs a new address in at once and mails a confirming link", async () => {
    const { auth, adapter } = setup({ password: { requireEmailVerification: false } })
    const browser = new Browser(auth.handle)
    const email = newAddress()
    const { thrown } = await submit(browser, auth.signUp, "/signup?callbackUrl=%2Fwelcome", {
      email,
      password: NEW_PASSWORD,
    })
    const { status, url } = redirectOf(thrown)
    expect(status).toBe(303)
    expect(url.href).toBe(`${ORIGIN}/welcome`)
    expect((await sessionOf(browser))?.user?.email).toBe(email)
    expect((await adapter.getUserByEmail!(email))?.emailVerified).toBeNull()
    const mail = await mailbox.nextFor(email)
    expect(linkIn(mail, "/auth/verify-email/password").searchParams.get("token")).toBeTruthy()
  })

  it("answers an address that has an account the same, and mails it an 'exists' message", async () => {
    const { auth, createUser } = setup()
    const { email } = await createUser()
    const fresh = newAddress()
    const answers = []
    for (const address of [email, fresh]) {
      const { thrown } = await submit(new Browser(auth.handle), auth.signUp, "/signup", {
        email: address,
        password: NEW_PASSWORD,
      })
      const { url } = redirectOf(thrown)
      url.searchParams.delete("host")
      answers.push(url.href)
    }
    expect(answers[0]).toBe(answers[1])
    expect((await mailbox.nextFor(email)).subject).toMatch(/tried to create an account/)
    expect((await mailbox.nextFor(fresh)).subject).toMatch(/Confirm your address/)
  })

  it("throws PasswordError with the policy's code, and mails nothing", async () => {
    const { auth } = setup()
    const browser = new Browser(auth.handle)
    const email = newAddress()
    const cases: [Record<string, string>, string][] = [
      [{ email, password: "short" }, "password_too_short"],
      [{ email, password: email }, "password_like_identifier"],
      [{ email: "a@example.org, b@example.org", password: NEW_PASSWORD }, "invalid_email"],
      [{ password: NEW_PASSWORD }, "invalid_email"],
    ]
    for (const [form, code] of cases) {
      const { thrown, event } = await submit(browser, auth.signUp, "/signup", form)
      expect(refusalOf(thrown, PasswordError).code, code).toBe(code)
      expect(event.cookies.writes.filter((w) => w.name === SESSION_COOKIE)).toEqual([])
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(mailbox.to(email)).toEqual([])
  })

  it("takes the fields of a remote form instead of the request's, and a named provider", async () => {
    const adapter = memoryAdapter()
    const sendMail = vi.fn()
    const auth = SvelteKitAuth(
      testConfig({ adapter, providers: [Password({ id: "pw", scrypt: FAST, sendMail })] }),
    )
    const email = newAddress()
    const event = new Browser(auth.handle).event("/signup", {
      form: { email: "ignored@example.org" },
      headers: { origin: ORIGIN },
    })
    const thrown = await auth
      .signUp(event, { providerId: "pw", email, password: NEW_PASSWORD })
      .catch((error: unknown) => error)
    expect(redirectOf(thrown).url.searchParams.get("provider")).toBe("pw")
    expect(sendMail).toHaveBeenCalledTimes(1)
    expect(sendMail.mock.calls[0]![0]).toMatchObject({ to: email })
    const link = linkIn({ text: sendMail.mock.calls[0]![0].text } as ReceivedMail, "/auth/")
    expect(link.pathname).toBe("/auth/verify-email/pw")
  })
})

describe("refusals that are not the password's", () => {
  it("throws sign_up_closed when sign-up is off", async () => {
    const sendMail = vi.fn()
    const auth = SvelteKitAuth(
      testConfig({
        adapter: memoryAdapter(),
        providers: [Password({ scrypt: FAST, sendMail, signUp: false })],
      }),
    )
    const { thrown } = await submit(new Browser(auth.handle), auth.signUp, "/signup", {
      email: newAddress(),
      password: NEW_PASSWORD,
    })
    expect(refusalOf(thrown, PasswordError).code).toBe("sign_up_closed")
    expect(sendMail).not.toHaveBeenCalled()
  })

  it("sends an address the signIn callback refuses to the error page (AccessDenied)", async () => {
    const sendMail = vi.fn()
    const auth = SvelteKitAuth(
      testConfig({
        adapter: memoryAdapter(),
        callbacks: { signIn: ({ user }) => !user.email?.endsWith("@example.org") },
        providers: [Password({ scrypt: FAST, sendMail })],
      }),
    )
    const { thrown } = await submit(new Browser(auth.handle), auth.signUp, "/signup", {
      email: newAddress(),
      password: NEW_PASSWORD,
    })
    const { status, url } = redirectOf(thrown)
    expect(status).toBe(303)
    expect(url.pathname).toBe("/auth/error")
    expect(url.searchParams.get("error")).toBe("AccessDenied")
    expect(sendMail).not.toHaveBeenCalled()
  })

  it("throws mail_failed when the mail cannot be sent, for any address", async () => {
    const adapter = memoryAdapter()
    const down = Nodemailer({
      // Nothing listens on the discard port: the connection is refused at once.
      server: { host: "127.0.0.1", port: 9, secure: false, ignoreTLS: true },
      from: FROM,
    })
    const auth = SvelteKitAuth(
      testConfig({ adapter, providers: [Password({ scrypt: FAST }), down] }),
    )
    const known = await adapter.createUser!({
      id: "u1",
      email: newAddress(),
      emailVerified: new Date(),
    })
    const browser = new Browser(auth.handle)
    for (const [action, email] of [
      [auth.signUp, newAddress()],
      [auth.requestPasswordReset, newAddress()],
      [auth.requestPasswordReset, known.email],
    ] as const) {
      const { thrown } = await submit(browser, action, "/form", { email, password: NEW_PASSWORD })
      expect(refusalOf(thrown, PasswordError).code).toBe("mail_failed")
    }
  })
})

describe("requestPasswordReset and setNewPassword", () => {
  it("answers a known and an unknown address alike; each gets a mail of its own", async () => {
    const { auth, createUser } = setup()
    const { email } = await createUser()
    const unknown = newAddress()
    const answers = []
    for (const address of [email, unknown]) {
      const { thrown } = await submit(
        new Browser(auth.handle),
        auth.requestPasswordReset,
        "/forgot",
        {
          email: address,
        },
      )
      const { status, url } = redirectOf(thrown)
      expect(status).toBe(303)
      expect(url.pathname).toBe("/auth/verify-request")
      expect(url.searchParams.get("type")).toBe("reset")
      url.searchParams.delete("host")
      answers.push(url.href)
    }
    expect(answers[0]).toBe(answers[1])
    const reset = await mailbox.nextFor(email)
    expect(reset.subject).toMatch(/Reset your password/)
    expect(linkIn(reset, "/auth/new-password/password").searchParams.get("token")).toBeTruthy()
    const noAccount = await mailbox.nextFor(unknown)
    expect(noAccount.subject).toMatch(/Password reset for/)
    expect(noAccount.text).not.toContain("/auth/new-password/")
    expect(linkIn(noAccount, "/auth/signup").pathname).toBe("/auth/signup")
  })

  it("refuses a malformed address with PasswordError invalid_email", async () => {
    const { auth } = setup()
    const { thrown } = await submit(
      new Browser(auth.handle),
      auth.requestPasswordReset,
      "/forgot",
      {
        email: "not an address",
      },
    )
    expect(refusalOf(thrown, PasswordError).code).toBe("invalid_email")
  })

  it("sets the new password from the page's ?token=: signed in, old password refused, other sessions ended", async () => {
    const { auth, createUser } = setup({ strategy: "database" })
    const { email } = await createUser()
    const laptop = new Browser(auth.handle)
    const phone = new Browser(auth.handle)
    for (const browser of [laptop, phone]) {
      redirectOf((await signInWithPassword(auth, browser, email, OLD_PASSWORD)).thrown)
      expect((await sessionOf(browser))?.user?.email).toBe(email)
    }

    const visitor = new Browser(auth.handle)
    redirectOf(
      (
        await submit(visitor, auth.requestPasswordReset, "/forgot", {
          email,
          redirectTo: "/account",
        })
      ).thrown,
    )
    const link = linkIn(await mailbox.nextFor(email), "/auth/new-password/password")
    // The link opens core's page, which checks the token without spending it.
    const opened = await visitor.fetch(link.pathname + link.search)
    expect(opened.response.status).toBe(200)
    const token = link.searchParams.get("token")!
    const page = `/reset-password/new?${new URLSearchParams({ token })}`

    // A password the policy refuses is thrown, and leaves the link usable.
    const short = await submit(visitor, auth.setNewPassword, page, { password: "short" })
    expect(refusalOf(short.thrown, PasswordError).code).toBe("password_too_short")

    const { thrown, event } = await submit(visitor, auth.setNewPassword, page, {
      password: NEW_PASSWORD,
    })
    const { status, url } = redirectOf(thrown)
    expect(status).toBe(303)
    expect(url.href).toBe(`${ORIGIN}/account`)
    expect(event.cookies.writes.some((w) => w.name === SESSION_COOKIE && w.value)).toBe(true)
    expect((await sessionOf(visitor))?.user?.email).toBe(email)
    expect(await sessionOf(laptop)).toBeNull()
    expect(await sessionOf(phone)).toBeNull()
    expect((await mailbox.nextFor(email)).subject).toMatch(/was changed/)

    const old = await signInWithPassword(auth, new Browser(auth.handle), email, OLD_PASSWORD)
    expect(refusalOf(old.thrown, CredentialsSignin).code).toBe("credentials")
    redirectOf((await signInWithPassword(auth, laptop, email, NEW_PASSWORD)).thrown)
    expect((await sessionOf(laptop))?.user?.email).toBe(email)

    // The link is spent: the error page, not a password set.
    const replay = await submit(new Browser(auth.handle), auth.setNewPassword, page, {
      password: "yet another passphrase, long enough",
    })
    const again = redirectOf(replay.thrown)
    expect(again.url.pathname).toBe("/auth/error")
    expect(again.url.searchParams.get("error")).toBe("Verification")
  })

  it("leads the mailed link through core's check to pages.newPassword, with the token", async () => {
    const adapter = memoryAdapter()
    const sendMail = vi.fn()
    const auth = SvelteKitAuth(
      testConfig({
        adapter,
        pages: { newPassword: "/reset-password" },
        providers: [Password({ scrypt: FAST, sendMail })],
      }),
    )
    const { email } = await adapter.createUser!({
      id: "u1",
      email: newAddress(),
      emailVerified: new Date(),
    })
    const browser = new Browser(auth.handle)
    redirectOf((await submit(browser, auth.requestPasswordReset, "/forgot", { email })).thrown)
    const link = linkIn({ text: sendMail.mock.calls[0]![0].text } as ReceivedMail, "/auth/new-")
    const { response } = await browser.fetch(link.pathname + link.search)
    const page = new URL(response.headers.get("location")!)
    expect(page.pathname).toBe("/reset-password")
    expect(page.searchParams.get("token")).toBe(link.searchParams.get("token"))
    // A forged token is refused before the app's page.
    const forged = await browser.fetch(`${link.pathname}?token=forged`)
    expect(new URL(forged.response.headers.get("location")!).pathname).toBe("/auth/error")
  })

  it("sends a form without a token to the error page (Verification), not a refusal", async () => {
    const { auth } = setup()
    const { thrown } = await submit(new Browser(auth.handle), auth.setNewPassword, "/reset", {
      password: NEW_PASSWORD,
    })
    const { status, url } = redirectOf(thrown)
    expect(status).toBe(303)
    expect(url.pathname).toBe("/auth/error")
    expect(url.searchParams.get("error")).toBe("Verification")
  })

  it("takes the token from the form's token field too", async () => {
    const { auth, createUser } = setup({ strategy: "jwt" })
    const { email } = await createUser()
    const browser = new Browser(auth.handle)
    redirectOf((await submit(browser, auth.requestPasswordReset, "/forgot", { email })).thrown)
    const token = linkIn(await mailbox.nextFor(email), "/auth/new-password/").searchParams.get(
      "token",
    )!
    const { thrown } = await submit(browser, auth.setNewPassword, "/reset-password/new", {
      token,
      password: NEW_PASSWORD,
    })
    expect(redirectOf(thrown).url.href).toBe(`${ORIGIN}/`)
    expect((await sessionOf(browser))?.user?.email).toBe(email)
  })
})

describe("changePassword", () => {
  it("refuses a wrong current password; the right one changes it, mails, and ends the other sessions", async () => {
    const { auth, createUser } = setup({ strategy: "database" })
    const { email } = await createUser()
    const laptop = new Browser(auth.handle)
    const phone = new Browser(auth.handle)
    for (const browser of [laptop, phone])
      redirectOf((await signInWithPassword(auth, browser, email, OLD_PASSWORD)).thrown)

    const wrong = await submit(laptop, auth.changePassword, "/account", {
      currentPassword: "not the password at all",
      password: NEW_PASSWORD,
    })
    expect(refusalOf(wrong.thrown, PasswordError).code).toBe("wrong_password")
    const weak = await submit(laptop, auth.changePassword, "/account", {
      currentPassword: OLD_PASSWORD,
      password: "short",
    })
    expect(refusalOf(weak.thrown, PasswordError).code).toBe("password_too_short")

    const referer = `${ORIGIN}/account?tab=security`
    const { thrown } = await submit(
      laptop,
      auth.changePassword,
      "/account?/changePassword",
      { currentPassword: OLD_PASSWORD, password: NEW_PASSWORD },
      { headers: { origin: ORIGIN, referer } },
    )
    const { status, url } = redirectOf(thrown)
    expect(status).toBe(303)
    expect(url.href).toBe(referer)
    const mail = await mailbox.nextFor(email)
    expect(mail.subject).toMatch(/was changed/)
    expect(linkIn(mail, "/auth/reset-password").pathname).toBe("/auth/reset-password")
    expect((await sessionOf(laptop))?.user?.email).toBe(email)
    expect(await sessionOf(phone)).toBeNull()
    const old = await signInWithPassword(auth, phone, email, OLD_PASSWORD)
    expect(refusalOf(old.thrown, CredentialsSignin).code).toBe("credentials")
    redirectOf((await signInWithPassword(auth, phone, email, NEW_PASSWORD)).thrown)
  })

  it("throws signed_out without a session", async () => {
    const { auth } = setup()
    const { thrown } = await submit(new Browser(auth.handle), auth.changePassword, "/account", {
      currentPassword: OLD_PASSWORD,
      password: NEW_PASSWORD,
    })
    expect(refusalOf(thrown, PasswordError).code).toBe("signed_out")
  })

  it("over the limit of attempts, throws rate_limited with Retry-After on the page's response", async () => {
    const { auth, createUser } = setup({ strategy: "jwt" })
    const { email } = await createUser()
    const browser = new Browser(auth.handle)
    redirectOf((await signInWithPassword(auth, browser, email, OLD_PASSWORD)).thrown)
    const codes: string[] = []
    let headers: Record<string, string> = {}
    for (let i = 0; i < 6; i++) {
      const event = browser.event("/account", {
        form: { currentPassword: `guess ${i}`, password: NEW_PASSWORD },
        headers: { origin: ORIGIN },
      })
      event.setHeaders = vi.fn((set: Record<string, string>) => {
        headers = set
      })
      const error = await auth.changePassword(event).catch((thrown: unknown) => thrown)
      codes.push(refusalOf(error, PasswordError).code)
    }
    expect(codes).toEqual([...Array(5).fill("wrong_password"), "rate_limited"])
    expect(Number(headers["retry-after"])).toBeGreaterThan(0)
  })
})

describe("getSignInMethods and removeSignInMethod", () => {
  /** A user with a password and a GitHub account, signed in with the password. */
  async function signedInWithGitHub(options: SetupOptions = {}) {
    const app = setup(options)
    const user = await app.createUser()
    await app.adapter.linkAccount!({
      userId: user.id,
      type: "oauth",
      provider: "github",
      providerAccountId: "gh-1",
    })
    const browser = new Browser(app.auth.handle)
    redirectOf((await signInWithPassword(app.auth, browser, user.email, OLD_PASSWORD)).thrown)
    const methods = async (from = browser) => {
      let listed: SignInMethod[] | null = null
      await from.fetch("/account", {}, async (event) => {
        listed = await getSignInMethods(event)
      })
      return listed as SignInMethod[] | null
    }
    return { ...app, user, browser, methods }
  }

  it.each(["database", "jwt"] as const)(
    "lists the password, linked accounts and email sign-in; null when signed out (%s sessions)",
    async (strategy) => {
      const { browser, methods, user } = await signedInWithGitHub({ strategy })
      const listed = await methods()
      expect(listed).toHaveLength(3)
      expect(listed).toEqual(
        expect.arrayContaining([
          {
            type: "password",
            provider: "password",
            providerName: "Password",
            id: "",
            removable: true,
          },
          expect.objectContaining({
            type: "oauth",
            provider: "github",
            id: "gh-1",
            removable: true,
          }),
          expect.objectContaining({
            type: "email",
            provider: "nodemailer",
            label: user.email,
            removable: false,
          }),
        ]),
      )
      expect(await methods(new Browser(browser.handle))).toBeNull()
    },
  )

  it("needs the handle to have run for the request", async () => {
    const { browser } = await signedInWithGitHub()
    await expect(getSignInMethods(browser.event("/account"))).rejects.toThrow(/hooks\.server/)
  })

  it("removes a method while another is left, and refuses the last one (last_method)", async () => {
    const { auth, browser, methods, adapter, user } = await signedInWithGitHub({
      emailSignIn: false,
    })
    const referer = `${ORIGIN}/account`
    const { thrown } = await submit(
      browser,
      auth.removeSignInMethod,
      "/account?/remove",
      { provider: "github", id: "gh-1" },
      { headers: { origin: ORIGIN, referer } },
    )
    const { status, url } = redirectOf(thrown)
    expect(status).toBe(303)
    expect(url.href).toBe(referer)
    expect(
      await adapter.getUserByAccount!({ provider: "github", providerAccountId: "gh-1" }),
    ).toBeNull()
    expect(await methods()).toEqual([
      {
        type: "password",
        provider: "password",
        providerName: "Password",
        id: "",
        removable: false,
      },
    ])

    const last = await submit(browser, auth.removeSignInMethod, "/account", {
      provider: "password",
      id: "",
    })
    expect(refusalOf(last.thrown, AccountError).code).toBe("last_method")
    expect(adapter.passwords.has(user.id)).toBe(true)
  })

  it("removes the password while a linked account is left", async () => {
    const { auth, browser, methods, adapter, user } = await signedInWithGitHub({
      emailSignIn: false,
    })
    redirectOf(
      (await submit(browser, auth.removeSignInMethod, "/account", { provider: "password", id: "" }))
        .thrown,
    )
    expect(adapter.passwords.has(user.id)).toBe(false)
    expect((await methods())?.map((method) => [method.provider, method.removable])).toEqual([
      ["github", false],
    ])
  })

  it("refuses what is not the user's (not_found) and a visitor without a session (signed_out)", async () => {
    const { auth, browser } = await signedInWithGitHub()
    const forms: Record<string, string>[] = [
      { provider: "github", id: "someone-else" },
      { provider: "nodemailer", id: "x@example.org" },
      { id: "gh-1" },
      { provider: "github" },
    ]
    for (const form of forms) {
      const { thrown } = await submit(browser, auth.removeSignInMethod, "/account", form)
      expect(refusalOf(thrown, AccountError).code, JSON.stringify(form)).toBe("not_found")
    }
    const visitor = new Browser(auth.handle)
    const { thrown } = await submit(visitor, auth.removeSignInMethod, "/account", {
      provider: "github",
      id: "gh-1",
    })
    expect(refusalOf(thrown, AccountError).code).toBe("signed_out")
  })
})

describe("the origin check", () => {
  it("refuses every password form posted cross-site (403), even with SvelteKit's check off", async () => {
    const { auth, createUser } = setup()
    const { email } = await createUser()
    const browser = new Browser(auth.handle)
    redirectOf((await signInWithPassword(auth, browser, email, OLD_PASSWORD)).thrown)
    const forms: [AuthFormAction, Record<string, string>][] = [
      [auth.signUp, { email: newAddress(), password: NEW_PASSWORD }],
      [auth.requestPasswordReset, { email }],
      [auth.setNewPassword, { token: "x", password: NEW_PASSWORD }],
      [auth.changePassword, { currentPassword: OLD_PASSWORD, password: NEW_PASSWORD }],
      [auth.removeSignInMethod, { provider: "password", id: "" }],
    ]
    for (const [action, form] of forms) {
      for (const headers of [{ origin: "https://evil.example" }, {}] as Record<string, string>[]) {
        const { thrown } = await submit(browser, action, "/account", form, { headers })
        expect(thrown).toMatchObject({ status: 403 })
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(mailbox.to(email)).toEqual([])
    // Nothing changed: the old password still signs in.
    redirectOf(
      (await signInWithPassword(auth, new Browser(auth.handle), email, OLD_PASSWORD)).thrown,
    )
  })
})
