/**
 * The Password provider's actions: each form's page (GET, built in unless `pages` names one of
 * the app's) and its post (POST, CSRF-checked by the route table), which runs the flow in
 * `flows/password/` and redirects.
 *
 * ```
 * GET|POST {basePath}/signup[/<id>]            flows/password/sign-up.ts
 * GET|POST {basePath}/verify-email/<id>        flows/password/verify.ts
 * GET|POST {basePath}/reset-password[/<id>]    flows/password/reset.ts  (requestReset)
 * GET|POST {basePath}/new-password/<id>        flows/password/reset.ts  (setNewPassword)
 * GET|POST {basePath}/change-password[/<id>]   flows/password/change.ts
 * ```
 */
import type { InternalProvider } from "../config/providers.js"
import { InvalidProvider } from "../errors.js"
import { withQuery } from "../lib/url.js"
import { policyBounds } from "../password/policy.js"
import {
  passwordSettings,
  type PasswordConfig,
  type PasswordSettings,
} from "../providers/password.js"
import { htmlResponse } from "../response/html.js"
import { redirectTo } from "../response/redirect.js"
import { ensureCSRFToken } from "../security/csrf.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import { signedInUserId } from "../session/signed-in.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"

/** A Password provider and its settings. */
interface PasswordProvider {
  provider: PasswordConfig
  settings: PasswordSettings
}

function settingsOf(provider: InternalProvider | undefined): PasswordSettings | undefined {
  return (provider as Partial<PasswordConfig> | undefined)?.[passwordSettings]
}

/**
 * The Password provider named in the path; without a name (the pages' URLs), the first one
 * configured. Anything else is `InvalidProvider` (400).
 */
function passwordProviderOf(ctx: ActionContext): PasswordProvider {
  const id = ctx.request.providerId
  const named = id === undefined ? undefined : ctx.config.providers.get(id)
  const candidates = id === undefined ? [...ctx.config.providers.values()] : [named]
  for (const provider of candidates) {
    const settings = settingsOf(provider)
    if (provider && settings) return { provider: provider as PasswordConfig, settings }
  }
  throw new InvalidProvider(
    id === undefined ? "No Password provider is configured" : `No Password provider "${id}"`,
  )
}

/** The URL of one of the forms: the app's page when configured, else the built-in one. */
export function formUrl(
  ctx: ActionContext,
  page: "signUp" | "resetPassword" | "changePassword",
): string {
  const paths = {
    signUp: "signup",
    resetPassword: "reset-password",
    changePassword: "change-password",
  }
  return ctx.config.pages[page] ?? `${ctx.actionBase}/${paths[page]}`
}

/** The post URL of a form for the provider. */
function postUrl(ctx: ActionContext, action: string, provider: PasswordConfig): string {
  return `${ctx.actionBase}/${action}/${encodeURIComponent(provider.id)}`
}

/** What every password page shows. */
async function pageBasics(ctx: ActionContext, { settings }: PasswordProvider) {
  const [csrfToken, callbackUrl] = await Promise.all([
    ensureCSRFToken(ctx),
    resolveCallbackUrl(ctx),
  ])
  const { minLength, maxLength } = policyBounds(settings.policy)
  const { query } = ctx.request
  return {
    theme: ctx.config.theme,
    csrfToken,
    callbackUrl,
    error: query.error,
    code: query.error ? query.code : undefined,
    minLength,
    maxLength,
    signInUrl: withQuery(ctx.config.pages.signIn ?? `${ctx.actionBase}/signin`, {
      callbackUrl: query.callbackUrl,
    }),
  }
}

/** Sends a GET to the app's own page for this form, keeping its query. */
function toAppPage(ctx: ActionContext, page: string): ResponseInternal {
  const { query } = ctx.request
  return redirectTo(ctx, withQuery(page, { ...query }))
}

export async function signUpPage(ctx: ActionContext): Promise<ResponseInternal> {
  if (ctx.config.pages.signUp) return toAppPage(ctx, ctx.config.pages.signUp)
  const password = passwordProviderOf(ctx)
  // Sign-up is off: the sign-in page is where accounts are used.
  if (!password.settings.signUp)
    return redirectTo(ctx, ctx.config.pages.signIn ?? `${ctx.actionBase}/signin`)
  const { renderSignUpPage } = await import("../pages/password.js")
  return htmlResponse(
    renderSignUpPage({
      ...(await pageBasics(ctx, password)),
      action: postUrl(ctx, "signup", password.provider),
    }),
  )
}

export async function signUpPost(ctx: ActionContext): Promise<ResponseInternal> {
  const { provider, settings } = passwordProviderOf(ctx)
  const { signUp } = await import("../flows/password/sign-up.js")
  return redirectTo(ctx, await signUp(ctx, provider, settings))
}

/**
 * The link of a sign-up mail. Mail scanners open every link in a mail (a HEAD or a GET), so the
 * GET shows the "Confirm your address" page, whose button posts the token back (`verifyEmailPost`);
 * the GET opens the sealed token to name the address, and spends nothing. What the page asks
 * depends on who opens it (`pages/confirm-address.ts`). With the provider's `continuePage:
 * false`, the GET does the work at once — in the browser that asked for the link only; any other
 * gets the page.
 */
export async function verifyEmailLink(ctx: ActionContext): Promise<ResponseInternal> {
  if (ctx.request.method === "HEAD") return { status: 200, body: "" }
  const { provider, settings } = passwordProviderOf(ctx)
  const { token } = ctx.request.query
  const [{ readLinkToken }, { isAskerOf, verifyEmail }] = await Promise.all([
    import("../flows/password/links.js"),
    import("../flows/password/verify.js"),
  ])
  // A link that no longer works says so now, not after the click.
  const claims = await readLinkToken(ctx, token, ["signup", "verify"])
  const asker = await isAskerOf(ctx, claims)
  if (settings.continuePage === false && asker)
    return redirectTo(ctx, await verifyEmail(ctx, provider, settings, token, {}))
  const [{ renderConfirmAddressPage }, csrfToken] = await Promise.all([
    import("../pages/confirm-address.js"),
    ensureCSRFToken(ctx),
  ])
  const { query } = ctx.request
  return htmlResponse(
    renderConfirmAddressPage({
      theme: ctx.config.theme,
      mode: asker ? "asker" : claims.purpose === "signup" ? "signUp" : "verify",
      csrfToken,
      action: postUrl(ctx, "verify-email", provider),
      token: token!,
      siteHost: new URL(ctx.origin).host,
      email: claims.email,
      code: query.error ? query.code : undefined,
      homeUrl: ctx.origin,
    }),
  )
}

/** The "Confirm your address" buttons (CSRF-checked by the route table): the token is spent. */
export async function verifyEmailPost(ctx: ActionContext): Promise<ResponseInternal> {
  const { provider, settings } = passwordProviderOf(ctx)
  const { verifyEmail } = await import("../flows/password/verify.js")
  const { token, password, adopt } = ctx.request.body
  return redirectTo(ctx, await verifyEmail(ctx, provider, settings, token, { password, adopt }))
}

export async function resetPasswordPage(ctx: ActionContext): Promise<ResponseInternal> {
  if (ctx.config.pages.resetPassword) return toAppPage(ctx, ctx.config.pages.resetPassword)
  const password = passwordProviderOf(ctx)
  const { renderResetRequestPage } = await import("../pages/password.js")
  return htmlResponse(
    renderResetRequestPage({
      ...(await pageBasics(ctx, password)),
      action: postUrl(ctx, "reset-password", password.provider),
    }),
  )
}

export async function resetPasswordPost(ctx: ActionContext): Promise<ResponseInternal> {
  const { provider, settings } = passwordProviderOf(ctx)
  const { requestReset } = await import("../flows/password/reset.js")
  return redirectTo(ctx, await requestReset(ctx, provider, settings))
}

export async function newPasswordPage(ctx: ActionContext): Promise<ResponseInternal> {
  if (ctx.request.method === "HEAD") return { status: 200, body: "" }
  const password = passwordProviderOf(ctx)
  const { checkResetLink } = await import("../flows/password/reset.js")
  const { token } = ctx.request.query
  // A link that no longer works says so now, not after the user typed a new password.
  await checkResetLink(ctx, token)
  if (ctx.config.pages.newPassword) return toAppPage(ctx, ctx.config.pages.newPassword)
  const { renderNewPasswordPage } = await import("../pages/password.js")
  return htmlResponse(
    renderNewPasswordPage({
      ...(await pageBasics(ctx, password)),
      action: postUrl(ctx, "new-password", password.provider),
      token: token!,
    }),
  )
}

export async function newPasswordPost(ctx: ActionContext): Promise<ResponseInternal> {
  const { provider, settings } = passwordProviderOf(ctx)
  const { setNewPassword } = await import("../flows/password/reset.js")
  return redirectTo(ctx, await setNewPassword(ctx, provider, settings))
}

export async function changePasswordPage(ctx: ActionContext): Promise<ResponseInternal> {
  if (ctx.config.pages.changePassword) return toAppPage(ctx, ctx.config.pages.changePassword)
  const password = passwordProviderOf(ctx)
  if (!(await signedInUserId(ctx))) {
    const here = withQuery(`${ctx.actionBase}/change-password`, {
      callbackUrl: ctx.request.query.callbackUrl,
    })
    return redirectTo(
      ctx,
      withQuery(ctx.config.pages.signIn ?? `${ctx.actionBase}/signin`, { callbackUrl: here }),
    )
  }
  const { renderChangePasswordPage } = await import("../pages/password.js")
  return htmlResponse(
    renderChangePasswordPage({
      ...(await pageBasics(ctx, password)),
      action: postUrl(ctx, "change-password", password.provider),
      signsOutOthers: ctx.config.session.strategy === "database",
    }),
  )
}

export async function changePasswordPost(ctx: ActionContext): Promise<ResponseInternal> {
  const { provider, settings } = passwordProviderOf(ctx)
  const { changePassword } = await import("../flows/password/change.js")
  return redirectTo(ctx, await changePassword(ctx, provider, settings))
}
