/**
 * The `handle` hook. In order:
 *
 * 1. during build and prerender: `locals.auth()` resolves to `null`, no auth code runs;
 * 2. a request under `{paths.base}{basePath}` is answered by `Auth`;
 * 3. any other request gets a lazy, memoized `locals.auth()` and goes on to `resolve`.
 *    `locals.getSession()` is the same function, for apps written for Auth.js. While the
 *    database is down it throws a 503, which reaches the browser with `Retry-After`.
 *
 * CSRF: a POST to the actions is accepted when it is provably same-origin (`Origin` equals the
 * app's origin, or `Sec-Fetch-Site: same-origin`), or when it carries a double-submit token that
 * `Auth` then verifies. A cross-site POST without a token is refused with 403 — even where an
 * app turned SvelteKit's own origin check off. OAuth callbacks are the exception: state, PKCE
 * and nonce protect them. Credentials and passkey callbacks follow the rule like any other POST.
 */
import { building } from "$app/environment"
import { Auth } from "@latch/core"
import type { RequestEvent } from "@sveltejs/kit"
import { configFor, preparedFor, type PreparedConfig } from "./config.js"
import { rememberConfig } from "./request-config.js"
import {
  createLocalsAuth,
  isUnavailableError,
  RETRY_AFTER_SECONDS,
  UNAVAILABLE_MESSAGE,
} from "./locals.js"
import type { Handle, SvelteKitAuthConfigInput } from "./types.js"

/** Whether the path is `authBase` or below it. */
function isUnder(pathname: string, authBase: string): boolean {
  return (
    pathname.startsWith(authBase) &&
    (pathname.length === authBase.length || pathname[authBase.length] === "/")
  )
}

/** Whether the browser says the request comes from the app's own origin. */
export function isSameOrigin(event: Pick<RequestEvent, "request" | "url">): boolean {
  const origin = event.request.headers.get("origin")
  if (origin !== null) return origin === event.url.origin
  return event.request.headers.get("sec-fetch-site") === "same-origin"
}

/** Whether a POST body carries a `csrfToken` field (read from a clone; the original is kept). */
async function carriesCSRFToken(request: Request): Promise<boolean> {
  const type = request.headers.get("content-type") ?? ""
  try {
    if (type.includes("application/json")) {
      const body: unknown = await request.clone().json()
      return typeof body === "object" && body !== null && "csrfToken" in body
    }
    if (type.includes("form")) return (await request.clone().formData()).has("csrfToken")
  } catch {
    // An unreadable body carries no token; Auth answers the rest.
  }
  return false
}

const crossSite = () =>
  new Response(
    JSON.stringify({
      error: "CrossSiteRequest",
      message: "Cross-site POST requests need a CSRF token from the csrf action.",
    }),
    { status: 403, headers: { "content-type": "application/json", "cache-control": "no-store" } },
  )

/**
 * The client's address as the adapter sees it (adapter-node honours `ADDRESS_HEADER` and
 * `XFF_DEPTH` behind a proxy), for the per-client rate limit of email sign-in.
 */
export function clientAddressOf(event: RequestEvent): string | undefined {
  try {
    return event.getClientAddress()
  } catch {
    return undefined // some adapters, and prerendering, cannot tell
  }
}

/**
 * A hook after this one (`protect`, or the app's own) that calls `locals.auth()` while the
 * database is down gets a 503 thrown out of `resolve`, where SvelteKit would render it without
 * the `Retry-After` the page's own loads get: answer it here, with the header.
 */
function answerUnavailable(error: unknown): Response {
  if (!isUnavailableError(error)) throw error
  const message = (error as { body?: { message?: unknown } }).body?.message ?? UNAVAILABLE_MESSAGE
  return new Response(JSON.stringify({ message }), {
    status: 503,
    headers: {
      "content-type": "application/json",
      "cache-control": "no-store",
      "retry-after": String(RETRY_AFTER_SECONDS),
    },
  })
}

export function createHandle(input: SvelteKitAuthConfigInput): Handle {
  /** Answers the actions; gives every other request its lazy `locals.auth()`. */
  const route = (
    { config, authBase, oauthCallbacks }: PreparedConfig,
    event: RequestEvent,
    resolve: (event: RequestEvent) => Response | Promise<Response>,
  ): Response | Promise<Response> => {
    if (!isUnder(event.url.pathname, authBase)) {
      event.locals.auth = event.locals.getSession = createLocalsAuth(event, config)
      rememberConfig(event, config)
      // A session under an earlier release's cookie name is moved to the current name before the
      // page runs, so that a route of the app that signs out by deleting the current cookie ends it.
      if (event.request.headers.get("cookie")?.includes("latch.session-token")) {
        return event.locals
          .auth()
          .then(() => resolve(event))
          .catch(answerUnavailable)
      }
      const response = resolve(event)
      return response instanceof Response ? response : response.catch(answerUnavailable)
    }
    // An OAuth server may post its response from its own origin (`response_mode=form_post`,
    // e.g. Apple): state, PKCE and nonce protect those callbacks instead.
    const isOAuthCallback = oauthCallbacks.has(event.url.pathname)
    const clientAddress = clientAddressOf(event)
    if (event.request.method !== "POST" || isOAuthCallback) {
      return Auth(event.request, config, { clientAddress })
    }
    if (isSameOrigin(event))
      return Auth(event.request, config, { csrfVerified: true, clientAddress })
    return carriesCSRFToken(event.request).then((carries) =>
      carries ? Auth(event.request, config, { clientAddress }) : crossSite(),
    )
  }
  return ({ event, resolve }) => {
    if (building) {
      event.locals.auth = event.locals.getSession = async () => null
      return resolve(event)
    }
    // A configuration object prepared on an earlier request: no await, no promise of our own,
    // so a page that never calls locals.auth() pays a lookup and a path comparison.
    const ready = typeof input === "function" ? undefined : preparedFor(input)
    if (ready) return route(ready, event, resolve)
    return configFor(input, event).then((prepared) => route(prepared, event, resolve))
  }
}
