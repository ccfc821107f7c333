/**
 * "How you sign in", for a SvelteKit page of the signed-in user: `getSignInMethods(event)` lists
 * their ways in (linked accounts, passkeys, the password, email links), each marked whether it
 * may be removed now. Removing one is the `removeSignInMethod` form action; adding one is a
 * sign-in posted while signed in (`signIn` with another provider links it to the account).
 */
import {
  getPasskeySignals as getSignals,
  listSignInMethods,
  type PasskeyDetails,
  type PasskeySignals,
  type SignInMethod,
} from "@latch/core"
import type { RequestEvent } from "@sveltejs/kit"
import { configOf } from "./request-config.js"

export type { PasskeyDetails, PasskeySignals, SignInMethod }

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

/**
 * What the browser's WebAuthn Signal API needs to keep its passkeys of this site in step with the
 * signed-in user's: pass it to `signalPasskeys` from `@latch/sveltekit/webauthn` on their page.
 * `null` when the request has no session, `undefined` when the app has no passkey provider.
 *
 * @example
 * ```ts
 * // src/routes/account/+page.server.ts
 * import { getPasskeySignals, getSignInMethods } from "@latch/sveltekit"
 *
 * export const load = async (event) => ({
 *   methods: await getSignInMethods(event),
 *   passkeys: await getPasskeySignals(event),
 * })
 * ```
 */
export async function getPasskeySignals(
  event: Pick<RequestEvent, "locals" | "request">,
): Promise<PasskeySignals | null | undefined> {
  return getSignals(event.request, configOf(event, "getPasskeySignals"))
}
