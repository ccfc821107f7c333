/**
 * The site's origin for one request. Every absolute URL Latch builds (redirects, callback URLs,
 * provider lists) starts from it, so it never comes from an untrusted header.
 */
import type { ResolvedConfig } from "../config/resolve.js"
import { InvalidRequest, UntrustedHost } from "../errors.js"
import { firstForwarded } from "./action-url.js"

/** The origin and whether it is https (which turns on secure cookies). */
export interface SiteOrigin {
  origin: string
  secure: boolean
}

/**
 * `AUTH_URL` when set; else, with `trustHost`, the forwarded host and protocol or the request
 * URL's; else an `UntrustedHost` error.
 */
export function resolveOrigin(request: Request, url: URL, config: ResolvedConfig): SiteOrigin {
  if (config.authURL) {
    return { origin: config.authURL.origin, secure: config.authURL.protocol === "https:" }
  }
  if (!config.trustHost) {
    throw new UntrustedHost(
      "The Host header is not trusted. Set `trustHost: true` (or AUTH_TRUST_HOST=true) where the platform sets it safely, or set AUTH_URL.",
    )
  }
  const host = firstForwarded(request.headers.get("x-forwarded-host"))
  const proto = firstForwarded(request.headers.get("x-forwarded-proto"))
  if (!host && !proto) return { origin: url.origin, secure: url.protocol === "https:" }
  const scheme = proto ? proto.replace(/:$/, "").toLowerCase() : url.protocol.slice(0, -1)
  if (scheme !== "http" && scheme !== "https")
    throw new InvalidRequest("X-Forwarded-Proto is not http or https")
  try {
    const origin = new URL(`${scheme}://${host ?? url.host}`)
    if (origin.username || origin.password || origin.pathname !== "/" || origin.search) {
      throw new TypeError("not a bare host")
    }
    return { origin: origin.origin, secure: scheme === "https" }
  } catch {
    throw new InvalidRequest("X-Forwarded-Host is not a valid host")
  }
}
