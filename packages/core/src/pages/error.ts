/** The built-in error page. */
import { html, safeUrl, type SafeHtml } from "./html.js"
import { layout } from "./layout.js"
import type { ErrorPageProps, RenderedPage } from "./types.js"

interface ErrorContent {
  status: number
  heading: string
  message: string
  /** Whether to offer a link back to the sign-in page. */
  signin?: boolean
}

const ERRORS: Record<string, ErrorContent> = {
  Configuration: {
    status: 500,
    heading: "Server error",
    message:
      "There is a problem with the server configuration. Check the server logs for more information.",
  },
  AccessDenied: {
    status: 403,
    heading: "Access denied",
    message: "You do not have permission to sign in.",
  },
  Verification: {
    status: 403,
    heading: "Unable to sign in",
    message:
      "The sign in link is no longer valid. It may have been used already or it may have expired.",
    signin: true,
  },
}

const GENERIC: ErrorContent = { status: 200, heading: "Error", message: "Something went wrong." }

/** Renders the error page; the status depends on the error. */
export function renderErrorPage(props: ErrorPageProps): RenderedPage {
  const error = props.error
  const content =
    typeof error === "string" && Object.hasOwn(ERRORS, error) ? (ERRORS[error] ?? GENERIC) : GENERIC
  const home = html`<a href="${safeUrl(props.homeUrl)}">Go to the home page</a>`
  const actions: SafeHtml = content.signin
    ? html`<div class="actions">
          <a class="button primary" href="${safeUrl(props.signinUrl)}">Sign in</a>
        </div>
        <p class="footer-link">${home}</p>`
    : html`<p class="footer-link">${home}</p>`
  const body = html`<h1>${content.heading}</h1>
    <p class="lead">${content.message}</p>
    ${actions}`
  return {
    status: content.status,
    html: layout({ title: content.heading, theme: props.theme, body }),
  }
}
