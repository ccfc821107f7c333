/**
 * The built-in error page: for each `error` it knows, what happened, what to do about it, and a
 * way back. Anything else gets general words: the query value is never shown.
 */
import { html, safeUrl, type SafeHtml } from "./html.js"
import { layout } from "./layout.js"
import type { ErrorPageProps, RenderedPage } from "./types.js"

interface ErrorContent {
  status: number
  heading: string
  /** What happened, in the user's words. */
  message: string
  /** What to do about it. */
  advice: string
  /** The way back: a sign-in button, or the home page only. */
  next: "signin" | "home"
}

const ERRORS: Record<string, ErrorContent> = {
  Configuration: {
    status: 500,
    heading: "Server error",
    message:
      "There is a problem with the server configuration. Check the server logs for more information.",
    advice:
      "This is not something you did. Try again in a few minutes; if it keeps happening, tell the site's owner.",
    next: "home",
  },
  AccessDenied: {
    status: 403,
    heading: "Access denied",
    message: "You do not have permission to sign in.",
    advice:
      "This account may not be allowed on this site. Try signing in another way or with another account.",
    next: "signin",
  },
  Verification: {
    status: 403,
    heading: "Unable to sign in",
    message:
      "The sign in link is no longer valid. It may have been used already or it may have expired.",
    advice: "Links work once and only for a short time. Ask for a new one on the sign-in page.",
    next: "signin",
  },
}

const GENERIC: ErrorContent = {
  status: 200,
  heading: "Error",
  message: "Something went wrong.",
  advice: "Try again from the sign-in page, or go back to the home page.",
  next: "signin",
}

/** What the page says for an `error` query value: its own words, or general ones. */
function contentOf(error: unknown): ErrorContent {
  return typeof error === "string" && Object.hasOwn(ERRORS, error)
    ? (ERRORS[error] ?? GENERIC)
    : GENERIC
}

/** Renders the error page; the status depends on the error. */
export function renderErrorPage(props: ErrorPageProps): RenderedPage {
  const content = contentOf(props.error)
  const home = html`<a href="${safeUrl(props.homeUrl)}">Go to the home page</a>`
  const actions: SafeHtml =
    content.next === "signin"
      ? html`<div class="actions">
            <a class="button primary" href="${safeUrl(props.signinUrl)}">Sign in</a>
          </div>
          <p class="footer-link">${home}</p>`
      : html`<p class="footer-link">${home}</p>`
  const body = html`<h1>${content.heading}</h1>
    <p class="lead">${content.message}</p>
    <p class="advice">${content.advice}</p>
    ${actions}`
  return {
    status: content.status,
    html: layout({ title: content.heading, theme: props.theme, body }),
  }
}
