/**
 * The built-in pages of password accounts: sign up, "forgot your password?", "choose a new
 * password" and "change your password". Plain forms that work without JavaScript.
 */
import { html, safeUrl, type SafeHtml } from "./html.js"
import { layout } from "./layout.js"
import type {
  ChangePasswordPageProps,
  NewPasswordPageProps,
  PasswordPageProps,
  RenderedPage,
  ResetRequestPageProps,
  SignUpPageProps,
} from "./types.js"

/** The bounds a message about the password's length may name. */
export interface PasswordMessageBounds {
  minLength?: number
  maxLength?: number
}

const GENERIC_MESSAGE = "Something went wrong. Please try again."
const SAFE_CODE = /^[A-Za-z0-9_-]{1,64}$/

/** What the pages say for each `code` that comes with `error=PasswordError` (or `AccountError`). */
const CODE_MESSAGES: Record<string, string> = {
  password_too_short: "Use a longer password.",
  password_too_long: "Use a shorter password.",
  password_control_characters:
    "This password contains control characters, which cannot be typed: remove them.",
  password_like_identifier:
    "This password is too close to your email address or name: choose another.",
  password_breached: "This password has appeared in a data breach: choose another.",
  same_password: "This is your current password: choose a new one.",
  invalid_email: "Enter one email address, like you@example.com.",
  wrong_password: "The current password is not right.",
  no_password:
    "Your account has no password yet: to set one, use “Forgot your password?” on the sign-in page, which mails you a link.",
  mail_failed: "The email could not be sent. Try again in a moment.",
  sign_up_closed: "New accounts cannot be created here.",
  rate_limited: "Too many attempts: wait a few minutes and try again.",
  busy: "The server is busy: try again in a few seconds.",
  signed_out: "You are signed out: sign in again, then try again.",
  unverified: "Confirm your address first: follow the link we mailed you.",
  credentials: "Sign in failed. Check the details you provided are correct.",
  last_method: "This is your only way to sign in: add another one before removing it.",
  not_found: "This sign-in method is not on your account.",
}

/** What the pages say for an `error` without a code. */
const ERROR_MESSAGES: Record<string, string> = {
  MissingCSRF: "The form expired. Please try again.",
  SessionRequired: "Please sign in to access this page.",
}

function isBound(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0
}

/**
 * A message people understand for a password or account error code; a generic one for a code
 * it does not know (never the code itself); `undefined` when there is no code.
 */
export function passwordErrorMessage(
  code: string | undefined,
  bounds: PasswordMessageBounds = {},
): string | undefined {
  if (typeof code !== "string" || code === "") return undefined
  if (code === "password_too_short" && isBound(bounds.minLength)) {
    return `Use at least ${bounds.minLength} characters.`
  }
  if (code === "password_too_long" && isBound(bounds.maxLength)) {
    return `Use at most ${bounds.maxLength} characters.`
  }
  return Object.hasOwn(CODE_MESSAGES, code)
    ? (CODE_MESSAGES[code] ?? GENERIC_MESSAGE)
    : GENERIC_MESSAGE
}

function alert(props: PasswordPageProps, bounds: PasswordMessageBounds = {}): SafeHtml | "" {
  const code = typeof props.code === "string" && props.code !== "" ? props.code : undefined
  const error = typeof props.error === "string" && props.error !== "" ? props.error : undefined
  if (!code && !error) return ""
  const message = code
    ? passwordErrorMessage(code, bounds)
    : error && Object.hasOwn(ERROR_MESSAGES, error)
      ? ERROR_MESSAGES[error]
      : GENERIC_MESSAGE
  const showCode = code !== undefined && SAFE_CODE.test(code)
  return html`<div class="alert" role="alert">
    <p>${message ?? GENERIC_MESSAGE}</p>
    ${showCode ? html`<p class="code">Code: <code>${code}</code></p>` : ""}
  </div>`
}

function hiddenFields(csrfToken: string, callbackUrl: string | undefined): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${csrfToken}" /> ${
      typeof callbackUrl === "string"
        ? html`<input type="hidden" name="callbackUrl" value="${callbackUrl}" />`
        : ""
    }`
}

function emailField(email: string | undefined): SafeHtml {
  return html`<div class="field">
    <label for="latch-email">Email</label>
    <input
      id="latch-email"
      name="email"
      type="email"
      autocomplete="username"
      placeholder="you@example.com"
      required
      value="${email ?? ""}"
    />
  </div>`
}

/**
 * No `maxlength`: browsers count UTF-16 units, the policy counts characters as people see them,
 * so a long password of emoji within the policy would be cut short. The server checks the bound.
 */
function newPasswordField({ minLength }: { minLength: number }, label: string): SafeHtml {
  const min = isBound(minLength) ? minLength : undefined
  return html`<div class="field">
      <label for="latch-password">${label}</label>
      <input
        id="latch-password"
        name="password"
        type="password"
        autocomplete="new-password"
        required${min !== undefined ? html` minlength="${min}"` : ""}${min !== undefined ? html` aria-describedby="latch-password-hint"` : ""}
      />
    </div>
    ${min !== undefined ? html`<p class="hint" id="latch-password-hint">At least ${min} characters.</p>` : ""}`
}

/** Renders the sign-up page. */
export function renderSignUpPage(props: SignUpPageProps): RenderedPage {
  const body = html`<h1>Create an account</h1>
    ${alert(props, props)}
    <form method="post" action="${safeUrl(props.action)}">
      ${hiddenFields(props.csrfToken, props.callbackUrl)}
      <div class="field">
        <label for="latch-name">Name (optional)</label>
        <input id="latch-name" name="name" type="text" autocomplete="name" />
      </div>
      ${emailField(props.email)} ${newPasswordField(props, "Password")}
      <button type="submit" class="button primary">Create account</button>
    </form>
    <p class="footer-link">
      <a href="${safeUrl(props.signInUrl)}">Already have an account? Sign in</a>
    </p>`
  return { status: 200, html: layout({ title: "Create an account", theme: props.theme, body }) }
}

/** Renders the "forgot your password?" page, which mails a reset link. */
export function renderResetRequestPage(props: ResetRequestPageProps): RenderedPage {
  const body = html`<h1>Forgot your password?</h1>
    <p class="lead">Enter your email address and we will send you a link to choose a new one.</p>
    ${alert(props)}
    <form method="post" action="${safeUrl(props.action)}">
      ${hiddenFields(props.csrfToken, props.callbackUrl)} ${emailField(props.email)}
      <button type="submit" class="button primary">Send reset link</button>
    </form>
    <p class="footer-link"><a href="${safeUrl(props.signInUrl)}">Back to sign in</a></p>`
  return {
    status: 200,
    html: layout({ title: "Forgot your password?", theme: props.theme, body }),
  }
}

/** Renders the "choose a new password" page that a reset link opens. */
export function renderNewPasswordPage(props: NewPasswordPageProps): RenderedPage {
  const body = html`<h1>Choose a new password</h1>
    ${alert(props, props)}
    <form method="post" action="${safeUrl(props.action)}">
      ${hiddenFields(props.csrfToken, undefined)}
      <input type="hidden" name="token" value="${props.token}" />
      ${newPasswordField(props, "New password")}
      <button type="submit" class="button primary">Set password</button>
    </form>`
  return {
    status: 200,
    html: layout({ title: "Choose a new password", theme: props.theme, body }),
  }
}

/** Renders the "change your password" page of a signed-in user. */
export function renderChangePasswordPage(props: ChangePasswordPageProps): RenderedPage {
  const body = html`<h1>Change your password</h1>
    ${props.signsOutOthers ? html`<p class="lead">When it is changed, your other devices will be signed out.</p>` : ""}
    ${alert(props, props)}
    <form method="post" action="${safeUrl(props.action)}">
      ${hiddenFields(props.csrfToken, props.callbackUrl)}
      <div class="field">
        <label for="latch-current-password">Current password</label>
        <input
          id="latch-current-password"
          name="currentPassword"
          type="password"
          autocomplete="current-password"
          required
        />
      </div>
      ${newPasswordField(props, "New password")}
      <button type="submit" class="button primary">Change password</button>
    </form>
    ${
      typeof props.callbackUrl === "string" && props.callbackUrl !== ""
        ? html`<p class="footer-link"><a href="${safeUrl(props.callbackUrl)}">Cancel</a></p>`
        : ""
    }`
  return {
    status: 200,
    html: layout({ title: "Change your password", theme: props.theme, body }),
  }
}
