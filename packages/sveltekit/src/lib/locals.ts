/**
 * `event.locals.auth()`: the session, read on first call and memoized for the rest of the
 * request, so every load, layout and action shares one decrypt and at most one re-issued cookie.
 *
 * When the database is down (database sessions), it throws SvelteKit's `error(503)` and gives the
 * response a `Retry-After`: the page cannot know who is signed in, and showing it as signed out
 * would send a signed-in user to the sign-in page (or render them as a stranger). The session
 * cookie is left alone, so the session carries on once the database is back.
 */
import { getSession } from "@latch/core"
import { AuthError } from "@latch/core/errors"
import type { AuthConfig, Session } from "@latch/core/types"
import { error as httpError, type RequestEvent } from "@sveltejs/kit"
import { applyCookies } from "./cookies.js"

/**
 * The seconds a 503 asks the browser to wait, the same as core's answer from its own actions: a
 * database restart or failover takes a few seconds, and users should be back soon after.
 */
export const RETRY_AFTER_SECONDS = 5

/** What the page says; nothing from the database's error (that is in the server's log). */
export const UNAVAILABLE_MESSAGE =
  "The service is temporarily unavailable (its database did not answer). Try again in a few seconds."

/** The 503s `locals.auth()` threw, so that the `handle` hook can recognise them. */
const thrown = new WeakSet<object>()

/** Whether the error is a 503 that `locals.auth()` threw because the database was down. */
export function isUnavailableError(error: unknown): boolean {
  return typeof error === "object" && error !== null && thrown.has(error)
}

/** Whether core reports that the adapter failed (the database did not answer). */
function isAdapterFailure(error: unknown): boolean {
  return error instanceof AuthError && error.type === "AdapterError"
}

/** The 503 for the page, with `Retry-After` on whatever response SvelteKit renders. */
function unavailable(event: RequestEvent): never {
  try {
    event.setHeaders({ "retry-after": String(RETRY_AFTER_SECONDS) })
  } catch {
    // Set already (a second read in the same request, or the app's own), or too late to set:
    // the `handle` hook adds it to a 503 that lacks it.
  }
  try {
    httpError(503, UNAVAILABLE_MESSAGE)
  } catch (error) {
    thrown.add(error as object)
    throw error
  }
}

export function createLocalsAuth(
  event: RequestEvent,
  config: AuthConfig,
): () => Promise<Session | null> {
  let session: Promise<Session | null> | undefined
  return () =>
    (session ??= getSession(event.request, config).then(
      ({ session, cookies }) => {
        applyCookies(event.cookies, cookies)
        // A `session` callback that answered an empty object means no session, as in Auth.js.
        return session && Object.keys(session).length === 0 ? null : session
      },
      (error: unknown) => {
        // Core logged it (once per kind of failure, not once per request).
        if (isAdapterFailure(error)) unavailable(event)
        // A misconfiguration (an AuthError) was logged once when the configuration was
        // resolved; a page that only wants to know who is signed in gets "nobody", not a crash.
        if (!(error instanceof AuthError)) {
          const log = config.logger?.error ?? console.error
          log(error instanceof Error ? error : new Error(String(error)))
        }
        return null
      },
    ))
}
