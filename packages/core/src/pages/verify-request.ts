/**
 * The page shown after a sign-in, sign-up or password-reset email has been sent. When the sign-in
 * mail carries a code too, the page has the form to type it, and says why a code was refused.
 */
import { html, safeUrl, type SafeHtml } from "./html.js"
import { layout } from "./layout.js"
import type { RenderedPage, VerifyRequestCodeForm, VerifyRequestPageProps } from "./types.js"

const LINK_NOTES = html`<li>The link works once and expires after a while.</li>
  <li>If the email is not in your inbox, check your spam folder.</li>`

/**
 * What the page says for a password account's mail. The wording is the same whether or not
 * the address has an account: a mail goes out either way.
 */
function passwordContent(type: string, host: string): SafeHtml | undefined {
  const where = host ? html`<li>It went to your address at <strong>${host}</strong>.</li>` : ""
  if (type === "signup") {
    return html`<p class="lead">
        If this address can be used for a new account, we sent a link to confirm it. Follow it to
        finish creating your account.
      </p>
      <ul class="notes">
        ${where} ${LINK_NOTES}
      </ul>`
  }
  if (type === "reset") {
    return html`<p class="lead">
        If an account exists for this address, we sent a link to reset its password.
      </p>
      <ul class="notes">
        ${where} ${LINK_NOTES}
      </ul>`
  }
  return undefined
}

/** What the page says for each `code` of a refused code (`error=Verification`). */
const CODE_MESSAGES: Record<string, string> = {
  wrong_code: "That code is not right. Check the email and try again.",
  expired: "This code has expired.",
  too_many_attempts: "Too many wrong codes were tried: this code no longer works.",
  no_request:
    "This browser is not waiting for a code. Type the code where you asked to sign in, or open the link in the email.",
}

/** Codes after which only a new mail helps. */
const DEAD = new Set(["expired", "too_many_attempts"])

const SAFE_CODE = /^[A-Za-z0-9_-]{1,64}$/

/** Why the last code was refused, if it was. */
function codeAlert(props: VerifyRequestPageProps): SafeHtml | "" {
  if (typeof props.error !== "string" || props.error === "") return ""
  const code = typeof props.code === "string" && SAFE_CODE.test(props.code) ? props.code : undefined
  const message =
    code && Object.hasOwn(CODE_MESSAGES, code) ? CODE_MESSAGES[code] : "Unable to sign in."
  const again =
    code && DEAD.has(code) && props.signInUrl
      ? html` <a href="${safeUrl(props.signInUrl)}">Ask for a new email</a>.`
      : ""
  return html`<div class="alert" role="alert">
    <p>${message}${again}</p>
    ${code ? html`<p class="code">Code: <code>${code}</code></p>` : ""}
  </div>`
}

/** The form for the code in the mail. */
function codeFormOf(form: VerifyRequestCodeForm): SafeHtml {
  return html`<div class="divider">or enter the code</div>
    <form method="post" action="${safeUrl(form.action)}">
      <input type="hidden" name="csrfToken" value="${form.csrfToken}" />
      <div class="field">
        <label for="latch-code">Code from the email</label>
        <input
          id="latch-code"
          name="code"
          type="text"
          autocomplete="one-time-code"
          autocapitalize="characters"
          spellcheck="false"
          placeholder="${"X".repeat(form.length)}"
          required
        />
      </div>
      <p class="hint">It works only in this browser, and only for a few minutes.</p>
      <button type="submit" class="button primary">Sign in with the code</button>
    </form>`
}

/**
 * What the page says when a rate limit stopped the mail (`error=EmailRateLimited`, with the
 * provider's `rateLimit.sayWhenReached`): the same words for any address, with an account or
 * not, since the limit counts the address whatever it is.
 */
function limitAlert(props: VerifyRequestPageProps): SafeHtml {
  const minutes =
    typeof props.limitMinutes === "number" && props.limitMinutes > 0
      ? `in ${props.limitMinutes} minute${props.limitMinutes === 1 ? "" : "s"}`
      : "later"
  const who = props.code === "client" ? "from your network" : "for this address"
  return html`<div class="alert" role="alert">
    <p>
      Too many sign-in links were requested ${who}, so no new email was sent. Try again ${minutes}.
    </p>
    <p>A link we sent you before still works.</p>
  </div>`
}

/** Renders the "check your email" page. */
export function renderVerifyRequestPage(props: VerifyRequestPageProps): RenderedPage {
  const host = typeof props.emailHost === "string" && props.emailHost !== "" ? props.emailHost : ""
  const content =
    (typeof props.type === "string" ? passwordContent(props.type, host) : undefined) ??
    html`<p class="lead">
        A sign in link has been sent to your email
        address${host ? html` at <strong>${host}</strong>` : ""}.
      </p>
      <ul class="notes">
        <li>Open the link in the email to finish signing in.</li>
        ${LINK_NOTES}
      </ul>`
  const codeForm = props.type === undefined && props.codeForm ? props.codeForm : undefined
  const limited = props.type === undefined && props.error === "EmailRateLimited"
  const alert = limited ? limitAlert(props) : codeForm ? codeAlert(props) : ""
  const inbox =
    typeof props.inboxUrl === "string" && props.inboxUrl !== ""
      ? html`<a href="${safeUrl(props.inboxUrl)}">Open your mailbox</a>
          <span aria-hidden="true">·</span> `
      : ""
  const body = html`<h1>Check your email</h1>
    ${alert} ${limited ? "" : content} ${codeForm ? codeFormOf(codeForm) : ""}
    <p class="footer-link">${inbox}<a href="${safeUrl(props.homeUrl)}">Go to the home page</a></p>`
  return { status: 200, html: layout({ title: "Check your email", theme: props.theme, body }) }
}
