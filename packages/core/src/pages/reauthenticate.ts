/**
 * The built-in re-authentication page, "Confirm it is you": one form per way the user has
 * (`account/reauthenticate.ts`) — the password; a code of the second factor (or a recovery
 * code); a security key kept as the second factor or a passkey (with the passkey script, as on
 * the sign-in page); a code mailed to the
 * address — and a link to sign in again. Each form posts back with where the user was going.
 */
import { randomBase64url } from "../lib/crypto.js"
import type { ReauthenticationMethod } from "../account/reauthenticate.js"
import { html, safeUrl, type SafeHtml } from "./html.js"
import { codeField, codedAlert, recoveryCodeField } from "./fields.js"
import { layout } from "./layout.js"
import type { RenderedPage } from "./types.js"
import { webAuthnScriptTag } from "./webauthn-script.js"
import type { Theme } from "../types.js"

export interface ReauthenticatePageProps {
  theme: Theme
  csrfToken: string
  /** Where the forms post: `{basePath}/reauthenticate`. */
  action: string
  /** Where the user goes once confirmed. */
  callbackUrl: string
  methods: ReauthenticationMethod[]
  /** Whether the user has a second factor (the page says why a password is not enough). */
  secondFactor: boolean
  /** `{basePath}/webauthn-options/<provider>`, for the passkey form. */
  passkeyOptionsUrl?: string
  /** `{basePath}/two-factor/security-key`, for the security key form. */
  securityKeyOptionsUrl?: string
  /** The address a code is mailed to. */
  email?: string
  /** A code was just mailed: its form is shown. */
  codeSent: boolean
  /** The sign-in page, coming back here. */
  signInUrl: string
  /** A `ReauthenticationRequired` code: why the step is asked, or why the last try failed. */
  code?: string
}

const MESSAGES: Record<string, string> = {
  required: "Before you change how you sign in, confirm it is you.",
  second_factor:
    "Before you change how you sign in, confirm it is you with your second factor: a code from your authenticator app, a security key, or a passkey.",
  wrong_password: "That password is not right.",
  wrong_code: "That code is not right. Check it and try again.",
  replayed_code: "That code was used already: wait for the next one.",
  passkey_failed: "The passkey could not be checked. Try again, or confirm another way.",
  code_expired: "That code has expired: ask for a new one.",
  rate_limited: "Too many attempts: wait a few minutes and try again.",
  mail_failed: "The email could not be sent. Try again in a moment.",
  no_method: "That way to confirm is not available for your account.",
  busy: "The server is busy: try again in a few seconds.",
}

/** What the page says for a code; a generic message for any other. */
export function reauthenticationMessage(code: string | undefined): string | undefined {
  if (typeof code !== "string" || code === "") return undefined
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : "Something went wrong. Please try again."
}

function alert(code: string | undefined): SafeHtml | "" {
  // Why the step is asked is the lead, not an error.
  if (code === undefined || code === "required") return ""
  const message = reauthenticationMessage(code)
  if (!message) return ""
  return codedAlert(message, code, code === "second_factor" ? "status" : "alert")
}

function hidden(props: ReauthenticatePageProps, method: ReauthenticationMethod): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${props.csrfToken}" />
    <input type="hidden" name="callbackUrl" value="${props.callbackUrl}" />
    <input type="hidden" name="method" value="${method}" />`
}

function passwordForm(props: ReauthenticatePageProps): SafeHtml {
  return html`<form method="post" action="${safeUrl(props.action)}">
    ${hidden(props, "password")}
    <div class="field">
      <label for="latch-password">Your password</label>
      <input
        id="latch-password"
        name="password"
        type="password"
        autocomplete="current-password"
        required
      />
    </div>
    <button type="submit" class="button primary">Confirm</button>
  </form>`
}

function codeForm(props: ReauthenticatePageProps): SafeHtml {
  return html`<form method="post" action="${safeUrl(props.action)}">
      ${hidden(props, "code")} ${codeField("code", "Code from your authenticator app")}
      <button type="submit" class="button primary">Confirm</button>
    </form>
    <details>
      <summary>Use a recovery code</summary>
      <form method="post" action="${safeUrl(props.action)}">
        ${hidden(props, "code")} ${recoveryCodeField()}
        <button type="submit" class="button secondary">Confirm</button>
      </form>
    </details>`
}

function passkeyForm(
  props: ReauthenticatePageProps,
  method: "passkey" | "securityKey" = "passkey",
): SafeHtml {
  const optionsUrl = method === "passkey" ? props.passkeyOptionsUrl : props.securityKeyOptionsUrl
  // Hidden until the script shows it: without JavaScript there is no passkey to use.
  return html`<form
    method="post"
    action="${safeUrl(props.action)}"
    data-latch-webauthn
    data-options-url="${safeUrl(optionsUrl ?? "#")}"
    data-conditional="false"
    hidden
  >
    ${hidden(props, method)}
    <input type="hidden" name="action" value="" />
    <input type="hidden" name="data" value="" />
    <div class="alert" role="alert" data-latch-alert hidden></div>
    <button type="submit" class="button secondary">
      ${method === "passkey" ? "Use a passkey" : "Use a security key"}
    </button>
  </form>`
}

function emailForms(props: ReauthenticatePageProps): SafeHtml {
  const address = html`<strong>${props.email ?? "your address"}</strong>`
  const send = (label: string, style: string) =>
    html`<form method="post" action="${safeUrl(props.action)}">
      ${hidden(props, "email")}
      <input type="hidden" name="send" value="1" />
      <button type="submit" class="button ${style}">${label}</button>
    </form>`
  if (!props.codeSent) return send("Email me a code", "secondary")
  return html`<p class="hint">We mailed a code to ${address}.</p>
    <form method="post" action="${safeUrl(props.action)}">
      ${hidden(props, "email")} ${codeField("emailCode", "Code from the email")}
      <button type="submit" class="button primary">Confirm</button>
    </form>
    ${send("Send a new code", "secondary")}`
}

export function renderReauthenticatePage(props: ReauthenticatePageProps): RenderedPage {
  const sections: SafeHtml[] = []
  for (const method of props.methods) {
    if (method === "password") sections.push(passwordForm(props))
    if (method === "code") sections.push(codeForm(props))
    if (method === "passkey") sections.push(passkeyForm(props))
    if (method === "securityKey") sections.push(passkeyForm(props, "securityKey"))
    if (method === "email") sections.push(emailForms(props))
  }
  const divider = html`<div class="divider"><span>or</span></div>`
  const scriptNonce =
    props.methods.includes("passkey") || props.methods.includes("securityKey")
      ? randomBase64url(16)
      : undefined
  const lead = props.secondFactor
    ? "Before you change how you sign in, confirm it is you with your second factor."
    : "Before you change how you sign in, confirm it is you."
  const body = html`<h1>Confirm it is you</h1>
    <p class="lead">${lead}</p>
    ${alert(props.code)} ${sections.map((section, i) => html`${i > 0 ? divider : ""}${section}`)}
    ${
      sections.length === 0
        ? // No way to confirm here (an account that signs in with another site only): signing
          // in again is the proof.
          html`<a class="button primary" href="${safeUrl(props.signInUrl)}">Sign in again</a>`
        : html`<p class="footer-link">
            <a href="${safeUrl(props.signInUrl)}">Sign in again instead</a>
          </p>`
    }
    ${webAuthnScriptTag(scriptNonce)}`
  return {
    status: 200,
    html: layout({ title: "Confirm it is you", theme: props.theme, body }),
    ...(scriptNonce ? { scriptNonce } : {}),
  }
}
