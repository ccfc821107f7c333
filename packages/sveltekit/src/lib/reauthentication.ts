/**
 * "Confirm it is you", for SvelteKit pages of the app's own: `getReauthentication(event)` says
 * whether the signed-in user may change their account's ways in now (`fresh`) and which ways they
 * have to confirm it is them; the `reauthenticate` form action of `SvelteKitAuth` takes the
 * confirmation. Name the page in `pages.reauthenticate` to have changes sent there.
 */
import { getReauthentication as reauthenticationOf, type Reauthentication } from "@latch/core"
import type { RequestEvent } from "@sveltejs/kit"
import { configOf } from "./request-config.js"

export type { Reauthentication, ReauthenticationMethod, ReauthenticationOptions } from "@latch/core"

/**
 * The signed-in user's re-authentication: `fresh` (a change may be made now, until
 * `freshUntil`), `methods` (`"password"`, `"code"`, `"passkey"`, `"email"`: the forms to show),
 * `secondFactor`, `passkeyProvider`, `email`; `null` when the request has no session.
 *
 * @example
 * ```ts
 * // src/routes/confirm/+page.server.ts (pages: { reauthenticate: "/confirm" })
 * import { getReauthentication } from "@latch/sveltekit"
 * import { reauthenticate } from "../../auth"
 *
 * export const load = async (event) => ({ step: await getReauthentication(event) })
 * export const actions = { default: reauthenticate }
 * ```
 */
export async function getReauthentication(
  event: Pick<RequestEvent, "locals" | "request">,
): Promise<Reauthentication | null> {
  return reauthenticationOf(event.request, configOf(event, "getReauthentication"))
}
