/**
 * The `redirect_uri` of a provider, and the redirect proxy (`redirectProxyUrl`): preview
 * deployments whose URLs an OAuth app cannot list send the provider to one stable deployment,
 * which forwards the callback to the origin carried, sealed, in `state`.
 */
import type { ActionContext } from "../../actions/context.js"
import { decryptJWE, encryptJWE } from "../../lib/jwe.js"
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

/** A `state` value carrying this deployment's origin, for the proxy to read. */
export async function proxyState(ctx: ActionContext): Promise<string> {
  const [key] = await ctx.config.keys(STATE_SALT)
  const random = crypto.getRandomValues(new Uint8Array(16)).join(".")
  return encryptJWE({ origin: ctx.origin, random }, key!)
}

/** The origin sealed in a proxy `state`, or `undefined` when `state` is not one of ours. */
export async function originOfState(
  ctx: ActionContext,
  value: string,
): Promise<string | undefined> {
  const payload = (await decryptJWE(value, await ctx.config.keys(STATE_SALT))) as {
    origin?: unknown
  } | null
  return typeof payload?.origin === "string" ? payload.origin : undefined
}
