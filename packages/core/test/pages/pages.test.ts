import { describe, expect, it } from "vitest"

import { html, raw, SafeHtml } from "../../src/pages/html.js"
import {
  renderErrorPage,
  renderSignInPage,
  renderSignOutPage,
  renderVerifyRequestPage,
  type PageProvider,
  type SignInPageProps,
} from "../../src/pages/index.js"

const XSS = `"><script>alert(1)</script>`
const XSS_ESCAPED = "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"
const DEFAULT_BRAND = "#4f46e5"

const github: PageProvider = {
  id: "github",
  name: "GitHub",
  type: "oauth",
  signinUrl: "/auth/signin/github",
  callbackUrl: "/auth/callback/github",
}
const google: PageProvider = {
  id: "google",
  name: "Google",
  type: "oidc",
  signinUrl: "/auth/signin/google",
  callbackUrl: "/auth/callback/google",
}
const email: PageProvider = {
  id: "resend",
  name: "Email",
  type: "email",
  signinUrl: "/auth/signin/resend",
  callbackUrl: "/auth/callback/resend",
}
const credentials: PageProvider = {
  id: "password",
  name: "Password",
  type: "credentials",
  signinUrl: "/auth/signin/password",
  callbackUrl: "/auth/callback/password",
  credentials: {
    username: {},
    password: { label: "Your password", type: "password", required: true },
    otp: {
      label: "One-time code",
      placeholder: "123456",
      autocomplete: "one-time-code",
      inputMode: "numeric",
      pattern: "[0-9]{6}",
      onfocus: "alert(1)",
    },
  },
}

function signIn(overrides: Partial<SignInPageProps> = {}) {
  return renderSignInPage({
    theme: {},
    csrfToken: "csrf-123",
    callbackUrl: "https://app.example.com/dashboard",
    providers: [credentials, github, google, email],
    ...overrides,
  })
}

/** The `<form …>…</form>` elements of a page. */
function forms(page: string): string[] {
  return page.match(/<form\b[\s\S]*?<\/form>/g) ?? []
}

/** The attributes of the first `<input>` with `name="…"`. */
function input(page: string, name: string): string {
  const tag = page.match(new RegExp(`<input\\b[^>]*\\bname="${name}"[^>]*>`))?.[0]
  if (!tag) throw new Error(`no input named ${name}`)
  return tag
}

/** The page with every run of whitespace made a single space, to check running text. */
function text(page: string): string {
  return page.replace(/\s+/g, " ")
}

function alertText(page: string): string | undefined {
  return page.match(/<div class="alert" role="alert">([\s\S]*?)<\/div>/)?.[1]
}

describe("html", () => {
  it("escapes every special character of interpolated text", () => {
    expect(html`<p title="${`a&b<c>d"e'f\`g=h`}">x</p>`.toString()).toBe(
      `<p title="a&amp;b&lt;c&gt;d&quot;e&#39;f&#96;g&#61;h">x</p>`,
    )
  })

  it("keeps html and raw fragments, joins arrays and escapes strings in them", () => {
    const items = ["<b>", html`<i>${"<u>"}</i>`, raw("<hr>"), null, undefined, false, 3]
    expect(html`<div>${items}</div>`.toString()).toBe("<div>&lt;b&gt;<i>&lt;u&gt;</i><hr>3</div>")
  })

  it("does not trust look-alike objects", () => {
    const fake = { toString: () => "<script>" } as unknown as SafeHtml
    expect(html`${fake}`.toString()).toBe("&lt;script&gt;")
    expect(() => new (SafeHtml as any)("<script>", Symbol("latch.SafeHtml"))).toThrow(TypeError)
  })
})

describe("layout", () => {
  it("renders a full document with the required head and no external assets or scripts", () => {
    const { html: page } = signIn()
    expect(page.startsWith("<!doctype html>")).toBe(true)
    expect(page).toContain(`<html lang="en">`)
    expect(page).toContain(`<meta charset="utf-8"`)
    expect(page).toContain(`<meta name="viewport" content="width=device-width, initial-scale=1"`)
    expect(page).toContain(`<meta name="robots" content="noindex"`)
    expect(page).toMatch(/<title>Sign in<\/title>/)
    expect(page).toMatch(/<main>[\s\S]*<h1>Sign in<\/h1>[\s\S]*<\/main>/)
    expect(page).not.toMatch(/<script|@import|url\(/i)
    // One link: the icon, drawn inline, so that the browser asks for no /favicon.ico.
    expect(page.match(/<link\b[^>]*>/g)).toEqual([
      expect.stringMatching(/^<link rel="icon" href="data:image\/svg\+xml,%3Csvg/),
    ])
  })

  it("draws the icon in the brand colour, or uses the logo", () => {
    const icon = (page: string) => /<link rel="icon" href="([^"]*)"/.exec(page)?.[1]
    expect(icon(signIn({ theme: { brandColor: "#0f766e" } }).html)).toContain(
      encodeURIComponent(`fill="#0f766e"`).replace(/=/g, "&#61;"),
    )
    expect(icon(signIn({ theme: { brandColor: XSS } }).html)).toContain(
      encodeURIComponent(`fill="${DEFAULT_BRAND}"`).replace(/=/g, "&#61;"),
    )
    expect(icon(signIn({ theme: { logo: "https://example.com/logo.png" } }).html)).toBe(
      "https://example.com/logo.png",
    )
    expect(icon(signIn({ theme: { logo: "javascript:alert(1)" } }).html)).toMatch(/^data:/)
  })

  it("follows the system setting by default and for colorScheme auto", () => {
    for (const colorScheme of [undefined, "auto"] as const) {
      const { html: page } = signIn({ theme: { colorScheme } })
      expect(page).toContain("@media (prefers-color-scheme: dark)")
      expect(page).toContain("color-scheme: light;")
      expect(page).toContain("color-scheme: dark;")
      expect(page).toContain(`<meta name="color-scheme" content="light dark"`)
    }
  })

  it("uses only the dark colours for colorScheme dark", () => {
    const { html: page } = signIn({ theme: { colorScheme: "dark" } })
    expect(page).not.toContain("prefers-color-scheme")
    expect(page).toContain("color-scheme: dark;")
    expect(page).not.toContain("color-scheme: light;")
    expect(page).toContain("--bg: #09090b;")
    expect(page).not.toContain("--bg: #f4f4f5;")
    expect(page).toContain(`<meta name="color-scheme" content="dark"`)
  })

  it("uses only the light colours for colorScheme light", () => {
    const { html: page } = signIn({ theme: { colorScheme: "light" } })
    expect(page).not.toContain("prefers-color-scheme")
    expect(page).toContain("color-scheme: light;")
    expect(page).not.toContain("color-scheme: dark;")
    expect(page).toContain("--bg: #f4f4f5;")
    expect(page).not.toContain("--bg: #09090b;")
  })

  it.each([
    "#f60",
    "#FF6600",
    "#ff660080",
    "rgb(255, 102, 0)",
    "rgba(255,102,0,0.5)",
    "hsl(24, 100%, 50%)",
    "hsla(24, 100%, 50%, .5)",
    "rebeccapurple",
  ])("uses the valid brandColor %s", (brandColor) => {
    const { html: page } = signIn({ theme: { brandColor } })
    expect(page).toContain(`--brand: ${brandColor};`)
  })

  it.each([
    XSS,
    "red; } body { display: none",
    "red</style><script>alert(1)</script>",
    "url(https://evil.example/x.png)",
    "expression(alert(1))",
    "var(--x)",
    "#12345",
    "rgb(1,2,3); color: red",
    "inherit",
    "",
  ])("ignores the invalid brandColor and buttonText %j", (value) => {
    const { html: page } = signIn({ theme: { brandColor: value, buttonText: value } })
    expect(page).toContain(`--brand: ${DEFAULT_BRAND};`)
    expect(page).toContain(`--brand-text: #ffffff;`)
    expect(page).not.toContain("<script")
    expect(page).not.toContain("display: none")
    expect(page).not.toContain("evil.example")
  })

  it("escapes a valid logo URL that contains markup", () => {
    const { html: page } = signIn({ theme: { logo: `https://example.com/${XSS}` } })
    expect(page).toContain(`src="https://example.com/${XSS_ESCAPED}"`)
    expect(page).not.toContain("<script")
  })

  it("uses a valid buttonText and picks a readable one for light brand colours", () => {
    expect(signIn({ theme: { brandColor: "#000", buttonText: "yellow" } }).html).toContain(
      "--brand-text: yellow;",
    )
    expect(signIn({ theme: { brandColor: "#facc15" } }).html).toContain("--brand-text: #18181b;")
    expect(signIn({ theme: { brandColor: "rgb(250, 250, 250)" } }).html).toContain(
      "--brand-text: #18181b;",
    )
    expect(signIn({ theme: { brandColor: "#1e3a8a" } }).html).toContain("--brand-text: #ffffff;")
    expect(signIn({ theme: { brandColor: "rgb(14, 165, 233)" } }).html).toContain(
      "--brand-text: #18181b;",
    )
    expect(signIn({ theme: { brandColor: "red" } }).html).toContain("--brand-text: #ffffff;")
  })

  it.each(["https://cdn.example.com/logo.png?v=1", "http://example.com/logo.svg", "/logo.svg"])(
    "shows the valid logo %s",
    (logo) => {
      const { html: page } = signIn({ theme: { logo } })
      const img = page.match(/<img\b[^>]*>/)?.[0]
      expect(img).toContain(`src="${logo.replace("=", "&#61;")}"`)
      expect(img).toMatch(/alt="[^"]+"/)
      expect(page.indexOf("<img")).toBeLessThan(page.indexOf("<main>"))
    },
  )

  it.each([
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "data:image/svg+xml,<svg onload=alert(1)>",
    "//evil.example/logo.png",
    "/\\evil.example/logo.png",
    "logo.png",
    "ftp://example.com/logo.png",
    "",
  ])("ignores the invalid logo %j", (logo) => {
    const { html: page } = signIn({ theme: { logo } })
    expect(page).not.toContain("<img")
    expect(page).not.toContain("<script")
  })
})

describe("sign-in page", () => {
  it("renders one form per provider with the right action, hidden fields and button", () => {
    const { status, html: page } = signIn()
    expect(status).toBe(200)
    const all = forms(page)
    expect(all).toHaveLength(4)
    const [creds, gh, go, mail] = all as [string, string, string, string]
    expect(creds).toMatch(/<form method="post" action="\/auth\/callback\/password">/)
    expect(gh).toMatch(/<form method="post" action="\/auth\/signin\/github">/)
    expect(go).toMatch(/<form method="post" action="\/auth\/signin\/google">/)
    expect(mail).toMatch(/<form method="post" action="\/auth\/signin\/resend">/)
    for (const form of all) {
      expect(input(form, "csrfToken")).toMatch(/type="hidden"/)
      expect(input(form, "csrfToken")).toContain(`value="csrf-123"`)
      expect(input(form, "callbackUrl")).toContain(`value="https://app.example.com/dashboard"`)
    }
    expect(creds).toMatch(/<button type="submit"[^>]*>Sign in with Password<\/button>/)
    expect(gh).toMatch(/<button type="submit"[^>]*>Sign in with GitHub<\/button>/)
    expect(go).toMatch(/<button type="submit"[^>]*>Sign in with Google<\/button>/)
    expect(mail).toMatch(/<button type="submit"[^>]*>Sign in with Email<\/button>/)
  })

  it("renders a webauthn provider as a form that its script shows, with a script nonce", () => {
    const passkey: PageProvider = {
      ...github,
      id: "passkey",
      name: "Passkey",
      type: "webauthn",
      signinUrl: "/auth/signin/passkey",
      callbackUrl: "/auth/callback/passkey",
      optionsUrl: "/auth/webauthn-options/passkey",
      conditionalUI: true,
      credentials: { email: { type: "email", required: true, autocomplete: "username webauthn" } },
    }
    const page = signIn({ providers: [passkey] })
    const [form = ""] = forms(page.html)
    expect(form).toContain(`action="/auth/callback/passkey"`)
    expect(form).toContain(`data-options-url="/auth/webauthn-options/passkey"`)
    expect(form).toContain(`data-conditional="true"`)
    expect(form).toMatch(/<form[^>]*\bhidden\b/)
    expect(form).toContain("Sign in with Passkey")
    // The email is optional for a passkey: without it, the browser offers its passkeys.
    expect(input(form, "email")).not.toMatch(/\brequired\b/)
    expect(page.scriptNonce).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(page.html).toContain(`<script nonce="${page.scriptNonce}">`)
    expect(signIn().scriptNonce).toBeUndefined()
    expect(signIn().html).not.toContain("<script")
  })

  it("asks nothing for a passkey sign-in: passkeys autofill in the username field instead", () => {
    const passkey: PageProvider = {
      ...github,
      id: "passkey",
      name: "Passkey",
      type: "webauthn",
      signinUrl: "/auth/signin/passkey",
      callbackUrl: "/auth/callback/passkey",
      optionsUrl: "/auth/webauthn-options/passkey",
      conditionalUI: true,
      credentials: { email: { type: "email", required: true, autocomplete: "username webauthn" } },
    }
    const page = signIn({ providers: [credentials, passkey] })
    const [password = "", passkeyForm = ""] = forms(page.html)
    expect(passkeyForm).toContain("Sign in with Passkey")
    expect(passkeyForm).not.toMatch(/<input\b[^>]*\btype="email"/)
    expect(passkeyForm).not.toMatch(/<label/)
    expect(text(passkeyForm)).toContain("Pick a passkey you have for this site.")
    // The browser offers the site's passkeys in the credentials form's username field.
    expect(input(password, "username")).toContain(`autocomplete="username webauthn"`)
    expect(input(password, "password")).toContain(`autocomplete="current-password"`)

    // An app that lets anonymous visitors register a passkey (its own getUserInfo) asks who.
    const registering = signIn({ providers: [credentials, { ...passkey, registers: true }] })
    const [, registerForm = ""] = forms(registering.html)
    expect(input(registerForm, "email")).toContain(`type="email"`)
    expect(text(registerForm)).not.toContain("Pick a passkey you have for this site.")

    // Without autofill, the username field is only a username field.
    const plain = signIn({ providers: [credentials, { ...passkey, conditionalUI: false }] })
    expect(input(forms(plain.html)[0] ?? "", "username")).toContain(`autocomplete="username"`)
  })

  it("renders the credentials fields with labels, types and autocomplete", () => {
    const [form = ""] = forms(signIn().html)
    const username = input(form, "username")
    expect(username).toContain(`type="text"`)
    expect(username).toContain(`autocomplete="username"`)
    expect(username).not.toContain("required")
    const password = input(form, "password")
    expect(password).toContain(`type="password"`)
    expect(password).toContain(`autocomplete="current-password"`)
    expect(password).toMatch(/\brequired\b/)
    const otp = input(form, "otp")
    expect(otp).toContain(`type="text"`)
    expect(otp).toContain(`placeholder="123456"`)
    expect(otp).toContain(`autocomplete="one-time-code"`)
    expect(otp).toContain(`inputmode="numeric"`)
    expect(otp).toContain(`pattern="[0-9]{6}"`)
    expect(otp).not.toContain("onfocus")
    for (const [name, label] of [
      ["username", "Username"],
      ["password", "Your password"],
      ["otp", "One-time code"],
    ] as const) {
      const id = input(form, name).match(/\bid="([^"]+)"/)?.[1]
      expect(id).toBeTruthy()
      expect(form).toContain(`<label for="${id}">${label}</label>`)
    }
  })

  it("defaults autocomplete to username for an email field", () => {
    const provider = { ...credentials, credentials: { email: { type: "email" } } }
    const field = input(signIn({ providers: [provider] }).html, "email")
    expect(field).toContain(`type="email"`)
    expect(field).toContain(`autocomplete="username"`)
    expect(signIn({ providers: [provider] }).html).toMatch(/<label for="[^"]+">Email<\/label>/)
  })

  it("renders the email form with a labelled, prefilled, required email input", () => {
    const { html: page } = signIn({ providers: [email], email: "ada@example.com" })
    const field = input(page, "email")
    expect(field).toContain(`type="email"`)
    expect(field).toContain(`autocomplete="email"`)
    expect(field).toMatch(/\brequired\b/)
    expect(field).toContain(`value="ada@example.com"`)
    const id = field.match(/\bid="([^"]+)"/)?.[1]
    expect(page).toContain(`<label for="${id}">Email</label>`)
  })

  it("puts a divider between sections but keeps button providers together", () => {
    const dividers = (page: string) => page.match(/class="divider"/g)?.length ?? 0
    expect(dividers(signIn().html)).toBe(2)
    expect(dividers(signIn({ providers: [github, google] }).html)).toBe(0)
    expect(dividers(signIn({ providers: [github, credentials, google] }).html)).toBe(2)
    expect(dividers(signIn({ providers: [email] }).html)).toBe(0)
    expect(signIn().html).toMatch(/<div class="divider"><span>or<\/span><\/div>/)
  })

  it("says so when no provider is configured", () => {
    const { status, html: page } = signIn({ providers: [] })
    expect(status).toBe(200)
    expect(page).toContain("No sign-in method is configured.")
    expect(page).not.toContain("<form")
  })

  it("escapes every interpolated value", () => {
    const evil: PageProvider = {
      id: XSS,
      name: XSS,
      type: "oauth",
      signinUrl: `/auth/signin/${XSS}`,
      callbackUrl: `/auth/callback/${XSS}`,
    }
    const evilCredentials: PageProvider = {
      ...evil,
      type: "credentials",
      credentials: {
        [XSS]: { label: XSS, type: XSS, placeholder: XSS, autocomplete: XSS, pattern: XSS },
      },
    }
    const { html: page } = signIn({
      providers: [evil, evilCredentials, { ...email, name: XSS }],
      csrfToken: XSS,
      callbackUrl: XSS,
      email: XSS,
      error: XSS,
      code: XSS,
      theme: { brandColor: XSS, buttonText: XSS, logo: XSS },
    })
    expect(page).not.toContain("<script")
    expect(page).toContain(`Sign in with ${XSS_ESCAPED}`)
    expect(page).toContain(`name="csrfToken" value="${XSS_ESCAPED}"`)
    expect(page).toContain(`name="callbackUrl" value="${XSS_ESCAPED}"`)
    expect(input(page, "email")).toContain(`value="${XSS_ESCAPED}"`)
    expect(page).toContain(`action="/auth/signin/${XSS_ESCAPED}"`)
    expect(page).toContain(`action="/auth/callback/${XSS_ESCAPED}"`)
    expect(page).toContain(`>${XSS_ESCAPED}</label>`)
    expect(page).toContain(`name="${XSS_ESCAPED}"`)
    expect(page).toContain(`placeholder="${XSS_ESCAPED}"`)
  })

  it("keeps javascript: URLs out of form actions", () => {
    const provider = { ...github, signinUrl: "javascript:alert(1)" }
    const tricky = { ...google, signinUrl: "java\tscript:alert(1)" }
    const { html: page } = signIn({ providers: [provider, tricky] })
    expect(page).not.toMatch(/java\s*script:/i)
    expect(page).toContain(`action="#"`)
  })

  it("shows no alert without an error", () => {
    expect(alertText(signIn().html)).toBeUndefined()
    expect(alertText(signIn({ error: "" }).html)).toBeUndefined()
  })

  it.each([
    ["Signin", "Try signing in with a different account."],
    ["OAuthSignin", "Try signing in with a different account."],
    ["OAuthCallbackError", "Try signing in with a different account."],
    ["OAuthCreateAccount", "Try signing in with a different account."],
    ["EmailCreateAccount", "Try signing in with a different account."],
    ["Callback", "Try signing in with a different account."],
    [
      "OAuthAccountNotLinked",
      "To confirm your identity, sign in with the same account you used originally.",
    ],
    ["AccountNotLinked", "You are signed in as another user. Sign out first"],
    ["EmailSignin", "The email could not be sent."],
    ["CredentialsSignin", "Sign in failed. Check the details you provided are correct."],
    ["SessionRequired", "Please sign in to access this page."],
    ["MissingCSRF", "The form expired. Please try again."],
  ])("shows the message for error=%s", (error, message) => {
    const text = alertText(signIn({ error }).html)
    expect(text).toContain(message)
    expect(text).not.toContain(error)
  })

  it.each(["SomethingElse", "toString", "constructor", "__proto__", "hasOwnProperty", XSS])(
    "shows a generic message and does not echo the unknown error %j",
    (error) => {
      const { html: page } = signIn({ error })
      const text = alertText(page)
      expect(text).toContain("Unable to sign in.")
      expect(page).not.toContain(error)
      expect(page).not.toContain(XSS_ESCAPED)
    },
  )

  it("shows a safe code", () => {
    const text = alertText(signIn({ error: "CredentialsSignin", code: "invalid_otp-2" }).html)
    expect(text).toContain("Sign in failed.")
    expect(text).toMatch(/Code: <code>invalid_otp-2<\/code>/)
    const longest = "a".repeat(64)
    expect(alertText(signIn({ error: "CredentialsSignin", code: longest }).html)).toContain(longest)
  })

  it("says that only allowed security keys register when an attestation policy refused one", () => {
    const refused = alertText(
      signIn({ error: "WebAuthnVerificationError", code: "attestation" }).html,
    )
    expect(refused).toContain("accepts passkeys only on the security keys it allows")
    expect(refused).toMatch(/Code: <code>attestation<\/code>/)
    // Other passkey failures keep the general message; the code is only looked up for its error.
    const other = alertText(signIn({ error: "WebAuthnVerificationError", code: "counter" }).html)
    expect(other).toContain("Signing in with the passkey failed.")
    const elsewhere = alertText(signIn({ error: "CredentialsSignin", code: "attestation" }).html)
    expect(elsewhere).toContain("Sign in failed.")
  })

  it.each(["a b", "a.b", "ä", "<b>", "a".repeat(65), XSS, ""])(
    "does not show the unsafe code %j",
    (code) => {
      const { html: page } = signIn({ error: "CredentialsSignin", code })
      expect(alertText(page)).toContain("Sign in failed.")
      expect(page).not.toContain("Code:")
    },
  )
})

describe("sign-out page", () => {
  it("asks for confirmation and posts to the action with the hidden fields", () => {
    const { status, html: page } = renderSignOutPage({
      theme: {},
      csrfToken: "csrf-1",
      action: "/auth/signout",
      callbackUrl: "/bye",
    })
    expect(status).toBe(200)
    expect(page).toContain("Are you sure you want to sign out?")
    expect(page).toMatch(/<title>Sign out<\/title>/)
    const [form = ""] = forms(page)
    expect(form).toMatch(/<form method="post" action="\/auth\/signout">/)
    expect(input(form, "csrfToken")).toContain(`value="csrf-1"`)
    expect(input(form, "callbackUrl")).toContain(`value="/bye"`)
    expect(form).toMatch(/<button type="submit"[^>]*>Sign out<\/button>/)
  })

  it("escapes every interpolated value", () => {
    const { html: page } = renderSignOutPage({
      theme: { logo: XSS, brandColor: XSS },
      csrfToken: XSS,
      action: `/auth/${XSS}`,
      callbackUrl: XSS,
    })
    expect(page).not.toContain("<script")
    expect(page).toContain(`action="/auth/${XSS_ESCAPED}"`)
    expect(page).toContain(`name="csrfToken" value="${XSS_ESCAPED}"`)
    expect(page).toContain(`name="callbackUrl" value="${XSS_ESCAPED}"`)
  })
})

describe("error page", () => {
  const render = (error?: string) =>
    renderErrorPage({
      theme: {},
      error,
      signinUrl: "/auth/signin",
      homeUrl: "https://app.example.com",
    })

  it.each([
    [
      "Configuration",
      500,
      "Server error",
      "There is a problem with the server configuration.",
      "This is not something you did.",
    ],
    [
      "AccessDenied",
      403,
      "Access denied",
      "You do not have permission to sign in.",
      "Try signing in another way or with another account.",
    ],
    [
      "Verification",
      403,
      "Unable to sign in",
      "The sign in link is no longer valid.",
      "Ask for a new one on the sign-in page.",
    ],
    ["Default", 200, "Error", "Something went wrong.", "Try again from the sign-in page"],
    ["Unknown", 200, "Error", "Something went wrong.", "Try again from the sign-in page"],
    ["constructor", 200, "Error", "Something went wrong.", "Try again from the sign-in page"],
    ["__proto__", 200, "Error", "Something went wrong.", "Try again from the sign-in page"],
    [undefined, 200, "Error", "Something went wrong.", "Try again from the sign-in page"],
  ])("renders error=%s with status %i", (error, status, heading, message, advice) => {
    const page = render(error)
    expect(page.status).toBe(status)
    expect(page.html).toContain(`<h1>${heading}</h1>`)
    expect(page.html).toContain(message)
    expect(page.html).toContain(advice)
    expect(page.html).toMatch(/<a href="https:\/\/app\.example\.com">[^<]+<\/a>/)
  })

  it("says something different for each error it knows", () => {
    const words = ["Configuration", "AccessDenied", "Verification", "Default"].map((error) => {
      const page = render(error).html
      return /<p class="advice">([^<]*)<\/p>/.exec(page)?.[1]
    })
    expect(new Set(words).size).toBe(words.length)
  })

  it("offers signing in again but for a server error", () => {
    const button = /<a class="button primary" href="\/auth\/signin">Sign in<\/a>/
    expect(render("Verification").html).toMatch(button)
    expect(render("AccessDenied").html).toMatch(button)
    expect(render().html).toMatch(button)
    expect(render("Configuration").html).not.toContain(`href="/auth/signin"`)
  })

  it("does not echo the error and escapes the URLs", () => {
    const page = renderErrorPage({
      theme: { logo: XSS },
      error: `${XSS}<b>boom</b>`,
      signinUrl: `/auth/${XSS}`,
      homeUrl: `https://app.example.com/${XSS}`,
    }).html
    expect(page).not.toContain("<script")
    expect(page).not.toContain("boom")
    expect(page).toContain(`href="https://app.example.com/${XSS_ESCAPED}"`)
  })

  it("keeps javascript: URLs out of links", () => {
    const page = renderErrorPage({
      theme: {},
      error: "Verification",
      signinUrl: "javascript:alert(1)",
      homeUrl: " javascript:alert(2)",
    }).html
    expect(page).not.toContain("javascript:")
  })
})

describe("verify-request page", () => {
  it("tells the user to check their email and links home", () => {
    const { status, html: rendered } = renderVerifyRequestPage({
      theme: {},
      homeUrl: "https://app.example.com",
      emailHost: "example.com",
    })
    const page = text(rendered)
    expect(status).toBe(200)
    expect(page).toContain("<h1>Check your email</h1>")
    expect(page).toMatch(
      /A sign in link has been sent to your email address at <strong>example\.com<\/strong>\./,
    )
    expect(page).toMatch(/spam/)
    expect(page).toMatch(/expire/)
    expect(page).toMatch(/<a href="https:\/\/app\.example\.com">/)
  })

  it("links to the mailbox with the provider's inboxUrl, and to nowhere unsafe", () => {
    const page = text(
      renderVerifyRequestPage({ theme: {}, homeUrl: "/", inboxUrl: "/dev/mailbox" }).html,
    )
    expect(page).toMatch(/<a href="\/dev\/mailbox">Open your mailbox<\/a>/)
    const none = renderVerifyRequestPage({ theme: {}, homeUrl: "/" }).html
    expect(none).not.toContain("Open your mailbox")
    const evil = renderVerifyRequestPage({
      theme: {},
      homeUrl: "/",
      inboxUrl: "javascript:alert(1)",
    }).html
    expect(evil).not.toContain("javascript:")
  })

  it("says when a rate limit stopped the mail, for the address or the network", () => {
    const limited = (code: string, limitMinutes?: number) =>
      text(
        renderVerifyRequestPage({
          theme: {},
          homeUrl: "/",
          emailHost: "example.com",
          error: "EmailRateLimited",
          code,
          ...(limitMinutes !== undefined && { limitMinutes }),
        }).html,
      )
    const address = limited("address", 10)
    expect(address).toContain('role="alert"')
    expect(address).toContain(
      "Too many sign-in links were requested for this address, so no new email was sent. Try again in 10 minutes.",
    )
    expect(address).not.toContain("A sign in link has been sent")
    expect(limited("client", 1)).toContain(
      "Too many sign-in links were requested from your network, so no new email was sent. Try again in 1 minute.",
    )
    expect(limited("address")).toContain("Try again later.")
    // A password account's mail has no such error: its page stays as it is.
    const signup = text(
      renderVerifyRequestPage({
        theme: {},
        homeUrl: "/",
        type: "signup",
        error: "EmailRateLimited",
        code: "address",
      }).html,
    )
    expect(signup).not.toContain("Too many")
  })

  it("leaves out the host when there is none and escapes it when there is", () => {
    const none = text(renderVerifyRequestPage({ theme: {}, homeUrl: "/" }).html)
    expect(none).toContain("A sign in link has been sent to your email address.")
    const evil = renderVerifyRequestPage({ theme: {}, homeUrl: "/", emailHost: XSS }).html
    expect(evil).not.toContain("<script")
    expect(evil).toContain(`at <strong>${XSS_ESCAPED}</strong>`)
  })
})
