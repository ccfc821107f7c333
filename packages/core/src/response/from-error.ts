/**
 * The one place where an error becomes HTTP. Users see a code, never a stack or a secret;
 * operators find the details (and the cause) in the log.
 *
 * - malformed requests: 400 (`UnknownAction`, `InvalidRequest`), 405 with `Allow`, 413;
 * - the database down (an `AdapterError`, see unavailable.ts): 503 JSON with `Retry-After` for
 *   API actions; page actions redirect to the error page with `code=unavailable` and
 *   `Retry-After` (a form post gets a page a browser can show, never a blank 503);
 * - password hashing at capacity (`code: "busy"`, see flows/password/hashing.ts): the same
 *   way, 503 JSON with `Retry-After` for API actions (and for a limiter's refusal that no flow
 *   named a form for); a form post goes back to its form with `code=busy` and `Retry-After`;
 * - configuration errors: 500 JSON for API actions, the built-in error page for page actions;
 * - everything else on an API action: JSON (400 for a bad CSRF token, else 500);
 * - everything else on a page action: a redirect to the sign-in page (errors the user can fix)
 *   or to the error page, with `?error=` and, for credentials, `?code=` (and `Retry-After`
 *   for a rate limit's refusal).
 */
import type { ActionContext } from "../actions/context.js"
import type { ResolvedConfig } from "../config/resolved.js"
import {
  AuthError,
  errorDestination,
  type ErrorDestination,
  MethodNotAllowed,
  UntrustedHost,
  type ErrorType,
} from "../errors.js"
import { withQuery } from "../lib/url.js"
import type { AuthAction, ResponseInternal } from "../types.js"
import { HashingBusy } from "../password/limiter.js"
import { htmlResponse } from "./html.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import { redirectTo } from "./redirect.js"
import {
  isUnavailable,
  logUnavailable,
  RETRY_AFTER_SECONDS,
  UNAVAILABLE_MESSAGE,
} from "./unavailable.js"

/** Actions answered with JSON rather than pages or redirects. */
const apiActions = new Set<AuthAction>([
  "account",
  "csrf",
  "providers",
  "session",
  "webauthn-options",
])

/** Errors of the request itself, answered with a 4xx whatever the action. */
const requestErrors: Partial<Record<ErrorType, number>> = {
  UnknownAction: 400,
  InvalidRequest: 400,
  MethodNotAllowed: 405,
  PayloadTooLarge: 413,
}

/** What the failing request was doing, as far as it got. */
export interface ErrorScene {
  config: ResolvedConfig
  action: AuthAction | undefined
  ctx: ActionContext | undefined
}

function json(status: number, error: string, message: string): ResponseInternal {
  return { status, body: { error, message } }
}

/** What a client is told when password hashing is at capacity. */
const BUSY_MESSAGE = "The server is busy checking passwords. Try again in a few seconds."

/** Password hashing at capacity: the limiter's refusal, or a flow's error made of it. */
function isBusy(error: unknown): boolean {
  if (error instanceof HashingBusy) return true
  return error instanceof AuthError && (error as { code?: unknown }).code === "busy"
}

function log(error: unknown, scene: ErrorScene): void {
  if (error === scene.config.error) return // logged once, when the configuration was resolved
  if (isUnavailable(error)) return logUnavailable(scene.config.logger, error)
  // Logged once a minute where it happened (flows/password/hashing.ts): a flood must not flood
  // the log too.
  if (error instanceof HashingBusy) return scene.config.logger.debug(error.message)
  if (error instanceof AuthError && (error.kind === "signIn" || error.type in requestErrors)) {
    scene.config.logger.debug(`${error.type}: ${error.message}`)
    return
  }
  scene.config.logger.error(error instanceof Error ? error : new Error(String(error)))
}

async function configurationPage(scene: ErrorScene): Promise<ResponseInternal> {
  const { renderErrorPage } = await import("../pages/index.js")
  const home = scene.ctx?.origin ?? "/"
  return htmlResponse(
    renderErrorPage({
      theme: scene.config.theme,
      error: "Configuration",
      signinUrl: home,
      homeUrl: home,
    }),
  )
}

/** The response for an error thrown while answering a request. */
export async function errorToResponse(
  error: unknown,
  scene: ErrorScene,
): Promise<ResponseInternal> {
  log(error, scene)
  const type = error instanceof AuthError ? error.type : undefined
  const requestStatus = type ? requestErrors[type] : undefined
  if (requestStatus) {
    const response = json(requestStatus, type!, (error as Error).message)
    if (error instanceof MethodNotAllowed) response.headers = { allow: error.allow.join(", ") }
    return response
  }
  const isApi = scene.action === undefined || apiActions.has(scene.action)
  const unavailable = isUnavailable(error)
  if (unavailable && (isApi || !scene.ctx)) {
    const response = json(503, "AdapterError", UNAVAILABLE_MESSAGE)
    response.headers = { "retry-after": String(RETRY_AFTER_SECONDS) }
    return response
  }
  if (isBusy(error) && (isApi || !scene.ctx || error instanceof HashingBusy)) {
    const response = json(503, type ?? "Busy", BUSY_MESSAGE)
    response.body = { ...(response.body as object), code: "busy" }
    response.headers = { "retry-after": String(retryAfterOf(error) ?? 1) }
    return response
  }
  // The configuration's own error, or a Host we may not trust: the server's fault.
  if (error === scene.config.error || error instanceof UntrustedHost) {
    if (isApi)
      return json(500, "Configuration", `Server configuration error: ${(error as Error).message}`)
    return configurationPage(scene)
  }
  if (isApi || !scene.ctx) {
    if (type === "MissingCSRF") return json(400, type, "The CSRF token is missing or invalid.")
    return json(
      500,
      "Configuration",
      "There is a problem with the server configuration. Check the server logs for more information.",
    )
  }
  if (scene.action === "error") return configurationPage(scene)
  const ctx = scene.ctx
  const destination = errorDestination(error)
  const page = await pageOf(ctx, destination.page)
  // Back on a form, the next try still goes where the user was headed.
  const callbackUrl = destination.page === "error" ? ctx.origin : await resolveCallbackUrl(ctx)
  const response = redirectTo(
    ctx,
    withQuery(page, {
      callbackUrl:
        destination.page === "account" ||
        destination.page === "twoFactor" ||
        destination.page === "confirmEmail" ||
        new URL(callbackUrl).href === new URL(ctx.origin).href
          ? undefined
          : callbackUrl,
      error: destination.error,
      code: unavailable ? "unavailable" : destination.code,
    }),
  )
  // A refusal that ends at a known time (a rate limit) says when, on the redirect and on the
  // `{ url }` answer alike; so does the database being down.
  const retryAfter = unavailable ? RETRY_AFTER_SECONDS : retryAfterOf(error)
  if (retryAfter !== undefined) response.headers = { "retry-after": String(retryAfter) }
  return response
}

/**
 * The page an error sends the user to: the sign-in page, the error page, or the password form
 * the refused post came from (the app's page when `pages` names one). A refused new password
 * goes back to its form with the link's token; a refused change of sign-in methods goes back to
 * the page the form was on (`callbackUrl`).
 */
async function pageOf(ctx: ActionContext, page: ErrorDestination["page"]): Promise<string> {
  const { pages } = ctx.config
  const base = ctx.actionBase
  switch (page) {
    case "signIn":
      return pages.signIn ?? `${base}/signin`
    case "error":
      return pages.error ?? `${base}/error`
    case "signUp":
      return pages.signUp ?? `${base}/signup`
    case "resetPassword":
      return pages.resetPassword ?? `${base}/reset-password`
    case "changePassword":
      return pages.changePassword ?? `${base}/change-password`
    case "newPassword": {
      const { token } = ctx.request.body
      const provider = encodeURIComponent(ctx.request.providerId ?? "")
      return withQuery(pages.newPassword ?? `${base}/new-password/${provider}`, {
        token: typeof token === "string" && token.length <= 4096 ? token : undefined,
      })
    }
    case "account":
      return resolveCallbackUrl(ctx)
    case "verifyRequest":
      // A refused code: its form again, on the "check your email" page of the provider.
      return withQuery(pages.verifyRequest ?? `${base}/verify-request`, {
        provider: ctx.request.providerId,
        type: "email",
      })
    case "twoFactor":
      return pages.twoFactor ?? `${base}/two-factor`
    case "twoFactorSetup":
      return pages.twoFactorSetup ?? `${base}/two-factor/setup`
    case "reauthenticate":
      return pages.reauthenticate ?? `${base}/reauthenticate`
    case "passkeySignUp": {
      const { passkeySignUpUrl } = await import("../flows/passkey-signup/page-url.js")
      return passkeySignUpUrl(ctx, ctx.request.providerId ?? "")
    }
    case "confirmEmail": {
      // The link's page again, with its token: the password it asks for was missing or wrong.
      const { token } = ctx.request.body
      const provider = encodeURIComponent(ctx.request.providerId ?? "")
      return withQuery(`${base}/verify-email/${provider}`, {
        token: typeof token === "string" && token.length <= 4096 ? token : undefined,
      })
    }
  }
}

/**
 * The seconds a refused sign-in carries in `retryAfter` (a rate limit's refusal, hashing at
 * capacity), if any.
 */
function retryAfterOf(error: unknown): number | undefined {
  const carries = error instanceof AuthError || error instanceof HashingBusy
  const seconds = carries ? (error as { retryAfter?: unknown }).retryAfter : 0
  return typeof seconds === "number" && Number.isSafeInteger(seconds) && seconds > 0
    ? seconds
    : undefined
}
