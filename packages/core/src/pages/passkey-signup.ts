/**
 * The built-in page of passkey-first sign-up, one page in three stages: the address; the code
 * mailed to it (with a way to start again with another address); the passkey, made by the
 * passkey script of the sign-in page (`webauthn-script.ts`) and posted to the provider's
 * callback, which creates the account and signs in.
 */
import { randomBase64url } from "../lib/crypto.js"
import type { Theme } from "../types.js"
import { codeField, codedAlert } from "./fields.js"
import { html, safeUrl, type SafeHtml } from "./html.js"
import { layout } from "./layout.js"
import type { RenderedPage } from "./types.js"
import { webAuthnScriptTag } from "./webauthn-script.js"

export interface PasskeySignUpPageProps {
  theme: Theme
  csrfToken: string
  /** `email`: ask the address; `code`: ask the mailed code; `passkey`: make the passkey. */
  stage: "email" | "code" | "passkey"
  /** Where the address and the code are posted: `{basePath}/passkey-signup/<provider>`. */
  action: string
  /** Where the passkey is posted: `{basePath}/callback/<provider>`. */
  callbackAction: string
  /** `{basePath}/webauthn-options/<provider>`. */
  optionsUrl: string
  callbackUrl: string
  /** The address being proven (stages `code` and `passkey`). */
  email?: string
  /** The sign-in page. */
  signInUrl: string
  /** A `PasskeySignUpError` code, after a refusal. */
  code?: string
}

const MESSAGES: Record<string, string> = {
  invalid_email: "That is not an email address we can send to. Check it and try again.",
  wrong_code: "That code is not right. Check it and try again.",
  expired: "That took too long and the code has expired: start again.",
  rate_limited: "Too many attempts: wait a few minutes and try again.",
  no_request: "Start by giving your email address.",
  replay: "This confirmation was used already: start again.",
  mail_failed: "The email could not be sent. Try again in a moment.",
}

function alert(code: string | undefined): SafeHtml | "" {
  if (typeof code !== "string" || code === "") return ""
  const message = Object.hasOwn(MESSAGES, code)
    ? MESSAGES[code]!
    : "Something went wrong. Please try again."
  return codedAlert(message, code)
}

function hidden(props: PasskeySignUpPageProps): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${props.csrfToken}" />
    <input type="hidden" name="callbackUrl" value="${props.callbackUrl}" />`
}

function emailForm(props: PasskeySignUpPageProps, label: string, style: string): SafeHtml {
  return html`<form method="post" action="${safeUrl(props.action)}">
    ${hidden(props)}
    <div class="field">
      <label for="latch-signup-email">Email</label>
      <input id="latch-signup-email" name="email" type="email" autocomplete="email" required />
    </div>
    <button type="submit" class="button ${style}">${label}</button>
  </form>`
}

function codeStage(props: PasskeySignUpPageProps): SafeHtml {
  return html`<p class="lead">
      We sent an email to <strong>${props.email ?? "your address"}</strong>. Type the code it holds
      to confirm the address.
    </p>
    <form method="post" action="${safeUrl(props.action)}">
      ${hidden(props)} ${codeField("code", "Code from the email")}
      <button type="submit" class="button primary">Confirm</button>
    </form>
    <details>
      <summary>Use another address</summary>
      ${emailForm(props, "Send a code", "secondary")}
    </details>`
}

function passkeyStage(props: PasskeySignUpPageProps): SafeHtml {
  // Hidden until the script shows it: without JavaScript there is no passkey to make.
  return html`<p class="lead">
      <strong>${props.email ?? "Your address"}</strong> is confirmed. Now make the passkey your
      device will sign in with.
    </p>
    <form
      method="post"
      action="${safeUrl(props.callbackAction)}"
      data-latch-webauthn
      data-options-url="${safeUrl(props.optionsUrl)}"
      data-action="register"
      data-conditional="false"
      hidden
    >
      ${hidden(props)}
      <input type="hidden" name="action" value="" />
      <input type="hidden" name="data" value="" />
      <div class="alert" role="alert" data-latch-alert hidden></div>
      <button type="submit" class="button primary">Create a passkey</button>
    </form>`
}

export function renderPasskeySignUpPage(props: PasskeySignUpPageProps): RenderedPage {
  const scriptNonce = props.stage === "passkey" ? randomBase64url(16) : undefined
  const content =
    props.stage === "code"
      ? codeStage(props)
      : props.stage === "passkey"
        ? passkeyStage(props)
        : html`<p class="lead">
              Give your email address: we send it a code, then your device makes a passkey. No
              password.
            </p>
            ${emailForm(props, "Continue", "primary")}`
  const body = html`<h1>Create an account</h1>
    ${alert(props.code)} ${content}
    <p class="footer-link">Have an account? <a href="${safeUrl(props.signInUrl)}">Sign in</a></p>
    ${webAuthnScriptTag(scriptNonce)}`
  return {
    status: 200,
    html: layout({ title: "Create an account", theme: props.theme, body }),
    ...(scriptNonce ? { scriptNonce } : {}),
  }
}
