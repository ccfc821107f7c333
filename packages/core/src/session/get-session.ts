/**
 * A direct session read for integrations: the session and the cookies to set, without building
 * an HTTP request to `{basePath}/session` or parsing `Set-Cookie` headers back.
 */
import { resolveConfig, type ResolvedConfig } from "../config/resolve.js"
import { CookieJar } from "../cookies/jar.js"
import { resolveOrigin } from "../request/host.js"
import { isUnavailable, logUnavailable } from "../response/unavailable.js"
import type { AuthConfig, Cookie, Session } from "../types.js"
import { mayHaveFallbackSession } from "./session-cookies.js"
import { readSession } from "./read.js"

function hasSessionCookie(header: string, config: ResolvedConfig): boolean {
  return (
    header.includes(config.cookies(false).sessionToken.name) ||
    header.includes(config.cookies(true).sessionToken.name) ||
    mayHaveFallbackSession(header)
  )
}

/**
 * Reads the session of any request (a page, an API route): one decrypt, the callbacks, and the
 * session cookie re-issued only when due.
 *
 * @returns the session or `null`, and the cookies the response must set
 * @throws the configuration's error (e.g. `MissingSecret`) when it is misconfigured, and an
 *   `AdapterError` when the database could not be read (answer 503 with `Retry-After`; it is
 *   logged already)
 * @example
 * ```ts
 * const { session, cookies } = await getSession(request, config)
 * ```
 */
export async function getSession(
  request: Request,
  config: AuthConfig,
): Promise<{ session: Session | null; cookies: Cookie[] }> {
  const resolved = resolveConfig(config)
  if (resolved.error) throw resolved.error
  const header = request.headers.get("cookie")
  // Most requests of a site are anonymous: without the cookie there is nothing to parse.
  if (!header || !hasSessionCookie(header, resolved)) return { session: null, cookies: [] }
  const cookies = new CookieJar(header)
  const site = resolveOrigin(new URL(request.url), resolved)
  const secure = resolved.useSecureCookies ?? site.secure
  try {
    const session = await readSession({
      config: resolved,
      cookies,
      cookieOptions: resolved.cookies(secure),
      logger: resolved.logger,
    })
    return { session, cookies: cookies.toArray() }
  } catch (error) {
    // The database is down: logged here (once per kind of failure, not per request), thrown for
    // the integration to answer 503; the cookies are not set, so the session cookie is kept.
    if (isUnavailable(error)) logUnavailable(resolved.logger, error)
    throw error
  }
}
