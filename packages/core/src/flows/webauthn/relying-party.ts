/**
 * The relying party of a request: by default the site itself — its hostname as the RP id, its
 * host as the name, its trusted origin (never a Host header we do not trust) as the origin.
 */
import type { ActionContext } from "../../actions/context.js"
import type { RelyingParty, WebAuthnConfig, WebAuthnRequest } from "../../providers/webauthn.js"

/** What the provider's hooks see of the request. */
export function webAuthnRequest(ctx: ActionContext): WebAuthnRequest {
  return {
    url: ctx.request.url,
    query: ctx.request.query,
    headers: ctx.request.headers,
    origin: ctx.origin,
  }
}

/** The relying party for this request, defaults filled. */
export async function relyingParty(
  ctx: ActionContext,
  provider: WebAuthnConfig,
): Promise<RelyingParty> {
  const site = new URL(ctx.origin)
  const given = provider.getRelyingParty
    ? await provider.getRelyingParty(webAuthnRequest(ctx))
    : (provider.relyingParty ?? {})
  return {
    id: given.id ?? site.hostname,
    name: given.name ?? site.host,
    origin: given.origin ?? site.origin,
  }
}
