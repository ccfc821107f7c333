/**
 * The page a mailed link opens: what the link is for, and one button. Mail scanners (Outlook
 * Safe Links and others) open every link in a mail, and a link that did its work on a GET
 * would be spent before the user clicks it; a scanner does not press buttons. The button posts
 * the link's values back with a CSRF token; no script.
 */
import { html, safeUrl } from "./html.js"
import { layout } from "./layout.js"
import type { ContinuePageProps, RenderedPage } from "./types.js"

const WORDING = {
  signIn: { heading: "Continue signing in", button: "Continue signing in" },
  confirmEmail: { heading: "Confirm your address", button: "Confirm your address" },
}

/** Renders the page with the button that uses the link. */
export function renderContinuePage(props: ContinuePageProps): RenderedPage {
  const wording = WORDING[props.purpose] ?? WORDING.signIn
  const site = html`<strong>${props.siteHost}</strong>`
  const email = typeof props.email === "string" && props.email !== "" ? props.email : undefined
  const address = email ? html`<strong>${email}</strong>` : ""
  const lead =
    props.purpose === "confirmEmail"
      ? email
        ? html`Confirm ${address} as the address of your account at ${site}.`
        : html`Confirm the address of your account at ${site}.`
      : email
        ? html`Sign in to ${site} as ${address}.`
        : html`Sign in to ${site}.`
  const hidden = Object.entries(props.fields).map(([name, value]) =>
    typeof value === "string" ? html`<input type="hidden" name="${name}" value="${value}" />` : "",
  )
  const body = html`<h1>${wording.heading}</h1>
    <p class="lead">${lead}</p>
    <form method="post" action="${safeUrl(props.action)}">
      <input type="hidden" name="csrfToken" value="${props.csrfToken}" />
      ${hidden}
      <button type="submit" class="button primary">${wording.button}</button>
      <p class="hint">
        One more step, so that the link still works when your email service checks it before you
        open it.
      </p>
    </form>
    <p class="footer-link"><a href="${safeUrl(props.homeUrl)}">Go to the home page</a></p>`
  return { status: 200, html: layout({ title: wording.heading, theme: props.theme, body }) }
}
