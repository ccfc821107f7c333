/** A rendered page as a response, with headers that keep it from being framed or scripted. */
import type { RenderedPage } from "../pages/types.js"
import type { ResponseInternal } from "../types.js"

/**
 * The built-in pages need no scripts (but the passkey form's) and no external assets: the
 * policy forbids both, and
 * `frame-ancestors 'none'` stops clickjacking of the sign-in buttons. No `form-action`: forms
 * post to our own endpoints, which redirect on to OAuth servers. `Referrer-Policy: same-origin`
 * keeps the URL from other sites without hiding the page's origin from our own endpoints: with
 * `no-referrer`, browsers send `Origin: null` on the forms' POSTs, which origin checks (such as
 * SvelteKit's) rightly refuse.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; frame-ancestors 'none'; base-uri 'none'"

/**
 * A page with the passkey script may run that script (and no other: it carries a nonce fresh
 * for each response) and fetch from this origin only.
 */
function contentSecurityPolicy(page: RenderedPage): string {
  if (!page.scriptNonce) return CONTENT_SECURITY_POLICY
  return `${CONTENT_SECURITY_POLICY}; script-src 'nonce-${page.scriptNonce}'; connect-src 'self'`
}

export function htmlResponse(page: RenderedPage): ResponseInternal<string> {
  return {
    status: page.status,
    body: page.html,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": contentSecurityPolicy(page),
      "x-frame-options": "DENY",
      "referrer-policy": "same-origin",
    },
  }
}
