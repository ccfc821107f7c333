/** The page shown after a sign-in email has been sent. */
import { html, safeUrl } from "./html.js"
import { layout } from "./layout.js"
import type { RenderedPage, VerifyRequestPageProps } from "./types.js"

/** Renders the "check your email" page. */
export function renderVerifyRequestPage(props: VerifyRequestPageProps): RenderedPage {
  const host = typeof props.emailHost === "string" && props.emailHost !== "" ? props.emailHost : ""
  const body = html`<h1>Check your email</h1>
    <p class="lead">
      A sign in link has been sent to your email
      address${host ? html` at <strong>${host}</strong>` : ""}.
    </p>
    <ul class="notes">
      <li>Open the link in the email to finish signing in.</li>
      <li>The link works once and expires after a while.</li>
      <li>If the email is not in your inbox, check your spam folder.</li>
    </ul>
    <p class="footer-link"><a href="${safeUrl(props.homeUrl)}">Go to the home page</a></p>`
  return { status: 200, html: layout({ title: "Check your email", theme: props.theme, body }) }
}
