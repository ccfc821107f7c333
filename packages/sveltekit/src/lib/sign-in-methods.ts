/**
 * "How you sign in", for a SvelteKit page of the signed-in user: `getSignInMethods(event)` lists
 * their ways in (linked accounts, passkeys, the password, email links), each marked whether it
 * may be removed now. Removing one is the `removeSignInMethod` form action; adding one is a
 * sign-in posted while signed in (`signIn` with another provider links it to the account).
 */
import { listSignInMethods, type SignInMethod } from "@latch/core"
import type { RequestEvent } from "@sveltejs/kit"
import { configOf } from "./request-config.js"

export type { SignInMethod }

/**
 * The signed-in user's sign-in methods; `null` when the request has no session. Needs an
 * adapter (the methods are its accounts and password hashes).
 *
 * @example
 * ```ts
 * // src/routes/account/+page.server.ts
 * import { getSignInMethods } from "@latch/sveltekit"
 *
 * export const load = async (event) => ({ methods: await getSignInMethods(event) })
 * ```
 */
export async function getSignInMethods(
  event: Pick<RequestEvent, "locals" | "request">,
): Promise<SignInMethod[] | null> {
  return listSignInMethods(event.request, configOf(event, "getSignInMethods"))
}
