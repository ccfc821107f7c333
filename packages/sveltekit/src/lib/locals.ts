/**
 * `event.locals.auth()`: the session, read on first call and memoized for the rest of the
 * request, so every load, layout and action shares one decrypt and at most one re-issued cookie.
 */
import { getSession } from "@latch/core"
import { AuthError } from "@latch/core/errors"
import type { AuthConfig, Session } from "@latch/core/types"
import type { RequestEvent } from "@sveltejs/kit"
import { applyCookies } from "./cookies.js"

export function createLocalsAuth(
  event: RequestEvent,
  config: AuthConfig,
): () => Promise<Session | null> {
  let session: Promise<Session | null> | undefined
  return () =>
    (session ??= getSession(event.request, config).then(
      ({ session, cookies }) => {
        applyCookies(event.cookies, cookies)
        return session
      },
      (error: unknown) => {
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
