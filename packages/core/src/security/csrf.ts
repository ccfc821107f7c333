/**
 * CSRF protection by double submit: the cookie holds a random token and an HMAC of it under
 * the secret; a state-changing POST must carry the same token in its body. A site that can
 * plant cookies (a sibling subdomain) cannot forge the HMAC, and a cross-site form cannot read
 * the token. On https the cookie is `__Host-` prefixed.
 *
 * A cookie Auth.js set (`token|SHA-256(token + secret)`, under the same name) is accepted too, so
 * that a form rendered before the move from Auth.js still posts after it; new cookies carry the
 * HMAC.
 *
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html#signed-double-submit-cookie-recommended
 */
import type { ActionContext } from "../actions/context.js"
import { MissingCSRF } from "../errors.js"
import { hmacSha256Hex, randomHex, sha256Hex, timingSafeEqual } from "../lib/crypto.js"

/** The HMAC binds the token to this purpose as well as to the secret. */
const hmacOf = (secret: string, token: string) => hmacSha256Hex(secret, `latch-csrf:${token}`)

/** The token from a cookie value `token|hmac`, if the HMAC verifies under any secret. */
async function tokenFromCookie(
  value: string | undefined,
  secrets: readonly string[],
): Promise<string | undefined> {
  if (!value) return undefined
  const separator = value.indexOf("|")
  if (separator !== 64 || value.length !== 129) return undefined
  const token = value.slice(0, separator)
  const mac = value.slice(separator + 1)
  for (const secret of secrets) {
    if (timingSafeEqual(await hmacOf(secret, token), mac)) return token
  }
  // Auth.js's construction, for a cookie it set.
  for (const secret of secrets) {
    if (timingSafeEqual(await sha256Hex(`${token}${secret}`), mac)) return token
  }
  return undefined
}

/**
 * The request's CSRF token: the one in a valid cookie, or a new one whose cookie is set on the
 * response.
 */
export async function ensureCSRFToken(ctx: ActionContext): Promise<string> {
  const { name, options } = ctx.cookieOptions.csrfToken
  const existing = await tokenFromCookie(ctx.cookies.get(name), ctx.config.secrets)
  if (existing) return existing
  const token = randomHex(32)
  ctx.cookies.set(name, `${token}|${await hmacOf(ctx.config.secrets[0]!, token)}`, options)
  return token
}

/** Whether the body's `csrfToken` matches a valid CSRF cookie. */
export async function isCSRFTokenValid(ctx: ActionContext): Promise<boolean> {
  const sent = ctx.request.body.csrfToken
  if (typeof sent !== "string" || sent.length !== 64) return false
  const expected = await tokenFromCookie(
    ctx.cookies.get(ctx.cookieOptions.csrfToken.name),
    ctx.config.secrets,
  )
  return expected !== undefined && timingSafeEqual(sent, expected)
}

/**
 * Throws `MissingCSRF` unless the request carries a matching token, or the check is off for
 * this configuration (`skipCSRFCheck`) or this request (an integration proved it same-origin).
 */
export async function verifyCSRF(ctx: ActionContext): Promise<void> {
  if (ctx.config.skipCSRFCheck || ctx.csrfVerified) return
  if (!(await isCSRFTokenValid(ctx))) {
    throw new MissingCSRF("The CSRF token is missing or does not match its cookie")
  }
}
