/**
 * Browser helpers: `signIn`, `signOut`, `getSession`, `updateSession`. Small on purpose (no
 * import of `@latch/core`): every call is a `fetch` to the actions under `paths.base` + `/auth`
 * (or `options.basePath`).
 */
import { actionsBase } from "./client-base.js"
import { go, post, signInRequest, type Answer } from "./sign-in-request.js"
import type { ProviderId } from "@latch/core/providers"
import type { Session } from "@latch/core/types"

/** Where the actions live, relative to the app: `/auth` unless configured otherwise. */
export interface BasePathOption {
  /** The `basePath` of the server configuration. @default "/auth" */
  basePath?: string
}

/** Options of `signIn`; any other field is sent to the server (credentials, email, …). */
export interface SignInOptions<Redirect extends boolean = true>
  extends BasePathOption, Record<string, unknown> {
  /** Where to go after signing in. @default the current page */
  redirectTo?: string
  /** @deprecated Use `redirectTo`; taken when `redirectTo` is not given. */
  callbackUrl?: string
  /** `false`: return the outcome instead of navigating. @default true */
  redirect?: Redirect
}

/** Options of `signOut`. */
export interface SignOutParams<Redirect extends boolean = true> extends BasePathOption {
  /** Where to go after signing out. @default the current page */
  redirectTo?: string
  /** @deprecated Use `redirectTo`; taken when `redirectTo` is not given. */
  callbackUrl?: string
  /** `false`: stay on the page. @default true */
  redirect?: Redirect
}

/** The same as `SignOutParams`. */
export type SignOutOptions<Redirect extends boolean = true> = SignOutParams<Redirect>

/**
 * Parameters added to the provider's authorization request, in any form `URLSearchParams`
 * takes: `"prompt=login"`, `[["prompt", "login"]]`, `{ prompt: "login" }` or a `URLSearchParams`.
 */
export type SignInAuthorizationParams =
  string | string[][] | Record<string, string> | URLSearchParams

/** The outcome of `signIn(…, { redirect: false })`. */
export interface SignInResponse {
  /** `CredentialsSignin`, `AccessDenied`, `CrossSiteRequest`, … or `undefined`. */
  error: string | undefined
  /** The `code` of a `CredentialsSignin`, else `undefined`. */
  code: string | undefined
  status: number
  ok: boolean
  /** Where the flow continues (or ended), or `null` on error. */
  url: string | null
}

/** @deprecated Renamed `SignInResponse`. */
export type SignInResult = SignInResponse

/** The outcome of `signOut({ redirect: false })`. */
export interface SignOutResponse {
  /** Where the user would have gone. */
  url: string
}

/**
 * Signs in. Without a provider, opens the sign-in page. For `credentials`, `options` holds the
 * form fields (e.g. `{ password }`); for OAuth and email, the flow starts.
 *
 * @example
 * ```ts
 * const result = await signIn("credentials", { username, password, redirect: false })
 * if (result.error) message = result.code
 * ```
 */
export async function signIn(
  provider?: ProviderId,
  options?: SignInOptions<true>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<void>
export async function signIn(
  provider?: ProviderId,
  options?: SignInOptions<false>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse>
export async function signIn(
  provider?: ProviderId,
  options?: SignInOptions<boolean>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | undefined>
export async function signIn(
  provider?: ProviderId,
  options: SignInOptions<boolean> = {},
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | void> {
  // A `callbackUrl` among the fields is sent, then replaced by `redirectTo` below.
  const {
    redirectTo = options.callbackUrl ?? location.href,
    redirect = true,
    basePath,
    ...fields
  } = options
  if (!provider) {
    return go(`${actionsBase(basePath)}/signin?${new URLSearchParams({ callbackUrl: redirectTo })}`)
  }
  return signInRequest(
    provider,
    { ...fields, callbackUrl: redirectTo },
    basePath,
    authorizationParams,
    redirect,
  )
}

/** Signs out, then goes to `redirectTo` unless `redirect: false`, which returns the destination. */
export async function signOut(options?: SignOutParams<true>): Promise<void>
export async function signOut(options?: SignOutParams<false>): Promise<SignOutResponse>
export async function signOut(
  options?: SignOutParams<boolean>,
): Promise<SignOutResponse | undefined>
export async function signOut(
  options: SignOutParams<boolean> = {},
): Promise<SignOutResponse | void> {
  const { redirectTo = options.callbackUrl ?? location.href, redirect = true, basePath } = options
  const response = await post("/signout", { callbackUrl: redirectTo }, basePath)
  const { url = redirectTo } = (await response.json()) as Answer
  if (redirect) go(url)
  return { url }
}

/** The current session, or `null`. */
export async function getSession(options?: BasePathOption): Promise<Session | null> {
  const response = await fetch(`${actionsBase(options?.basePath)}/session`)
  return (await response.json()) as Session | null
}

/**
 * Updates the session: the server's `jwt` callback runs with `trigger: "update"` and `data`.
 * Returns the updated session (reload page data with `invalidateAll()` to show it everywhere).
 */
export async function updateSession(
  data: unknown,
  options?: BasePathOption,
): Promise<Session | null> {
  const root = actionsBase(options?.basePath)
  // JSON is not a form, so SvelteKit's origin check does not cover it: the double-submit token
  // of the `csrf` action does.
  const { csrfToken } = (await (await fetch(`${root}/csrf`)).json()) as { csrfToken: string }
  const response = await fetch(`${root}/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ csrfToken, data }),
  })
  return response.ok ? ((await response.json()) as Session | null) : null
}
