/**
 * The built-in pages of two-factor authentication: the code step of a sign-in, setting up an
 * authenticator app (a QR code drawn as inline SVG, and the secret to type by hand), and the
 * recovery codes, shown once. Plain forms, and — where a security key can be used or added — the
 * passkey script of the sign-in page (`webauthn-script.ts`), which runs the key's ceremony and
 * posts its answer. A refusal's alert sits directly above the submit button it is about, as on
 * every page.
 */
import { html, raw, safeUrl, type SafeHtml } from "./html.js"
import { codeField, codedAlert, recoveryCodeField } from "./fields.js"
import { layout } from "./layout.js"
import type { RenderedPage } from "./types.js"
import type { Theme } from "../types.js"
import { randomBase64url } from "../lib/crypto.js"
import { webAuthnScriptTag } from "./webauthn-script.js"

/**
 * The form the passkey script runs a security key's ceremony for: hidden until the script shows
 * it (without JavaScript there is no key to use).
 */
function keyForm(
  props: { csrfToken: string; callbackUrl?: string },
  {
    action,
    optionsUrl,
    register,
    label,
  }: {
    action: string
    optionsUrl: string
    register: boolean
    label: string
  },
): SafeHtml {
  return html`<form
    method="post"
    action="${safeUrl(action)}"
    data-latch-webauthn
    data-options-url="${safeUrl(optionsUrl)}"
    data-conditional="false"
    ${register ? raw('data-action="register"') : ""}
    hidden
  >
    <input type="hidden" name="csrfToken" value="${props.csrfToken}" />
    ${
      typeof props.callbackUrl === "string"
        ? html`<input type="hidden" name="callbackUrl" value="${props.callbackUrl}" />`
        : ""
    }
    <input type="hidden" name="action" value="" />
    <input type="hidden" name="data" value="" />
    <div class="alert" role="alert" data-latch-alert hidden></div>
    <button type="submit" class="button secondary">${label}</button>
  </form>`
}

const MESSAGES: Record<string, string> = {
  wrong_code: "That code is not right. Check your authenticator app and try again.",
  replayed_code: "That code was used already: wait for the next one.",
  rate_limited: "Too many attempts: wait a few minutes and try again.",
  expired: "The sign-in took too long: sign in again.",
  not_enrolled: "Two-factor authentication is not set up for this account.",
  signed_out: "You are signed out: sign in again, then try again.",
  key_refused:
    "That security key was not accepted. Use a key you added to this account, or another way.",
  unverified:
    "Confirm your account's address first (follow the link we mailed you), then set up two-factor authentication.",
}

/** What the pages say for a `TwoFactorError` code; a generic message for any other. */
export function twoFactorErrorMessage(code: string | undefined): string | undefined {
  if (typeof code !== "string" || code === "") return undefined
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : "Something went wrong. Please try again."
}

function alert(code: string | undefined): SafeHtml | "" {
  const message = twoFactorErrorMessage(code)
  return message ? codedAlert(message, code) : ""
}

/** The code step of a sign-in. */
export interface TwoFactorPageProps {
  theme: Theme
  csrfToken: string
  /** Where the forms post: `{basePath}/two-factor`. */
  action: string
  /** A `TwoFactorError` code from the last try. */
  code?: string
  /** Whether the user has an authenticator app (its code is asked). @default true */
  app?: boolean
  /** `{basePath}/two-factor/security-key`, when the user has a key (or passkey) to use. */
  keyUrl?: string
}

export function renderTwoFactorPage(props: TwoFactorPageProps): RenderedPage {
  const csrf = html`<input type="hidden" name="csrfToken" value="${props.csrfToken}" />`
  const app = props.app !== false
  const scriptNonce = props.keyUrl ? randomBase64url(16) : undefined
  const key = props.keyUrl
    ? keyForm(props, {
        action: props.keyUrl,
        optionsUrl: props.keyUrl,
        register: false,
        label: "Use a security key",
      })
    : ""
  const body = html`<h1>Two-factor authentication</h1>
    <p class="lead">
      ${
        app
          ? "Enter the 6-digit code from your authenticator app."
          : "Use your security key to finish signing in."
      }
    </p>
    ${
      app
        ? html`<form method="post" action="${safeUrl(props.action)}">
            ${csrf} ${codeField("code", "Code")} ${alert(props.code)}
            <button type="submit" class="button primary">Verify</button>
          </form>`
        : alert(props.code)
    }
    ${key}
    <details>
      <summary>Use a recovery code</summary>
      <form method="post" action="${safeUrl(props.action)}">
        ${csrf} ${recoveryCodeField()}
        <button type="submit" class="button secondary">Use recovery code</button>
      </form>
    </details>
    ${webAuthnScriptTag(scriptNonce)}`
  return {
    status: 200,
    html: layout({ title: "Two-factor authentication", theme: props.theme, body }),
    ...(scriptNonce ? { scriptNonce } : {}),
  }
}

/** Setting up an authenticator app. */
export interface TwoFactorSetupPageProps {
  theme: Theme
  csrfToken: string
  /** Where the form posts: `{basePath}/two-factor/setup`. */
  action: string
  /** The QR code of the `otpauth://` URI, as inline SVG (made by Latch, trusted). */
  qrSvg: string
  /** The secret, base32, for typing by hand. */
  secret: string
  /** The sealed secret, posted back with the code. */
  setup: string
  /** Whether the user has a factor already, whose code is asked too (a new authenticator). */
  replacing: boolean
  callbackUrl?: string
  code?: string
  /** `{basePath}/two-factor/security-key-setup`, to add a security key instead. */
  keySetupUrl?: string
}

/** The secret in groups of four, as apps show and people type it. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, "$1 ")
}

export function renderTwoFactorSetupPage(props: TwoFactorSetupPageProps): RenderedPage {
  const scriptNonce = props.keySetupUrl ? randomBase64url(16) : undefined
  const keySetup = props.keySetupUrl
    ? html`<div class="divider"><span>or</span></div>
        <p class="hint">Use a security key (or a passkey) as your second factor instead.</p>
        ${keyForm(props, {
          action: props.keySetupUrl,
          optionsUrl: props.keySetupUrl,
          register: true,
          label: "Add a security key",
        })}
        ${webAuthnScriptTag(scriptNonce)}`
    : ""
  const body = html`<h1>Set up two-factor authentication</h1>
    <p class="lead">
      Scan this code with an authenticator app (or type the key below), then enter the 6-digit code
      it shows.
    </p>
    <div class="qr">${raw(props.qrSvg)}</div>
    <p class="secret">Key: <code>${grouped(props.secret)}</code></p>
    <form method="post" action="${safeUrl(props.action)}">
      <input type="hidden" name="csrfToken" value="${props.csrfToken}" />
      <input type="hidden" name="setup" value="${props.setup}" />
      ${
        typeof props.callbackUrl === "string"
          ? html`<input type="hidden" name="callbackUrl" value="${props.callbackUrl}" />`
          : ""
      }
      ${props.replacing ? codeField("currentCode", "Code from your current authenticator") : ""}
      ${codeField("code", props.replacing ? "Code from the new authenticator" : "Code")}
      ${alert(props.code)}
      <button type="submit" class="button primary">Turn on</button>
    </form>
    ${keySetup}`
  return {
    status: 200,
    html: layout({ title: "Set up two-factor authentication", theme: props.theme, body }),
    ...(scriptNonce ? { scriptNonce } : {}),
  }
}

/** The recovery codes, shown once. */
export interface RecoveryCodesPageProps {
  theme: Theme
  codes: string[]
  /** Where "Continue" leads. */
  continueUrl: string
}

export function renderRecoveryCodesPage(props: RecoveryCodesPageProps): RenderedPage {
  const body = html`<h1>Your recovery codes</h1>
    <p class="lead">
      Keep these codes somewhere safe. Each one signs you in once if you lose your authenticator.
      They are shown only now.
    </p>
    <ul class="recovery-codes">
      ${props.codes.map((code) => html`<li><code>${code}</code></li>`)}
    </ul>
    <p><a class="button primary" href="${safeUrl(props.continueUrl)}">Continue</a></p>`
  return { status: 200, html: layout({ title: "Your recovery codes", theme: props.theme, body }) }
}
