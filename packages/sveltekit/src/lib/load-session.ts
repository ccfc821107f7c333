/**
 * `loadSession`: what a root `+layout.server.ts` returns for the live session in the browser.
 */
import { building } from "$app/environment"
import type { Session } from "@latch/core/types"
import { SESSION_DEPENDENCY } from "./session-key.js"

/** The part of a server load event `loadSession` uses. */
export interface SessionLoadEvent {
  locals: App.Locals
  depends(...dependencies: `${string}:${string}`[]): void
}

/**
 * `{ session }` for the root layout, registered under `SESSION_DEPENDENCY` so that the live
 * session re-runs this load (and only the loads that depend on it) when it learns of a change.
 * While prerendering there is no visitor: `session` is then `undefined`, which tells the browser
 * to ask the server, rather than `null`, which would show every visitor of a prerendered page as
 * signed out.
 *
 * @example
 * ```ts
 * // src/routes/+layout.server.ts
 * import { loadSession } from "@latch/sveltekit"
 * export const load = loadSession
 * ```
 */
export async function loadSession(
  event: SessionLoadEvent,
): Promise<{ session: Session | null | undefined }> {
  event.depends(SESSION_DEPENDENCY)
  if (building) return { session: undefined }
  return { session: await event.locals.auth() }
}
