/**
 * The site's origin for one request. Every absolute URL Latch builds (redirects, mailed links,
 * `redirect_uri`s, the WebAuthn origin, the provider list) starts from it, so it never comes from
 * a header the client can send: it is `AUTH_URL`, or the origin of the request's URL — which the
 * integration built from the deployer's settings (SvelteKit: `event.url`, from adapter-node's
 * `ORIGIN`, or the `PROTOCOL_HEADER`/`HOST_HEADER` the deployer named).
 *
 * Core reads no `Host`, `X-Forwarded-Host`, `X-Forwarded-Proto` or `Forwarded` header. A forged
 * one must not move a mailed sign-in link to the attacker's host (that is an account takeover).
 */
import type { ResolvedConfig } from "../config/resolved.js"
import { UntrustedHost } from "../errors.js"

/** The origin and whether it is https (which turns on secure cookies). */
export interface SiteOrigin {
  origin: string
  secure: boolean
}

/**
 * `AUTH_URL` when set; else, with `trustHost`, the origin of the request's URL; else an
 * `UntrustedHost` error.
 */
export function resolveOrigin(url: URL, config: ResolvedConfig): SiteOrigin {
  if (config.authURL) {
    return { origin: config.authURL.origin, secure: config.authURL.protocol === "https:" }
  }
  if (!config.trustHost) {
    throw new UntrustedHost(
      "The request's URL is not trusted to name this site. Set AUTH_URL to the site's origin, or `trustHost: true` (AUTH_TRUST_HOST=true) where the server builds the request URL from its own settings.",
    )
  }
  return { origin: url.origin, secure: url.protocol === "https:" }
}
