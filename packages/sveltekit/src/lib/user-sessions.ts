/**
 * "Where you are signed in", for a SvelteKit page of the signed-in user (database sessions):
 * `getUserSessions(event)` lists their sessions by id, the request's own marked `current`;
 * `revokeUserSession(event, id)` ends one; `revokeOtherSessions(event)` ends all but the
 * request's. Form actions calling them are CSRF-protected as every SvelteKit action is (its
 * origin check), and a session is only ever ended for the user whose cookie the request carries.
 */
import {
  getUserSessions as userSessionsOf,
  revokeOtherSessions as revokeOthers,
  revokeUserSession as revokeOne,
  type UserSession,
} from "@latch/core"
import type { RequestEvent } from "@sveltejs/kit"
import { configOf } from "./request-config.js"

export type { UserSession }

type Event = Pick<RequestEvent, "locals" | "request">

/**
 * The signed-in user's sessions, most recently used first; `null` when the request has none.
 *
 * @example
 * ```ts
 * // src/routes/account/+page.server.ts
 * import { getUserSessions, revokeUserSession } from "@latch/sveltekit"
 *
 * export const load = async (event) => ({ sessions: await getUserSessions(event) })
 * export const actions = {
 *   revoke: async (event) => {
 *     const id = (await event.request.formData().catch(() => null))?.get("id")
 *     if (typeof id === "string") await revokeUserSession(event, id)
 *   },
 * }
 * ```
 */
export async function getUserSessions(event: Event): Promise<UserSession[] | null> {
  return userSessionsOf(event.request, configOf(event, "getUserSessions"))
}

/** Ends the signed-in user's session `id`; `true` when it was theirs and is gone. */
export async function revokeUserSession(event: Event, id: string): Promise<boolean> {
  return revokeOne(event.request, configOf(event, "revokeUserSession"), id)
}

/** Ends every session of the signed-in user but the request's; returns how many. */
export async function revokeOtherSessions(event: Event): Promise<number> {
  return revokeOthers(event.request, configOf(event, "revokeOtherSessions"))
}
