/**
 * The page the link of a sign-up mail opens: "Confirm your address". Mail scanners open every
 * link in a mail, so the link only shows this page; its button does the work (a CSRF-checked
 * POST). What the page asks depends on who opens it (`flows/password/verify.ts`):
 *
 * - the browser that signed up (or one signed in to the account): one button;
 * - any other browser, for a new account: the password chosen at sign-up, so that following a
 *   stranger's link creates nothing;
 * - any other browser, for an account made at once (`requireEmailVerification: false`): its
 *   password, to keep it — or, for someone who did not create the account, a second button
 *   that takes it over clean (what was set before the address was proven is removed).
 */
import { html, safeUrl, type SafeHtml } from "./html.js"
import { codedAlert } from "./fields.js"
import { layout } from "./layout.js"
import { passwordErrorMessage } from "./password.js"
import type { RenderedPage } from "./types.js"
import type { Theme } from "../types.js"

/** Who opened the link, as far as the page is concerned. */
export type ConfirmAddressMode = "asker" | "signUp" | "verify"

export interface ConfirmAddressPageProps {
  theme: Theme
  mode: ConfirmAddressMode
  csrfToken: string
  /** Where the forms post: `{basePath}/verify-email/<provider>`. */
  action: string
  /** The link's token, posted back. */
  token: string
  /** The site's host, e.g. `example.com`. */
  siteHost: string
  /** The address the link is for. */
  email: string
  /** A `PasswordError` code from the last try. */
  code?: string
  homeUrl: string
}

const MESSAGES: Record<string, string> = {
  wrong_password: "That is not the password. Try again.",
  password_required: "Enter the password to confirm the address.",
}

function alert(code: string | undefined): SafeHtml | "" {
  if (typeof code !== "string" || code === "") return ""
  const message = Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : passwordErrorMessage(code)
  return codedAlert(message ?? "Something went wrong. Please try again.", code)
}

function hidden(props: ConfirmAddressPageProps): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${props.csrfToken}" />
    <input type="hidden" name="token" value="${props.token}" />`
}

/** The password field, with the address for password managers. */
function passwordField(props: ConfirmAddressPageProps, label: string): SafeHtml {
  return html`<input type="hidden" name="email" autocomplete="username" value="${props.email}" />
    <div class="field">
      <label for="latch-password">${label}</label>
      <input
        id="latch-password"
        name="password"
        type="password"
        autocomplete="current-password"
        required
      />
    </div>`
}

export function renderConfirmAddressPage(props: ConfirmAddressPageProps): RenderedPage {
  const site = html`<strong>${props.siteHost}</strong>`
  const address = html`<strong>${props.email}</strong>`
  const action = safeUrl(props.action)
  let body: SafeHtml
  if (props.mode === "asker") {
    body = html`<p class="lead">Confirm ${address} as the address of your account at ${site}.</p>
      ${alert(props.code)}
      <form method="post" action="${action}">
        ${hidden(props)}
        <button type="submit" class="button primary">Confirm your address</button>
      </form>`
  } else if (props.mode === "signUp") {
    body = html`<p class="lead">
        To finish creating your account at ${site} as ${address}, enter the password you chose when
        you signed up.
      </p>
      ${alert(props.code)}
      <form method="post" action="${action}">
        ${hidden(props)} ${passwordField(props, "Password")}
        <button type="submit" class="button primary">Confirm and create the account</button>
      </form>
      <p class="hint">
        Did not sign up? Close this page: without the password, no account is created.
      </p>`
  } else {
    body = html`<p class="lead">Confirm ${address} as the address of your account at ${site}.</p>
      ${alert(props.code)}
      <form method="post" action="${action}">
        ${hidden(props)} ${passwordField(props, "Your password")}
        <button type="submit" class="button primary">Confirm your address</button>
      </form>
      <h2>Did not create this account?</h2>
      <p class="hint">
        Someone may have signed up with your address. Take the account over: its password, and
        anything else set up before the address was confirmed (two-factor authentication, passkeys,
        other sign-in methods, open sessions), is removed, and you are signed in.
      </p>
      <form method="post" action="${action}">
        ${hidden(props)}
        <input type="hidden" name="adopt" value="1" />
        <button type="submit" class="button">Take the account over</button>
      </form>`
  }
  const page = html`<h1>Confirm your address</h1>
    ${body}
    <p class="footer-link"><a href="${safeUrl(props.homeUrl)}">Go to the home page</a></p>`
  return {
    status: 200,
    html: layout({ title: "Confirm your address", theme: props.theme, body: page }),
  }
}
