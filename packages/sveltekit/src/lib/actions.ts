/**
 * The `signIn` and `signOut` form actions. They run the flow server-side through `Auth`, with
 * no CSRF round trip: SvelteKit itself refuses cross-origin form submissions to actions
 * (`csrf.checkOrigin`, on by default). Cookies are set through `event.cookies`, and the user is
 * sent on with a 303.
 *
 * A refused credentials sign-in throws `CredentialsSignin` to the caller, so a page can answer
 * `fail(400, { code })` and show the message inline:
 *
 * ```ts
 * export const actions = {
 *   default: async (event) => {
 *     try {
 *       await signIn(event)
 *     } catch (error) {
 *       if (error instanceof CredentialsSignin) return fail(400, { code: error.code })
 *       throw error
 *     }
 *   },
 * }
 * ```
 *
 * Over the credentials rate limit, that error has `code: "rate_limited"` and the response gets
 * a `Retry-After` header.
 *
 * The password, sign-in-method and two-factor actions (`account-actions.ts`) post through the
 * same `callAuth`, and throw their refusals (`PasswordError`, `AccountError`, `TwoFactorError`)
 * the same way — but for a change of the account that asks the user to confirm it is them first
 * (`ReauthenticationRequired`, `code` `required` or `second_factor`): that one redirects (303) to
 * the re-authentication step, which comes back to the page once confirmed.
 */
import { clientAddressOf, isSameOrigin } from "./handle.js"
import { Auth } from "@latch/core"
import { ReauthenticationRequired } from "@latch/core/errors"
import type { ResponseInternal } from "@latch/core/types"
import { error, redirect, type RequestEvent } from "@sveltejs/kit"
import { configFor, type PreparedConfig } from "./config.js"
import { applyCookies } from "./cookies.js"
import { appBase } from "./paths.js"
import type { SvelteKitAuthConfigInput } from "./types.js"

const PARAM_PREFIX = "authorizationParams-"

/**
 * `redirect` to where `Auth` sends the user, which may be another site (an OAuth provider's
 * authorization endpoint). SvelteKit 3 refuses an absolute URL on another origin unless told
 * `{ external: true }`; SvelteKit 2 takes no options and allows it.
 */
const redirectTo: (status: 303, location: string, options: { external: true }) => never = redirect

/**
 * Where the user goes afterwards: the form's `redirectTo` (or `callbackUrl`), the page's
 * `?callbackUrl=` (or `?redirectTo=`), the page the form was on (`Referer`, as Auth.js), or
 * home. Not the URL the action was posted to: an action often lives on a route without a page
 * (`/signout/+page.server.ts`). `Auth` passes it through the `redirect` callback, which by
 * default keeps it on the site: a `Referer` from another site leads home.
 *
 * `referer: false` skips the form's page, for forms whose page is no place to come back to: a
 * sign-up or "forgot password" form, left for a mailed link that ends somewhere else.
 */
export function destination(
  fields: Record<string, string>,
  event: RequestEvent,
  { referer = true }: { referer?: boolean } = {},
): string {
  const { searchParams } = event.url
  return (
    fields.redirectTo ||
    fields.callbackUrl ||
    searchParams.get("callbackUrl") ||
    searchParams.get("redirectTo") ||
    (referer && event.request.headers.get("referer")) ||
    `${appBase(event.url)}/`
  )
}

async function formFields(event: RequestEvent): Promise<Record<string, string>> {
  const fields: Record<string, string> = {}
  let form: FormData
  try {
    form = await event.request.formData()
  } catch {
    return fields
  }
  for (const [key, value] of form)
    if (typeof value === "string" && !(key in fields)) fields[key] = value
  return fields
}

/**
 * A refusal that says when to try again (the credentials rate limit's, `code: "rate_limited"`,
 * carries `retryAfter` seconds): the page's answer gets a `Retry-After` header, whatever the
 * app's action then does with the error (`fail(400, { code })` renders the page, or answers
 * `use:enhance` with JSON: both carry the header).
 */
function announceRetryAfter(event: RequestEvent, error: unknown): void {
  const seconds = (error as { retryAfter?: unknown } | null)?.retryAfter
  if (typeof seconds !== "number" || !Number.isSafeInteger(seconds) || seconds <= 0) return
  try {
    event.setHeaders({ "retry-after": String(seconds) })
  } catch {
    // Set already: by the app, or by a second sign-in in the same request.
  }
}

/**
 * Calls `Auth` for an action path with a form body and applies the cookies it sets; returns its
 * result. The configuration carries the `raw` marker: the user's own errors (kind `"signIn"`:
 * `CredentialsSignin`, `PasswordError`, `AccountError`, `TwoFactorError`…) are thrown to the
 * caller, the rest end in a result that redirects (the error page). `returnRedirect` asks for
 * the `{ url, … }` answer (`X-Auth-Return-Redirect: 1`) of the actions that have more to say than
 * where to go (new recovery codes); without it, a client's own header of that name is dropped.
 */
export async function callAuth(
  event: RequestEvent,
  prepared: PreparedConfig,
  path: string,
  query: URLSearchParams,
  body: URLSearchParams,
  {
    returnRedirect = false,
    followReauthentication = true,
  }: { returnRedirect?: boolean; followReauthentication?: boolean } = {},
): Promise<ResponseInternal> {
  const url = new URL(`${prepared.authBase}${path}`, event.url.origin)
  url.search = query.toString()
  const headers = new Headers(event.request.headers)
  headers.set("content-type", "application/x-www-form-urlencoded")
  headers.delete("content-length")
  if (returnRedirect) headers.set("x-auth-return-redirect", "1")
  else headers.delete("x-auth-return-redirect")
  const request = new Request(url, { method: "POST", headers, body })
  // SvelteKit refuses cross-site form posts to actions (`csrf.checkOrigin`), but an app may
  // turn that off: check the origin here too, so a sign-in form never works cross-site.
  if (!isSameOrigin(event)) error(403, "Cross-site forms to Latch's actions are refused")
  let result
  try {
    result = await Auth(request, prepared.rawConfig, {
      csrfVerified: true,
      clientAddress: clientAddressOf(event),
    })
  } catch (error) {
    announceRetryAfter(event, error)
    // A change that needs the user to confirm it is them first: to the step (core's page, or
    // `pages.reauthenticate`), coming back to this page. Nothing was changed.
    if (followReauthentication && isAskedToReauthenticate(error))
      redirectTo(303, error.url, { external: true })
    throw error
  }
  applyCookies(event.cookies, result.cookies)
  return result
}

/** Whether the error asks for the re-authentication step (not a refusal at that step). */
function isAskedToReauthenticate(
  error: unknown,
): error is ReauthenticationRequired & { url: string } {
  return (
    error instanceof ReauthenticationRequired &&
    typeof error.url === "string" &&
    (error.code === "required" || error.code === "second_factor")
  )
}

/** `redirect` with 303 to where `Auth` sent the user, or to the error page when it said nowhere. */
export function follow(prepared: PreparedConfig, location: string | undefined): never {
  // No redirect: the configuration is broken (logged by core); say so rather than go home.
  redirectTo(303, location ?? `${prepared.authBase}/error?error=Configuration`, {
    external: true,
  })
}

/** Calls `Auth` (`callAuth`), then redirects with 303 where it sends the user. */
export async function run(
  event: RequestEvent,
  prepared: PreparedConfig,
  path: string,
  query: URLSearchParams,
  body: URLSearchParams,
): Promise<never> {
  const result = await callAuth(event, prepared, path, query, body)
  return follow(prepared, result.redirect)
}

/**
 * The fields to use: those given (a remote `form` has read the body already), else the form's.
 * Values that are not strings (a file, a nested object) are no sign-in field.
 */
export async function fieldsOf(
  event: RequestEvent,
  given: Record<string, unknown> | undefined,
): Promise<Record<string, string>> {
  if (!given) return formFields(event)
  const fields: Record<string, string> = {}
  for (const [key, value] of Object.entries(given)) {
    if (typeof value === "string") fields[key] = value
    else if (typeof value === "number" || typeof value === "boolean") fields[key] = String(value)
  }
  return fields
}

/**
 * Signs in with the form's `providerId`; no provider → the sign-in page. `fields` replaces the
 * request's form (for remote forms, see `@latch/sveltekit/remote`).
 */
export function createSignIn(input: SvelteKitAuthConfigInput) {
  return async function signIn(
    event: RequestEvent,
    given?: Record<string, unknown>,
  ): Promise<never> {
    const prepared = await configFor(input, event)
    const fields = await fieldsOf(event, given)
    const { providerId, redirectTo: _r, callbackUrl: _c, ...rest } = fields
    const callbackUrl = destination(fields, event)
    if (!providerId) {
      redirect(303, `${prepared.authBase}/signin?${new URLSearchParams({ callbackUrl })}`)
    }
    const query = new URLSearchParams()
    const body = new URLSearchParams({ callbackUrl })
    for (const [key, value] of Object.entries(rest)) {
      if (key.startsWith(PARAM_PREFIX)) query.set(key.slice(PARAM_PREFIX.length), value)
      else body.set(key, value)
    }
    return run(event, prepared, `/signin/${encodeURIComponent(providerId)}`, query, body)
  }
}

/** Signs out and sends the user to the form's `redirectTo` (default: back to the page). */
export function createSignOut(input: SvelteKitAuthConfigInput) {
  return async function signOut(
    event: RequestEvent,
    given?: Record<string, unknown>,
  ): Promise<never> {
    const prepared = await configFor(input, event)
    const fields = await fieldsOf(event, given)
    const body = new URLSearchParams({ callbackUrl: destination(fields, event) })
    return run(event, prepared, "/signout", new URLSearchParams(), body)
  }
}
