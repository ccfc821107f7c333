import { describe, expect, it } from "vitest"

import {
  passwordErrorMessage,
  renderChangePasswordPage,
  renderNewPasswordPage,
  renderResetRequestPage,
  renderSignInPage,
  renderSignUpPage,
  renderVerifyRequestPage,
  type PageProvider,
} from "../../src/pages/index.js"
import { renderPasswordEmail, type PasswordEmailKind } from "../../src/pages/password-email.js"

const XSS = `"><script>alert(1)</script>`
const XSS_ESCAPED = "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"

/** The `<form …>…</form>` elements of a page. */
function forms(page: string): string[] {
  return page.match(/<form\b[\s\S]*?<\/form>/g) ?? []
}

/** The first `<input>` with `name="…"`. */
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
  return page.match(/<div class="alert" role="alert">([\s\S]*?)<\/div>/)?.[1]?.replace(/\s+/g, " ")
}

/** Every input of a form has a label that points at it. */
function expectLabelled(form: string) {
  for (const tag of form.match(/<input\b[^>]*>/g) ?? []) {
    if (/type="hidden"/.test(tag)) continue
    const id = tag.match(/\bid="([^"]+)"/)?.[1]
    expect(id, tag).toBeDefined()
    expect(form).toContain(`<label for="${id}">`)
  }
}

const signUp = (overrides: Partial<Parameters<typeof renderSignUpPage>[0]> = {}) =>
  renderSignUpPage({
    theme: {},
    csrfToken: "csrf-1",
    action: "/auth/signup/password",
    callbackUrl: "/dashboard",
    signInUrl: "/auth/signin",
    minLength: 12,
    maxLength: 128,
    ...overrides,
  })

const resetRequest = (overrides: Partial<Parameters<typeof renderResetRequestPage>[0]> = {}) =>
  renderResetRequestPage({
    theme: {},
    csrfToken: "csrf-2",
    action: "/auth/reset-password/password",
    callbackUrl: "/after-reset",
    signInUrl: "/auth/signin",
    ...overrides,
  })

const newPassword = (overrides: Partial<Parameters<typeof renderNewPasswordPage>[0]> = {}) =>
  renderNewPasswordPage({
    theme: {},
    csrfToken: "csrf-3",
    action: "/auth/new-password/password",
    token: "tok-123",
    minLength: 8,
    maxLength: 256,
    ...overrides,
  })

const changePassword = (overrides: Partial<Parameters<typeof renderChangePasswordPage>[0]> = {}) =>
  renderChangePasswordPage({
    theme: {},
    csrfToken: "csrf-4",
    action: "/auth/change-password/password",
    callbackUrl: "/settings",
    minLength: 10,
    maxLength: 64,
    ...overrides,
  })

describe("sign-up page", () => {
  it("posts the fields to the action, with the hidden fields", () => {
    const { status, html: page } = signUp({ email: "ada@example.com" })
    expect(status).toBe(200)
    expect(page).toMatch(/<title>Create an account<\/title>/)
    expect(page).not.toMatch(/<script/i)
    const [form = "", ...others] = forms(page)
    expect(others).toHaveLength(0)
    expect(form).toMatch(/<form method="post" action="\/auth\/signup\/password">/)
    expect(input(form, "csrfToken")).toMatch(/type="hidden"[^>]*value="csrf-1"/)
    expect(input(form, "callbackUrl")).toMatch(/type="hidden"[^>]*value="\/dashboard"/)
    const name = input(form, "name")
    expect(name).toContain(`autocomplete="name"`)
    expect(name).not.toContain("required")
    const email = input(form, "email")
    expect(email).toContain(`type="email"`)
    expect(email).toContain(`autocomplete="username"`)
    expect(email).toContain("required")
    expect(email).toContain(`value="ada@example.com"`)
    const password = input(form, "password")
    expect(password).toContain(`type="password"`)
    expect(password).toContain(`autocomplete="new-password"`)
    expect(password).toContain("required")
    expect(password).toContain(`minlength="12"`)
    // No maxlength: browsers count UTF-16 units, the policy user-perceived characters.
    expect(password).not.toContain("maxlength")
    expect(password).toContain(`aria-describedby="latch-password-hint"`)
    expect(form).toContain(`id="latch-password-hint">At least 12 characters.</p>`)
    expect(form).toMatch(/<button type="submit" class="button primary">Create account<\/button>/)
    expectLabelled(form)
    expect(text(page)).toContain(`<a href="/auth/signin">Already have an account? Sign in</a>`)
    expect(alertText(page)).toBeUndefined()
  })

  it("leaves out the callbackUrl field when there is none", () => {
    const page = signUp({ callbackUrl: undefined }).html
    expect(page).not.toContain(`name="callbackUrl"`)
    expect(input(page, "email")).toContain(`value=""`)
  })

  it("shows the message for the code above the form, with the policy's bounds", () => {
    const page = signUp({ error: "PasswordError", code: "password_too_short" }).html
    expect(alertText(page)).toContain("Use at least 12 characters.")
    expect(alertText(page)).toContain("Code: <code>password_too_short</code>")
    expect(page.indexOf(`role="alert"`)).toBeLessThan(page.indexOf("<form"))
    expect(alertText(signUp({ code: "password_too_long" }).html)).toContain(
      "Use at most 128 characters.",
    )
  })

  it("escapes every interpolated value", () => {
    const page = signUp({
      csrfToken: XSS,
      action: `/auth/signup/${XSS}`,
      callbackUrl: XSS,
      email: XSS,
      code: XSS,
      error: XSS,
      signInUrl: `/auth/${XSS}`,
      theme: { brandColor: XSS, logo: XSS },
    }).html
    expect(page).not.toContain("<script")
    expect(page).toContain(`action="/auth/signup/${XSS_ESCAPED}"`)
    expect(input(page, "csrfToken")).toContain(`value="${XSS_ESCAPED}"`)
    expect(input(page, "callbackUrl")).toContain(`value="${XSS_ESCAPED}"`)
    expect(input(page, "email")).toContain(`value="${XSS_ESCAPED}"`)
    expect(page).toContain(`href="/auth/${XSS_ESCAPED}"`)
    // An unknown code gets the generic message and is not shown at all.
    expect(alertText(page)).toContain("Something went wrong.")
    expect(page).not.toContain("Code:")
    expect(alertText(page)).not.toContain(XSS_ESCAPED)
  })

  it("keeps javascript: URLs out of the action and the links", () => {
    const page = signUp({ action: "javascript:alert(1)", signInUrl: "java\tscript:alert(2)" }).html
    expect(page).not.toMatch(/java\s*script:/i)
    expect(page).toContain(`action="#"`)
  })

  it("bounds the password only with whole positive numbers", () => {
    const password = input(signUp({ minLength: Number.NaN, maxLength: -1 }).html, "password")
    expect(password).not.toMatch(/minlength|maxlength|aria-describedby/)
  })
})

describe("reset-request page", () => {
  it("asks for the address and posts it to the action", () => {
    const { status, html: page } = resetRequest({ email: "ada@example.com" })
    expect(status).toBe(200)
    expect(page).toMatch(/<title>Forgot your password\?<\/title>/)
    expect(page).toContain("<h1>Forgot your password?</h1>")
    const [form = ""] = forms(page)
    expect(form).toMatch(/<form method="post" action="\/auth\/reset-password\/password">/)
    expect(input(form, "csrfToken")).toContain(`value="csrf-2"`)
    expect(input(form, "callbackUrl")).toContain(`value="/after-reset"`)
    const email = input(form, "email")
    expect(email).toContain(`type="email"`)
    expect(email).toContain(`autocomplete="username"`)
    expect(email).toContain("required")
    expect(email).toContain(`value="ada@example.com"`)
    expect(form).not.toContain(`name="password"`)
    expect(form).toMatch(/<button type="submit" class="button primary">Send reset link<\/button>/)
    expectLabelled(form)
    expect(page).toContain(`<a href="/auth/signin">Back to sign in</a>`)
  })

  it("shows the message for invalid_email and escapes every value", () => {
    expect(alertText(resetRequest({ code: "invalid_email" }).html)).toContain(
      "Enter one email address",
    )
    const page = resetRequest({
      csrfToken: XSS,
      callbackUrl: XSS,
      email: XSS,
      code: XSS,
      signInUrl: XSS,
    }).html
    expect(page).not.toContain("<script")
    expect(input(page, "email")).toContain(`value="${XSS_ESCAPED}"`)
    expect(input(page, "callbackUrl")).toContain(`value="${XSS_ESCAPED}"`)
    expect(alertText(page)).toContain("Something went wrong.")
  })
})

describe("new-password page", () => {
  it("posts the token and the new password to the action", () => {
    const { status, html: page } = newPassword()
    expect(status).toBe(200)
    expect(page).toContain("<h1>Choose a new password</h1>")
    const [form = ""] = forms(page)
    expect(form).toMatch(/<form method="post" action="\/auth\/new-password\/password">/)
    expect(input(form, "csrfToken")).toContain(`value="csrf-3"`)
    expect(input(form, "token")).toMatch(/type="hidden"[^>]*value="tok-123"/)
    const password = input(form, "password")
    expect(password).toContain(`autocomplete="new-password"`)
    expect(password).toContain(`minlength="8"`)
    expect(password).not.toContain("maxlength")
    expect(form).not.toContain(`name="email"`)
    expect(form).toMatch(/<button type="submit" class="button primary">Set password<\/button>/)
    expectLabelled(form)
  })

  it.each([
    ["password_breached", "This password has appeared in a data breach: choose another"],
    ["password_too_short", "Use at least 8 characters"],
    ["rate_limited", "Too many attempts: wait a few minutes and try again"],
  ])("shows the message for %s", (code, message) => {
    expect(alertText(newPassword({ error: "PasswordError", code }).html)).toContain(message)
  })

  it("escapes the token", () => {
    const page = newPassword({ token: XSS, code: XSS }).html
    expect(page).not.toContain("<script")
    expect(input(page, "token")).toContain(`value="${XSS_ESCAPED}"`)
  })
})

describe("change-password page", () => {
  it("asks for the current and a new password", () => {
    const { status, html: page } = changePassword()
    expect(status).toBe(200)
    expect(page).toContain("<h1>Change your password</h1>")
    expect(text(page)).not.toContain("other devices")
    const database = changePassword({ signsOutOthers: true })
    expect(text(database.html)).toContain("your other devices will be signed out")
    const [form = ""] = forms(page)
    expect(form).toMatch(/<form method="post" action="\/auth\/change-password\/password">/)
    expect(input(form, "csrfToken")).toContain(`value="csrf-4"`)
    expect(input(form, "callbackUrl")).toMatch(/type="hidden"[^>]*value="\/settings"/)
    const current = input(form, "currentPassword")
    expect(current).toContain(`type="password"`)
    expect(current).toContain(`autocomplete="current-password"`)
    expect(current).toContain("required")
    const password = input(form, "password")
    expect(password).toContain(`autocomplete="new-password"`)
    expect(password).toContain(`minlength="10"`)
    expect(password).not.toContain("maxlength")
    expect(form).toMatch(/<button type="submit" class="button primary">Change password<\/button>/)
    expectLabelled(form)
    expect(page).toContain(`<a href="/settings">Cancel</a>`)
  })

  it.each([
    ["wrong_password", "The current password is not right"],
    ["signed_out", "sign in again"],
    ["password_like_identifier", "your email address or name"],
  ])("shows the message for %s", (code, message) => {
    expect(alertText(changePassword({ code }).html)).toContain(message)
  })

  it("escapes every value and keeps javascript: out of the cancel link", () => {
    const page = changePassword({ csrfToken: XSS, callbackUrl: XSS, code: XSS }).html
    expect(page).not.toContain("<script")
    expect(input(page, "callbackUrl")).toContain(`value="${XSS_ESCAPED}"`)
    const js = changePassword({ callbackUrl: "javascript:alert(1)" }).html
    expect(js).not.toContain(`href="javascript:`)
  })
})

describe("passwordErrorMessage", () => {
  it.each([
    ["password_too_short", "Use a longer password."],
    ["password_too_long", "Use a shorter password."],
    ["password_control_characters", "control characters"],
    ["password_like_identifier", "your email address or name"],
    ["password_breached", "This password has appeared in a data breach: choose another"],
    ["invalid_email", "Enter one email address"],
    ["wrong_password", "The current password is not right"],
    ["no_password", "no password yet"],
    ["rate_limited", "Too many attempts: wait a few minutes and try again"],
    ["signed_out", "You are signed out"],
    ["mail_failed", "The email could not be sent"],
    ["sign_up_closed", "New accounts cannot be created here"],
    ["unverified", "Confirm your address first: follow the link we mailed you"],
    ["last_method", "only way to sign in"],
    ["not_found", "not on your account"],
    ["credentials", "Sign in failed"],
  ])("has a message for %s", (code, message) => {
    const said = passwordErrorMessage(code)
    expect(said).toContain(message)
    expect(said).not.toContain(code)
  })

  it("names the policy's bounds when it knows them", () => {
    expect(passwordErrorMessage("password_too_short", { minLength: 8 })).toBe(
      "Use at least 8 characters.",
    )
    expect(passwordErrorMessage("password_too_long", { maxLength: 64 })).toBe(
      "Use at most 64 characters.",
    )
    expect(passwordErrorMessage("password_too_short", { minLength: 0 })).toBe(
      "Use a longer password.",
    )
  })

  it.each(["whatever", "toString", "constructor", "__proto__", XSS])(
    "says something generic for the unknown code %j",
    (code) => {
      expect(passwordErrorMessage(code)).toBe("Something went wrong. Please try again.")
    },
  )

  it("says nothing without a code", () => {
    expect(passwordErrorMessage(undefined)).toBeUndefined()
    expect(passwordErrorMessage("")).toBeUndefined()
  })

  it("explains an error that has no code", () => {
    expect(alertText(signUp({ error: "MissingCSRF" }).html)).toContain("The form expired.")
    const unknown = signUp({ error: "Nonsense" }).html
    expect(alertText(unknown)).toContain("Something went wrong.")
    expect(unknown).not.toContain("Nonsense")
  })
})

describe("sign-in page with a Password provider", () => {
  const password: PageProvider = {
    id: "password",
    name: "Password",
    type: "credentials",
    signinUrl: "/auth/signin/password",
    callbackUrl: "/auth/callback/password",
    credentials: {
      email: { label: "Email", type: "email" },
      password: { label: "Password", type: "password" },
    },
    passwordLinks: { signUp: "/auth/signup", resetPassword: "/auth/reset-password" },
  }
  const signIn = (providers: PageProvider[], error?: string, code?: string) =>
    renderSignInPage({ theme: {}, csrfToken: "c", callbackUrl: "/", providers, error, code }).html

  it("links to the reset and sign-up pages under the provider's form", () => {
    const page = signIn([password])
    const reset = page.indexOf(`<a href="/auth/reset-password">Forgot your password?</a>`)
    const create = page.indexOf(`<a href="/auth/signup">Create an account</a>`)
    expect(reset).toBeGreaterThan(page.indexOf("</form>"))
    expect(create).toBeGreaterThan(reset)
  })

  it("does not link them for a provider without passwordLinks", () => {
    const { passwordLinks: _, ...plain } = password
    const page = signIn([plain])
    expect(page).not.toContain("Forgot your password?")
    expect(page).not.toContain("Create an account")
  })

  it("escapes the links and keeps javascript: out", () => {
    const page = signIn([
      {
        ...password,
        passwordLinks: { signUp: `/auth/${XSS}`, resetPassword: "javascript:alert(1)" },
      },
    ])
    expect(page).not.toContain("<script")
    expect(page).toContain(`href="/auth/${XSS_ESCAPED}"`)
    expect(page).not.toContain("javascript:")
  })

  it.each([
    ["unverified", "Confirm your address first: follow the link we mailed you"],
    ["rate_limited", "Too many attempts: wait a few minutes and try again"],
    ["credentials", "Sign in failed. Check the details you provided are correct."],
  ])("shows the message for code=%s", (code, message) => {
    const alert = alertText(signIn([password], "CredentialsSignin", code))
    expect(alert).toContain(message)
    expect(alert).toContain(`Code: <code>${code}</code>`)
  })

  it("keeps the error's own message for those codes with another error", () => {
    expect(alertText(signIn([password], "SessionRequired", "unverified"))).toContain(
      "Please sign in to access this page.",
    )
  })
})

describe("verify-request page for password accounts", () => {
  const render = (type?: string, emailHost?: string) =>
    text(renderVerifyRequestPage({ theme: {}, homeUrl: "/", type, emailHost }).html)

  it("says a confirmation link may have been sent, without saying whether an account exists", () => {
    const page = render("signup")
    expect(page).toContain("<h1>Check your email</h1>")
    expect(page).toContain(
      "If this address can be used for a new account, we sent a link to confirm it. Follow it to finish creating your account.",
    )
    expect(page).not.toMatch(/sign in link|already|exists/i)
  })

  it("says a reset link was sent if an account exists", () => {
    const page = render("reset")
    expect(page).toContain("<h1>Check your email</h1>")
    expect(page).toContain(
      "If an account exists for this address, we sent a link to reset its password.",
    )
    expect(page).not.toContain("sign in link")
  })

  it("shows the host, escaped", () => {
    expect(render("signup", "example.com")).toContain("<strong>example.com</strong>")
    const page = render("reset", XSS)
    expect(page).not.toContain("<script")
    expect(page).toContain(`<strong>${XSS_ESCAPED}</strong>`)
  })

  it.each([undefined, "email", "webauthn", XSS])("is unchanged for type %j", (type) => {
    const page = render(type)
    expect(page).toContain("A sign in link has been sent to your email address.")
    expect(page).not.toContain("<script")
  })
})

describe("password mails", () => {
  const host = "example.com"
  const expires = new Date("2026-11-22T14:05:00Z")
  const when = new Date("2026-11-21T09:30:00Z")
  const url = "https://example.com/auth/verify-email/password?token=abc&x=1"
  const resetUrl = "https://example.com/auth/reset-password"
  const signUpUrl = "https://example.com/auth/signup"

  it.each([
    ["verify", "Confirm your address for example.com", "Confirm address", url],
    [
      "exists",
      "Someone tried to create an account on example.com with your address",
      "Sign in",
      "https://example.com/auth/signin",
    ],
    ["reset", "Reset your password on example.com", "Choose a new password", url],
    ["changed", "Your password on example.com was changed", "Reset your password", resetUrl],
  ] as const)("%s: subject, text and html with the link", (kind, subject, button, link) => {
    const signInUrl = "https://example.com/auth/signin"
    const mail = renderPasswordEmail(kind, {
      url,
      host,
      expires,
      resetUrl,
      signUpUrl,
      signInUrl,
      when,
    })
    expect(mail.subject).toBe(subject)
    expect(mail.text).toContain(link)
    expect(mail.text).toContain("example.com")
    expect(mail.text).toMatch(/not you/)
    const escapedLink = link.replace(/=/g, "&#61;").replace(/&(?!#61;)/g, "&amp;")
    expect(mail.html).toContain(`href="${escapedLink}"`)
    expect(mail.html).toMatch(new RegExp(`>${button}</a`))
    expect(mail.html).toContain("example&#8203;.com")
    expect(mail.html).toMatch(/not you/)
    expect(mail.html.startsWith("<!doctype html>")).toBe(true)
    expect(mail.html).not.toMatch(/<script|<style|class="/i)
  })

  it("says until when the link works, in UTC", () => {
    for (const kind of ["verify", "reset"] as const) {
      const mail = renderPasswordEmail(kind, { url, host, expires })
      expect(mail.text).toContain("22 November 2026, 14:05 UTC")
      expect(mail.html).toContain("22 November 2026, 14:05 UTC")
    }
  })

  it("changed: says when, and how to reset without a resetUrl", () => {
    const mail = renderPasswordEmail("changed", { host, when })
    expect(mail.text).toContain("was changed on 21 November 2026, 09:30 UTC.")
    expect(mail.text).toContain("Forgot your password?")
    expect(mail.html).not.toContain("<a ")
    expect(renderPasswordEmail("changed", { host }).text).toContain("was just changed.")
  })

  it("no-account: nothing to do, a link to sign up, never a reset or verify link", () => {
    const mail = renderPasswordEmail("no-account", { url, host, signUpUrl })
    expect(mail.subject).toBe("Password reset for example.com")
    expect(mail.text).toContain("no account uses this address")
    expect(mail.text).toContain(signUpUrl)
    expect(mail.html).toContain(`href="${signUpUrl}"`)
    expect(mail.text).not.toContain("token=")
    expect(mail.html).not.toContain("token")
    const bare = renderPasswordEmail("no-account", { host })
    expect(bare.html).not.toContain("<a ")
    expect(bare.text).not.toMatch(/https?:/)
    expect(bare.text).toMatch(/not you/)
  })

  it("exists: nothing the stranger typed, no link that changes the account", () => {
    // A link of the sign-up (its `url`) is never in it, whatever is passed.
    const mail = renderPasswordEmail("exists", { url, host, when })
    expect(mail.text).not.toContain("token=")
    expect(mail.html).not.toContain("token")
    expect(mail.html).not.toContain("<a ")
    expect(mail.text).toContain("Nothing was changed")
    expect(mail.text).toContain("on 21 November 2026, 09:30 UTC")
    expect(mail.text).toContain("sign in as you usually do")
    const withLinks = renderPasswordEmail("exists", {
      host,
      resetUrl,
      signInUrl: "https://example.com/auth/signin",
    })
    expect(withLinks.text).toContain(`Forgot your password? Reset it:\n${resetUrl}`)
    expect(withLinks.html).toContain(`href="${resetUrl}"`)
    expect(withLinks.html).toContain(`href="https://example.com/auth/signin"`)
    expect(withLinks.html).not.toMatch(/new password/i)
  })

  it.each(["verify", "exists", "reset", "no-account", "changed"] as const)(
    "%s: escapes a hostile url and host",
    (kind: PasswordEmailKind) => {
      const evilUrl = `https://example.com/?x=${XSS}`
      const mail = renderPasswordEmail(kind, {
        url: evilUrl,
        host: "<img src=x onerror=alert(1)>",
        expires,
        resetUrl: evilUrl,
        signUpUrl: evilUrl,
        theme: { brandColor: "red; background: url(https://evil.example)" },
      })
      expect(mail.html).not.toMatch(/<script|<img/i)
      expect(mail.html).toContain("&lt;img src&#61;x onerror&#61;alert(1)&gt;")
      expect(mail.html).not.toContain("evil.example")
      expect(mail.html).toContain(`x&#61;${XSS_ESCAPED}`)
    },
  )

  it("keeps javascript: links out of the html", () => {
    const mail = renderPasswordEmail("reset", { url: "javascript:alert(1)", host })
    expect(mail.html).not.toContain(`href="javascript:`)
    expect(mail.html).toContain(`href="#"`)
  })

  it("keeps the subject on one line", () => {
    expect(renderPasswordEmail("reset", { url, host: "a.example\r\nBcc: x@evil" }).subject).toBe(
      "Reset your password on a.example Bcc: x@evil",
    )
  })

  it("uses the theme's colours for the button", () => {
    const mail = renderPasswordEmail("verify", {
      url,
      host,
      theme: { brandColor: "#0a7", buttonText: "#000" },
    })
    expect(mail.html).toContain("background: #0a7")
    expect(mail.html).toContain("color: #000")
  })

  it("refuses a verify or reset mail without its link, and an unknown kind", () => {
    expect(() => renderPasswordEmail("verify", { host })).toThrow(TypeError)
    expect(() => renderPasswordEmail("reset", { host, url: "" })).toThrow(TypeError)
    expect(() => renderPasswordEmail("nope" as PasswordEmailKind, { host, url })).toThrow(TypeError)
  })
})
