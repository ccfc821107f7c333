/**
 * `GET {basePath}/signin` → the sign-in page (or a redirect to `pages.signIn`).
 * `POST {basePath}/signin/<provider>` → starts the provider's flow. A credentials provider has
 * nothing to start: its sign-in is answered as `POST {basePath}/callback/<provider>` is, so a
 * client can post every provider to one URL; so is a WebAuthn response. An email provider sends
 * its link.
 */
import { publicProviders } from "./providers.js"
import { withQuery } from "../lib/url.js"
import { htmlResponse } from "../response/html.js"
import { redirectTo } from "../response/redirect.js"
import { ensureCSRFToken } from "../security/csrf.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import type { ResponseInternal } from "../types.js"
import { passkeySignUpUrl } from "../flows/passkey-signup/page-url.js"
import type { ActionContext } from "./context.js"
import { providerOf } from "./provider.js"
import {
  isCredentialsProvider,
  isEmailProvider,
  isOAuthProvider,
  isWebAuthnProvider,
} from "../config/providers.js"
import { InvalidProvider } from "../errors.js"
import { signInWithCredentials, signInWithWebAuthn } from "./callback.js"
import { formUrl } from "./password.js"
import { passwordSettings, type PasswordConfig } from "../providers/password.js"
import { defaultGetUserInfo } from "../flows/webauthn/user-info.js"

export async function signInPage(ctx: ActionContext): Promise<ResponseInternal> {
  const { query } = ctx.request
  const { signIn } = ctx.config.pages
  if (signIn) {
    return redirectTo(
      ctx,
      withQuery(signIn, { callbackUrl: query.callbackUrl, error: query.error, code: query.code }),
    )
  }
  const [{ renderSignInPage }, csrfToken, callbackUrl] = await Promise.all([
    import("../pages/index.js"),
    ensureCSRFToken(ctx),
    resolveCallbackUrl(ctx),
  ])
  const providers = Object.values(publicProviders(ctx)).map((provider) => {
    const config = ctx.config.providers.get(provider.id)!
    if (isWebAuthnProvider(config)) {
      return {
        ...provider,
        type: config.type,
        credentials: config.formFields,
        // Only an app's own `getUserInfo` lets an anonymous visitor register a passkey.
        registers: config.getUserInfo !== defaultGetUserInfo,
        optionsUrl: `${ctx.actionBase}/webauthn-options/${encodeURIComponent(config.id)}`,
        conditionalUI: config.enableConditionalUI,
        ...(config.signUp === true
          ? {
              passkeySignUp: passkeySignUpUrl(ctx, config.id, {
                callbackUrl:
                  new URL(callbackUrl).href === new URL(ctx.origin).href ? undefined : callbackUrl,
              }),
            }
          : {}),
      }
    }
    const password = (config as Partial<PasswordConfig>)[passwordSettings]
    return {
      ...provider,
      type: config.type,
      credentials: isCredentialsProvider(config) ? config.credentials : undefined,
      passwordLinks: password && {
        signUp: password.signUp ? withQuery(formUrl(ctx, "signUp"), { callbackUrl }) : undefined,
        resetPassword: withQuery(formUrl(ctx, "resetPassword"), { callbackUrl }),
      },
    }
  })
  return htmlResponse(
    renderSignInPage({
      theme: ctx.config.theme,
      csrfToken,
      callbackUrl,
      providers,
      error: query.error,
      code: query.code,
      email: query.email,
    }),
  )
}

export async function startSignIn(ctx: ActionContext): Promise<ResponseInternal> {
  if (ctx.request.providerId === undefined) {
    return redirectTo(ctx, ctx.config.pages.signIn ?? `${ctx.actionBase}/signin`)
  }
  const provider = providerOf(ctx)
  if (isCredentialsProvider(provider)) return signInWithCredentials(ctx, provider)
  if (isWebAuthnProvider(provider)) return signInWithWebAuthn(ctx, provider)
  if (isOAuthProvider(provider)) {
    const { startOAuth } = await import("../flows/oauth/index.js")
    return redirectTo(ctx, await startOAuth(ctx, provider))
  }
  if (isEmailProvider(provider)) {
    const { startEmailSignIn } = await import("../flows/email/start.js")
    return redirectTo(ctx, await startEmailSignIn(ctx, provider, await resolveCallbackUrl(ctx)))
  }
  throw new InvalidProvider(`Provider "${provider.id}" cannot start a sign-in`)
}
