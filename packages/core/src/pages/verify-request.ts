/** The page shown after a sign-in, sign-up or password-reset email has been sent. */
import { html, safeUrl, type SafeHtml } from "./html.js"
import { layout } from "./layout.js"
import type { RenderedPage, VerifyRequestPageProps } from "./types.js"

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
  const body = html`<h1>Check your email</h1>
    ${content}
    <p class="footer-link"><a href="${safeUrl(props.homeUrl)}">Go to the home page</a></p>`
  return { status: 200, html: layout({ title: "Check your email", theme: props.theme, body }) }
}
