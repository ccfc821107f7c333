/**
 * `@latch/core`: authentication on standard `Request` and `Response`.
 *
 * `Auth(request, config)` reads top to bottom as the life of a request:
 *
 * ```
 * resolveConfig(config)            config/resolve.ts      once per config object
 * parseRequest(request)            request/parse.ts       action, provider, body, cookies
 * route(request)                   actions/index.ts       the handler, or 405
 * createContext(...)               actions/context.ts     origin (trusted host), cookie names
 * verifyCSRF(ctx)                  security/csrf.ts       when the route asks for it
 * route.run(ctx)                   actions/<action>.ts    → flows/* → session/*
 * toResponse(result)               response/to-response.ts
 * errorToResponse(error)           response/from-error.ts  on any error
 * ```
 *
 * @module index
 */
import { createContext, type ActionContext } from "./actions/context.js"
import { route } from "./actions/index.js"
import { resolveConfig, type ResolvedConfig } from "./config/resolve.js"
import type { CookieJar } from "./cookies/jar.js"
import { AuthError, ReauthenticationRequired } from "./errors.js"
import { raw } from "./markers.js"
import { resolveOrigin } from "./request/host.js"
import { parseRequest } from "./request/parse.js"
import { isAppError } from "./response/app-error.js"
import { errorToResponse } from "./response/from-error.js"
import { toResponse } from "./response/to-response.js"
import { isUnavailable } from "./response/unavailable.js"
import { verifyCSRF } from "./security/csrf.js"
import { resolveCallbackUrl } from "./security/redirect.js"
import { reauthenticationUrl } from "./account/step-url.js"
import type { AuthAction, AuthConfig, ResponseInternal } from "./types.js"

export { raw, skipCSRFCheck, customFetch } from "./markers.js"
export { createActionURL, isAuthAction } from "./request/action-url.js"
export { setEnvDefaults } from "./config/env.js"
export { getSession } from "./session/get-session.js"
export { getAccessToken } from "./session/access-token.js"
export {
  getUserSessions,
  listSessions,
  revokeOtherSessions,
  revokeSessions,
  revokeUserSession,
  type UserSession,
} from "./session/manage.js"
export { closeSessionCache, sessionCacheStatus, type SessionCacheStatus } from "./session/cache.js"
export {
  beginTwoFactorSetup,
  getPasskeySignals,
  getTwoFactorStatus,
  listSignInMethods,
  type SignInMethod,
  type TwoFactorSetupData,
} from "./session/sign-in-methods.js"
export type { PasskeyDetails } from "./session/passkey-details.js"
export type { TwoFactorStatus } from "./flows/two-factor/status.js"
export type { SecurityKeyDetails } from "./flows/two-factor/keys.js"
export type { PasskeySignals } from "./flows/webauthn/signals.js"
export {
  getReauthentication,
  type Reauthentication,
  type ReauthenticationMethod,
  type ReauthenticationOptions,
} from "./account/get-reauthentication.js"
export { getPasskeySignUp, type PasskeySignUp } from "./flows/passkey-signup/get.js"
export type * from "./types.js"

function withCookies(result: ResponseInternal, cookies: CookieJar): ResponseInternal {
  const set = cookies.toArray()
  if (set.length === 0) return result
  return { ...result, cookies: [...(result.cookies ?? []), ...set] }
}

/** Options of `Auth` for framework integrations. */
export interface AuthOptions {
  /**
   * The integration has established that the request is not cross-site (e.g. SvelteKit's
   * origin check on form actions, or a matching `Origin` header), so the double-submit token
   * is not required. The `csrf` action keeps answering.
   */
  csrfVerified?: boolean
  /**
   * The client's IP address as the server saw it (SvelteKit: `event.getClientAddress()`; Node:
   * the socket's `remoteAddress`, or the address your own proxy put in a header you chose), for
   * per-client rate limits. Core never reads `X-Forwarded-For` itself: its first entries are
   * whatever the client wrote. Without it, only the per-account limits apply.
   */
  clientAddress?: string
}

async function handle(
  request: Request,
  config: ResolvedConfig,
  options: AuthOptions,
  isRaw: boolean,
): Promise<ResponseInternal> {
  let action: AuthAction | undefined
  let ctx: ActionContext | undefined
  try {
    const url = new URL(request.url)
    const authRequest = await parseRequest(request, url, config)
    action = authRequest.action
    if (config.error) throw config.error
    const { run, csrf } = route(authRequest)
    ctx = createContext(authRequest, config, resolveOrigin(url, config), options)
    if (csrf) await verifyCSRF(ctx)
    return withCookies(await run(ctx), ctx.cookies)
  } catch (error) {
    // Integrations running a flow server-side (form actions) get the user's own errors
    // (a refused password, an expired form) and the app's own error classes thrown, to show
    // them inline.
    if (isRaw && error instanceof AuthError && (error.kind === "signIn" || isAppError(error))) {
      // Where the step is, for the integration to send the user there (a form action's 303).
      if (error instanceof ReauthenticationRequired && ctx)
        error.url = reauthenticationUrl(ctx, await resolveCallbackUrl(ctx), error.code)
      throw error
    }
    const result = await errorToResponse(error, { config, action, ctx })
    // The database down: the cookies the flow set before it failed are dropped, above all a
    // sign-out's deletion of the session cookie, whose row is still in the database — the
    // session is kept for when the database is back, and the user can sign out again then.
    return ctx && !isUnavailable(error) ? withCookies(result, ctx.cookies) : result
  }
}

/**
 * Answers a request to one of Latch's actions under `basePath`: `csrf`, `providers`, `session`,
 * `signin`, `signout`, `callback`, `error`, `verify-request`, `webauthn-options`; with a
 * Password provider `signup`, `verify-email`, `reset-password`, `new-password`,
 * `change-password`; `account`, `unlink` (the signed-in user's sign-in methods); `two-factor`
 * (with `twoFactor`); and `reauthenticate` (the step a change to the account's ways in asks for
 * when the session's proof is stale).
 *
 * Reuse one configuration object for every request: it is resolved and validated once.
 *
 * @param request a standard `Request` whose path is under `basePath` (default `/auth`)
 * @param config the configuration; with `raw` set to the `raw` marker, the result is a
 *   `ResponseInternal` instead of a `Response`, and errors the user can fix (kind `"signIn"`,
 *   e.g. `CredentialsSignin`) are thrown instead of redirecting to the sign-in page
 * @param options for framework integrations
 * @example
 * ```ts
 * import { Auth } from "@latch/core"
 * import Credentials from "@latch/core/providers/credentials"
 *
 * const config = { trustHost: true, providers: [Credentials({ authorize })] }
 * Bun.serve({ fetch: (request) => Auth(request, config) })
 * ```
 */
export async function Auth(
  request: Request,
  config: AuthConfig & { raw: typeof raw },
  options?: AuthOptions,
): Promise<ResponseInternal>
export async function Auth(
  request: Request,
  config: Omit<AuthConfig, "raw">,
  options?: AuthOptions,
): Promise<Response>
export async function Auth(
  request: Request,
  config: AuthConfig,
  options: AuthOptions = {},
): Promise<Response | ResponseInternal> {
  // `resolveConfig` never throws: a configuration that cannot be resolved (a runtime refusing
  // an environment read, a provider factory that throws) is answered as a configuration error.
  const resolved = resolveConfig(config)
  const isRaw = resolved.source?.raw === raw
  const internal = await handle(request, resolved, options, isRaw)
  return isRaw ? internal : toResponse(internal)
}
