/**
 * Browser helpers: `signIn`, `signOut`, `getSession`, `updateSession`. Small on purpose (no
 * import of `@latch/core`): every call is a `fetch` to the actions under `paths.base` + `/auth`
 * (or `options.basePath`), with a CSRF token from the `csrf` action for POSTs.
 */
import { actionsBase as actionsBaseOf } from "./client-base.js"
import type { Session } from "@latch/core/types"

/** Where the actions live, relative to the app: `/auth` unless configured otherwise. */
export interface BasePathOption {
  /** The `basePath` of the server configuration. @default "/auth" */
  basePath?: string
}

export interface SignInOptions extends BasePathOption, Record<string, unknown> {
  /** Where to go after signing in. @default the current page */
  redirectTo?: string
  /** `false`: return the outcome instead of navigating. @default true */
  redirect?: boolean
}

export interface SignOutOptions extends BasePathOption {
  /** Where to go after signing out. @default the current page */
  redirectTo?: string
  /** `false`: stay on the page. @default true */
  redirect?: boolean
}

/** The outcome of `signIn(…, { redirect: false })`. */
export interface SignInResult {
  ok: boolean
  status: number
  /** `CredentialsSignin`, `MissingCSRF`, `AccessDenied`, … or `null`. */
  error: string | null
  /** The `code` of a `CredentialsSignin`. */
  code: string | null
  /** Where the flow continues (or ended), or `null` on error. */
  url: string | null
}

const actionsBase = (options?: BasePathOption) => actionsBaseOf(options?.basePath)

async function csrfToken(root: string): Promise<string> {
  const response = await fetch(`${root}/csrf`)
  return ((await response.json()) as { csrfToken: string }).csrfToken
}

/** POSTs a form with a CSRF token; the server answers `{ url }` instead of redirecting. */
async function post(root: string, path: string, fields: Record<string, string>) {
  const body = new URLSearchParams({ ...fields, csrfToken: await csrfToken(root) })
  const response = await fetch(`${root}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
    body,
  })
  const { url } = (await response.json()) as { url: string }
  return { response, url }
}

function go(url: string): void {
  window.location.href = url
  // A hash-only change does not load the page: reload to pick up the new session.
  if (url.includes("#")) window.location.reload()
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
  provider?: string,
  options: SignInOptions = {},
  authorizationParams?: Record<string, string> | string[][] | URLSearchParams | string,
): Promise<SignInResult | undefined> {
  const { redirectTo = window.location.href, redirect = true, basePath, ...fields } = options
  const root = actionsBase({ basePath })
  if (!provider) {
    go(`${root}/signin?${new URLSearchParams({ callbackUrl: redirectTo })}`)
    return
  }
  const query = new URLSearchParams(authorizationParams).toString()
  const form: Record<string, string> = { callbackUrl: redirectTo }
  for (const [key, value] of Object.entries(fields)) form[key] = String(value)
  const { response, url } = await post(
    root,
    `/signin/${encodeURIComponent(provider)}${query ? `?${query}` : ""}`,
    form,
  )
  const params = new URL(url, window.location.href).searchParams
  const error = params.get("error")
  if (redirect) {
    go(url)
    return
  }
  return {
    ok: response.ok && !error,
    status: response.status,
    error,
    code: params.get("code"),
    url: error ? null : url,
  }
}

/** Signs out, then goes to `redirectTo` unless `redirect: false`. Returns the destination. */
export async function signOut(options: SignOutOptions = {}): Promise<{ url: string }> {
  const { redirectTo = window.location.href, redirect = true } = options
  const { url } = await post(actionsBase(options), "/signout", { callbackUrl: redirectTo })
  if (redirect) go(url)
  return { url }
}

/** The current session, or `null`. */
export async function getSession(options?: BasePathOption): Promise<Session | null> {
  const response = await fetch(`${actionsBase(options)}/session`)
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
  const root = actionsBase(options)
  const response = await fetch(`${root}/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ csrfToken: await csrfToken(root), data }),
  })
  return response.ok ? ((await response.json()) as Session | null) : null
}
