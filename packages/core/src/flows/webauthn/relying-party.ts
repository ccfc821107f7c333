/**
 * The relying party of a request: by default the site itself — its hostname as the RP id, its
 * host as the name, its trusted origin (never a Host header we do not trust) as the origin.
 */
import type { ActionContext } from "../../actions/context.js"
import { InvalidRequest } from "../../errors.js"
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
  const request = webAuthnRequest(ctx)
  const given = provider.getRelyingParty
    ? await provider.getRelyingParty({ ...request, provider }, request)
    : (provider.relyingParty ?? {})
  const rp = {
    id: given.id ?? site.hostname,
    name: given.name ?? site.host,
    origin: given.origin ?? site.origin,
  }
  if (isIPAddress(rp.id)) {
    // Browsers refuse it (WebAuthn §5.1.3: the RP id must be a domain), with an error that
    // does not say why; say it here.
    throw new InvalidRequest(
      `Passkeys need a domain name, and this site's relying party id is the IP address ${rp.id}: open the site at a domain name (e.g. http://localhost rather than http://127.0.0.1), or set relyingParty.id`,
    )
  }
  return rp
}

/** Whether a hostname is an IPv4 or IPv6 address rather than a domain. */
function isIPAddress(hostname: string): boolean {
  return /^\d{1,3}(?:\.\d{1,3}){3}$/.test(hostname) || hostname.includes(":")
}
