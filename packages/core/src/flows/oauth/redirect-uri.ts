/**
 * The `redirect_uri` of a provider, and the redirect proxy (`redirectProxyUrl`): preview
 * deployments whose URLs an OAuth app cannot list send the provider to one stable deployment,
 * which forwards the callback to the origin carried, sealed, in `state` — for as long as the
 * seal is valid, and only to an origin the deployer listed in `redirectProxyAllowedOrigins`.
 */
import type { ActionContext } from "../../actions/context.js"
import { CHECK_COOKIE_MAX_AGE } from "../../cookies/defaults.js"
import { InvalidCallbackUrl, InvalidCheck } from "../../errors.js"
import { decryptJWE, encryptJWE } from "../../lib/jwe.js"
import { isAllowedOrigin } from "../../security/origin-pattern.js"
import type { OAuthProviderConfig } from "../../providers/index.js"

/** The salt of the key that seals the origin into `state`. */
const STATE_SALT = "latch.redirect-proxy-state"

/** The proxy URL of this provider, if any. */
export function proxyOf(ctx: ActionContext, provider: OAuthProviderConfig): string | undefined {
  return provider.redirectProxyUrl ?? ctx.config.redirectProxyUrl
}

/** Where the provider sends the user back. */
export function redirectUriOf(ctx: ActionContext, provider: OAuthProviderConfig): string {
  const proxy = proxyOf(ctx, provider)
  const own = `${ctx.actionBase}/callback/${encodeURIComponent(provider.id)}`
  return proxy ? `${proxy.replace(/\/+$/, "")}/callback/${encodeURIComponent(provider.id)}` : own
}

/** A `state` value carrying this deployment's origin, for the proxy to read; it expires. */
export async function proxyState(ctx: ActionContext): Promise<string> {
  const [key] = await ctx.config.keys(STATE_SALT)
  const random = crypto.getRandomValues(new Uint8Array(16)).join(".")
  const maxAge = ctx.cookieOptions.state.options.maxAge ?? CHECK_COOKIE_MAX_AGE
  const exp = Math.floor(Date.now() / 1000) + maxAge
  return encryptJWE({ origin: ctx.origin, random, exp }, key!)
}

/** What a proxy `state` carries: the origin that started the sign-in, until it expires. */
interface ProxyState {
  origin: string
  exp: number
}

/** The payload of a proxy `state`, or `undefined` when `state` is not one of ours. */
async function openProxyState(ctx: ActionContext, value: string): Promise<ProxyState | undefined> {
  const payload = (await decryptJWE(value, await ctx.config.keys(STATE_SALT))) as {
    origin?: unknown
    exp?: unknown
  } | null
  if (typeof payload?.origin !== "string" || typeof payload.exp !== "number") return undefined
  return { origin: payload.origin, exp: payload.exp }
}

/**
 * Where a redirect proxy sends a callback on: the callback URL at the origin sealed in `state`,
 * with every parameter. `undefined` when the callback is this deployment's own (or `state` is
 * not a proxy state). The sealed origin must not have expired and must be on
 * `redirectProxyAllowedOrigins`: the authorization code in the query goes wherever this points.
 */
export async function proxyTarget(
  ctx: ActionContext,
  provider: OAuthProviderConfig,
  params: URLSearchParams,
): Promise<string | undefined> {
  const value = params.get("state")
  if (!value || proxyOf(ctx, provider) === undefined) return undefined
  const sealed = await openProxyState(ctx, value)
  if (!sealed || sealed.origin === ctx.origin) return undefined
  if (!(sealed.exp > Date.now() / 1000)) {
    throw new InvalidCheck("The redirect proxy's state has expired")
  }
  if (!isAllowedOrigin(sealed.origin, ctx.config.redirectProxyAllowedOrigins)) {
    throw new InvalidCallbackUrl(
      `The redirect proxy refused to forward a sign-in to ${sealed.origin}: add that origin (or a pattern such as https://myapp-*.example.com) to redirectProxyAllowedOrigins (AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS) on the deployment at ${ctx.origin}.`,
    )
  }
  const target = new URL(
    `${sealed.origin}${ctx.config.basePath}/callback/${encodeURIComponent(provider.id)}`,
  )
  target.search = params.toString()
  return target.href
}
