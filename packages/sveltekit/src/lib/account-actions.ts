/**
 * The form actions of password accounts and of the signed-in user's sign-in methods. Each posts
 * its form to one of core's actions (under `basePath`) through `run`, as `signIn` does: the same
 * origin check, no CSRF round trip, cookies through `event.cookies`, a 303 on success.
 *
 * | action                 | posts to                | fields read                        |
 * | ---------------------- | ----------------------- | ---------------------------------- |
 * | `signUp`               | `/signup/<id>`          | `email`, `password`, `name`        |
 * | `requestPasswordReset` | `/reset-password/<id>`  | `email`                            |
 * | `setNewPassword`       | `/new-password/<id>`    | `token` (or `?token=`), `password` |
 * | `changePassword`       | `/change-password/<id>` | `currentPassword`, `password`      |
 * | `removeSignInMethod`   | `/unlink/<provider>`    | `provider`, `id`                   |
 *
 * `<id>` is the form's `providerId`, by default `"password"` (the Password provider's default
 * id). All but `setNewPassword` read `redirectTo` too (its link carries where it goes). Only the
 * fields listed are posted: a form's other fields (a "repeat password") never reach core as if
 * they were its own.
 *
 * The user's own mistakes are thrown rather than redirected, so a page shows them inline:
 * `PasswordError` (a password the policy refuses, a wrong current password, not one address…)
 * and `AccountError` (the last way to sign in, a method that is not theirs), each with a `code`.
 * Over a rate limit the error has `code: "rate_limited"` and `retryAfter`, and the page's response
 * gets a `Retry-After` header. Everything else ends in a 303: a link that no longer works
 * (`Verification`) or a configuration error goes to the error page.
 */
import type { RequestEvent } from "@sveltejs/kit"
import { destination, fieldsOf, run } from "./actions.js"
import { configFor } from "./config.js"
import type { SvelteKitAuthConfigInput } from "./types.js"

/**
 * A form action. `fields`, when given, replaces the request's form (a remote `form` passes what
 * it read). It never returns: it redirects, or throws the refusal.
 */
export type AuthFormAction = (
  event: RequestEvent,
  fields?: Record<string, unknown>,
) => Promise<never>

/** What an action posts: core's action path (under `basePath`) and the form body. */
interface Post {
  path: string
  body: Record<string, string | undefined>
}

/** The id of the Password provider a form names; `"password"`, its default, when none. */
const DEFAULT_PASSWORD_PROVIDER = "password"

function passwordPath(action: string, fields: Record<string, string>): string {
  return `/${action}/${encodeURIComponent(fields.providerId || DEFAULT_PASSWORD_PROVIDER)}`
}

/** A form action that posts what `describe` makes of the form. */
function formAction(
  input: SvelteKitAuthConfigInput,
  describe: (fields: Record<string, string>, event: RequestEvent) => Post,
): AuthFormAction {
  return async (event, given) => {
    const prepared = await configFor(input, event)
    const { path, body } = describe(await fieldsOf(event, given), event)
    const form = new URLSearchParams()
    for (const [name, value] of Object.entries(body)) if (value !== undefined) form.set(name, value)
    return run(event, prepared, path, new URLSearchParams(), form)
  }
}

/**
 * Asks for an account: sends the "check your email" mail and redirects to the verify-request
 * page, whether or not the address has an account. The destination (`redirectTo`) is where the
 * mailed link leads once followed; it is not the sign-up page itself (`Referer`): the user
 * leaves that page for their mail.
 */
export function createSignUp(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(input, (fields, event) => ({
    path: passwordPath("signup", fields),
    body: {
      email: fields.email,
      password: fields.password,
      name: fields.name,
      callbackUrl: destination(fields, event, { referer: false }),
    },
  }))
}

/**
 * Asks for a reset link: mails it (or, to an address without an account, a mail saying so) and
 * redirects to the verify-request page either way. The destination is where the user lands
 * once the new password is set; not the "forgot password" page, which they leave.
 */
export function createRequestPasswordReset(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(input, (fields, event) => ({
    path: passwordPath("reset-password", fields),
    body: { email: fields.email, callbackUrl: destination(fields, event, { referer: false }) },
  }))
}

/**
 * Sets the password a reset link allows: signs the user in (every other session ends) and
 * redirects where the reset request was headed; no destination of its own, the link carries it.
 * The token is the form's `token` field, else the page's `?token=` (a form without `action`
 * posts to the page's URL, query and all).
 */
export function createSetNewPassword(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(input, (fields, event) => ({
    path: passwordPath("new-password", fields),
    body: {
      token: fields.token || event.url.searchParams.get("token") || undefined,
      password: fields.password,
    },
  }))
}

/**
 * Changes the signed-in user's password, given the current one; their other sessions end
 * (database sessions) and a notification is mailed. Returns to the page by default.
 */
export function createChangePassword(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(input, (fields, event) => ({
    path: passwordPath("change-password", fields),
    body: {
      currentPassword: fields.currentPassword,
      password: fields.password,
      callbackUrl: destination(fields, event),
    },
  }))
}

/**
 * Removes one of the signed-in user's sign-in methods, named as `getSignInMethods` lists it:
 * `provider` and `id` (`""` for the password). Returns to the page by default.
 */
export function createRemoveSignInMethod(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(input, (fields, event) => ({
    // No provider: `/unlink/`, which core refuses as a method not found.
    path: `/unlink/${encodeURIComponent(fields.provider ?? "")}`,
    body: { id: fields.id, callbackUrl: destination(fields, event) },
  }))
}
