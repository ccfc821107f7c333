import { protect } from "@latch/sveltekit"
import { guardRemoteFunctions } from "@latch/sveltekit/remote"
import type { Handle } from "@sveltejs/kit"
import { sequence } from "@sveltejs/kit/hooks"
import { handle as authHandle } from "./auth"

/** The refusals of an OpenID sign-in that the demo shows on its own error page. */
const PROVIDER_REFUSALS = new Set(["OAuthCallbackError", "OAuthAccountNotLinked", "OAuthSignin"])

/**
 * Latch sends a refusal at the provider (a cancel: `?error=access_denied` on the callback) and an
 * account linked to another user to the sign-in page, as Auth.js does, with an alert; this demo
 * shows them on its own error page (/error), with words for each, instead: the built-in sign-in
 * page's alert names no provider and no cancel. A cancel keeps its code (`code=access_denied`).
 */
const providerRefusals: Handle = async ({ event, resolve }) => {
  const response = await resolve(event)
  const location = response.headers.get("location")
  if (!location || !event.url.pathname.startsWith("/auth/callback/")) return response
  const target = new URL(location, event.url)
  const error = target.searchParams.get("error")
  if (target.origin !== event.url.origin || target.pathname !== "/auth/signin") return response
  if (error === null || !PROVIDER_REFUSALS.has(error)) return response
  const page = new URL("/error", event.url)
  page.searchParams.set("error", error)
  if (error === "OAuthCallbackError" && event.url.searchParams.get("error") === "access_denied") {
    page.searchParams.set("code", "access_denied")
  }
  const headers = new Headers(response.headers)
  headers.set("location", `${page.pathname}${page.search}`)
  return new Response(null, { status: response.status, headers })
}

/**
 * Per-path protection: everything under /admin needs a session. `protect` runs after Latch's
 * handle (which sets `locals.auth`), for every request, including client-side navigations' data
 * requests, form actions and endpoints — unlike a layout's load. It matches the route SvelteKit
 * picked and the decoded path, so `/%61dmin`, `/ADMIN` or `//admin` are kept out too; an
 * anonymous visitor gets a 303 to /signin?callbackUrl=<the page asked for>.
 *
 * First, `guardRemoteFunctions` answers remote function requests SvelteKit cannot read (a form
 * field sent twice, a body that is no form…) with a 4xx, where SvelteKit would answer 500.
 */
export const handle = sequence(
  guardRemoteFunctions,
  providerRefusals,
  authHandle,
  protect(["/admin"], { signIn: "/signin" }),
)
