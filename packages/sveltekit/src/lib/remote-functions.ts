/**
 * `@latch/sveltekit/remote`: the session in SvelteKit's remote functions (`query`, `form`,
 * `command` from `$app/server`, experimental in SvelteKit 2.27+, behind
 * `kit.experimental.remoteFunctions`), and sign-in and sign-out as remote forms.
 *
 * A remote function has no `event` parameter: these read the request through
 * `getRequestEvent()`, so they work in any remote function and in anything it calls, and also in
 * loads, actions and endpoints. They need the `handle` hook, as `locals.auth()` does.
 *
 * The file is not named `remote.ts`: SvelteKit 3 takes a module named so, even in a package, for
 * a module of remote functions, and refuses every other export it has.
 */
import { form, getRequestEvent } from "$app/server"
import { CredentialsSignin, EmailSignInError, SignInError } from "@latch/core/errors"
import type { Session } from "@latch/core/types"
import { error, type RequestEvent } from "@sveltejs/kit"

export { guardRemoteFunctions } from "./remote-guard.js"

/**
 * The session of the request being answered, or `null`.
 *
 * @example
 * ```ts
 * // src/routes/data.remote.ts
 * import { query } from "$app/server"
 * import { getSession } from "@latch/sveltekit/remote"
 * export const greeting = query(async () => `Hello, ${(await getSession())?.user?.name ?? "guest"}`)
 * ```
 */
export function getSession(): Promise<Session | null> {
  return getRequestEvent().locals.auth()
}

/**
 * The session of the request being answered; without one, a 401 error ends the remote function
 * (its caller gets an `HttpError`, a form its error page). With `allow`, a session it refuses
 * ends it with a 403. The guard belongs in each remote function: a remote function is an
 * endpoint of its own, which no page's load or layout guard covers.
 *
 * @example
 * ```ts
 * export const deleteNote = command(v.string(), async (id) => {
 *   const session = await requireSession()
 *   await notes.delete(id, session.user!.id!)
 * })
 * export const audit = query(async () => {
 *   await requireSession((session) => session.user?.role === "admin")
 *   return readAuditLog()
 * })
 * ```
 */
export async function requireSession(
  allow?: (session: Session) => boolean | Promise<boolean>,
): Promise<Session> {
  const session = await getSession()
  if (!session) error(401, "Sign in to do this.")
  if (allow && !(await allow(session))) error(403, "You may not do this.")
  return session
}

/** A form action of `SvelteKitAuth`: its `signIn` or `signOut`. */
export type FormAction = (event: RequestEvent, fields?: Record<string, unknown>) => Promise<never>

/**
 * The fields of the remote forms, all strings: `providerId`, `redirectTo`, and the provider's
 * own. Bind each input with `form.fields.<name>.as(type)` (SvelteKit 3 refuses other fields).
 */
export type SignInFields = Record<string, string>

/**
 * What a remote sign-in form's `result` holds after a refused credentials sign-in, or an email
 * sign-in that could not start (an address that is not one plain address, a mail not sent).
 */
export interface SignInFormResult {
  /** `"CredentialsSignin"`, `"EmailSignInError"`, or another refusal's type. */
  error: string
  /**
   * The refusal's `code` (`"credentials"`, `"rate_limited"`, or the app's own); `"email"` for
   * an email sign-in that could not start; a passkey refusal's own code.
   */
  code: string
}

/**
 * Sign-in as a remote `form`, from `SvelteKitAuth`'s `signIn`: the same fields as the form
 * action (`providerId`, `redirectTo`, the provider's own such as `username` and `password`,
 * `authorizationParams-*`), the same origin check, and a redirect where the flow continues. A
 * refused credentials sign-in does not throw: the form's `result` is `{ error, code }`. Bind
 * inputs with `fields.<name>.as(type)`, as SvelteKit's remote forms want.
 *
 * @example
 * ```ts
 * // src/routes/auth.remote.ts
 * import { signInForm, signOutForm } from "@latch/sveltekit/remote"
 * import { signIn, signOut } from "../auth"
 * export const signInRemote = signInForm(signIn)
 * export const signOutRemote = signOutForm(signOut)
 * ```
 */
export function signInForm(signIn: FormAction) {
  return form("unchecked", async (fields: SignInFields): Promise<SignInFormResult> => {
    try {
      return await signIn(getRequestEvent(), fields)
    } catch (refusal) {
      if (refusal instanceof CredentialsSignin) return { error: refusal.type, code: refusal.code }
      // Whatever a visitor typed in the email field: the form's result, as the form action's
      // fail(400), never an internal error.
      if (refusal instanceof EmailSignInError) return { error: refusal.type, code: "email" }
      // Another refused sign-in (a passkey posted without its challenge): the same.
      if (refusal instanceof SignInError) {
        const code = (refusal as { code?: unknown }).code
        return { error: refusal.type, code: typeof code === "string" ? code : "signin" }
      }
      throw refusal
    }
  })
}

/** Sign-out as a remote `form`, from `SvelteKitAuth`'s `signOut`; `redirectTo` as the action's. */
export function signOutForm(signOut: FormAction) {
  return form("unchecked", async (fields: SignInFields): Promise<never> => {
    return signOut(getRequestEvent(), fields)
  })
}
