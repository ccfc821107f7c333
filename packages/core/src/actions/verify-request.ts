/**
 * `GET {basePath}/verify-request` → "check your email" (or a redirect to `pages.verifyRequest`).
 * When the email provider mails a code too, the page has the form to type it, which posts to
 * `{basePath}/callback/<provider>`; a refused code comes back here with `error` and `code`.
 */
import { isEmailProvider } from "../config/providers.js"
import { withQuery } from "../lib/url.js"
import { htmlResponse } from "../response/html.js"
import { redirectTo } from "../response/redirect.js"
import { ensureCSRFToken } from "../security/csrf.js"
import type { ResponseInternal } from "../types.js"
import type { VerifyRequestCodeForm } from "../pages/types.js"
import type { ActionContext } from "./context.js"

/** The code form, when the page is for an email provider whose mails carry a code. */
async function codeFormOf(
  ctx: ActionContext,
  providerId: string | undefined,
): Promise<VerifyRequestCodeForm | undefined> {
  const provider = providerId === undefined ? undefined : ctx.config.providers.get(providerId)
  if (!provider || !isEmailProvider(provider)) return undefined
  const { codeSettings } = await import("../flows/email/code-options.js")
  const settings = codeSettings(provider)
  if (!settings) return undefined
  return {
    action: `${ctx.actionBase}/callback/${encodeURIComponent(provider.id)}`,
    csrfToken: await ensureCSRFToken(ctx),
    length: settings.length,
  }
}

/**
 * The email provider that sent the mail: the one named, or, for a Password provider's mail,
 * the first that can send any message (`sendMail`), which is what sends them by default.
 */
function mailingProvider(ctx: ActionContext, providerId: string | undefined) {
  const named = providerId === undefined ? undefined : ctx.config.providers.get(providerId)
  if (!named) return undefined
  if (isEmailProvider(named)) return named
  for (const provider of ctx.config.providers.values()) {
    if (isEmailProvider(provider) && typeof provider.sendMail === "function") return provider
  }
  return undefined
}

export async function verifyRequestPage(ctx: ActionContext): Promise<ResponseInternal> {
  const { verifyRequest } = ctx.config.pages
  const { provider, type, host, error, code } = ctx.request.query
  if (verifyRequest) {
    return redirectTo(ctx, withQuery(verifyRequest, { provider, type, host, error, code }))
  }
  const [{ renderVerifyRequestPage }, { isPlainAddress }, { rateLimitWindow }] = await Promise.all([
    import("../pages/index.js"),
    import("../flows/email/address.js"),
    import("../flows/email/rate-limit.js"),
  ])
  const mailer = mailingProvider(ctx, provider)
  const window = mailer && rateLimitWindow(mailer)
  // The mail's host, only if it is a domain name: the page shows it, escaped.
  const emailHost = host && isPlainAddress(`x@${host}`) ? host : undefined
  const password = type === "signup" || type === "reset" ? type : undefined
  return htmlResponse(
    renderVerifyRequestPage({
      theme: ctx.config.theme,
      homeUrl: ctx.origin,
      emailHost,
      type: password,
      codeForm: password ? undefined : await codeFormOf(ctx, provider),
      error,
      code,
      signInUrl: ctx.config.pages.signIn ?? `${ctx.actionBase}/signin`,
      inboxUrl: mailer?.inboxUrl,
      ...(window !== undefined && { limitMinutes: Math.ceil(window / 60) }),
    }),
  )
}
