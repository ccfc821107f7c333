/**
 * Passkey-first sign-up (`Passkey({ signUp: true })`) on a page of the app's own
 * (`pages.passkeySignUp`): `getPasskeySignUp(event)` says where the browser is — `email`,
 * `code` or `passkey` — and two form actions of `SvelteKitAuth` take the steps:
 *
 * | action                 | posts to                      | fields read                        |
 * | ---------------------- | ----------------------------- | ---------------------------------- |
 * | `startPasskeySignUp`   | `/passkey-signup/<id>`        | `email`, `providerId`, `redirectTo` |
 * | `confirmPasskeySignUp` | `/passkey-signup/<id>`        | `code`, `providerId`, `redirectTo`  |
 *
 * Each redirects (303) back to the sign-up page; a refusal is thrown as `PasskeySignUpError`
 * with its `code` (for the page to show inline). At the `passkey` stage, the browser makes the
 * passkey with `signIn("passkey", { action: "register" })` from `@latch/sveltekit/webauthn`,
 * which creates the account and signs in.
 */
import { getPasskeySignUp as passkeySignUpOf, type PasskeySignUp } from "@latch/core"
import type { RequestEvent } from "@sveltejs/kit"
import { destination } from "./actions.js"
import { formAction, type AuthFormAction } from "./account-actions.js"
import { configOf } from "./request-config.js"
import type { SvelteKitAuthConfigInput } from "./types.js"

export type { PasskeySignUp } from "@latch/core"

/** The id of the WebAuthn provider a form names; `"passkey"`, `Passkey()`'s id, when none. */
const DEFAULT_PROVIDER = "passkey"

const signUpPath = (fields: Record<string, string>) =>
  `/passkey-signup/${encodeURIComponent(fields.providerId || DEFAULT_PROVIDER)}`

/**
 * Where the browser is in its passkey-first sign-up with `provider` (default `"passkey"`):
 * `{ stage, email?, provider }`.
 *
 * @example
 * ```ts
 * // src/routes/join/+page.server.ts (pages: { passkeySignUp: "/join" })
 * import { getPasskeySignUp } from "@latch/sveltekit"
 * import { startPasskeySignUp, confirmPasskeySignUp } from "../../auth"
 *
 * export const load = async (event) => ({ signUp: await getPasskeySignUp(event) })
 * export const actions = { start: startPasskeySignUp, confirm: confirmPasskeySignUp }
 * ```
 */
export async function getPasskeySignUp(
  event: Pick<RequestEvent, "locals" | "request">,
  provider = DEFAULT_PROVIDER,
): Promise<PasskeySignUp> {
  return passkeySignUpOf(event.request, configOf(event, "getPasskeySignUp"), provider)
}

/** Mails the code for the form's `email` (or, to an address with an account, a notice). */
export function createStartPasskeySignUp(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(input, (fields, event) => ({
    path: signUpPath(fields),
    body: {
      email: fields.email ?? "",
      callbackUrl: destination(fields, event, { referer: false }),
    },
  }))
}

/** Proves the address with the form's `code`. */
export function createConfirmPasskeySignUp(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(input, (fields, event) => ({
    path: signUpPath(fields),
    body: { code: fields.code ?? "", callbackUrl: destination(fields, event, { referer: false }) },
  }))
}
