/**
 * A `Request` → an `AuthRequest`: which action, which provider, and the inputs, read once.
 */
import type { ResolvedConfig } from "../config/resolved.js"
import { CookieJar } from "../cookies/jar.js"
import { UnknownAction } from "../errors.js"
import type { AuthAction } from "../types.js"
import { isAuthAction } from "./action-url.js"
import { readBody, type RequestBody } from "./body.js"

/** What the actions need of a request. */
export interface AuthRequest {
  action: AuthAction
  /** The path segment after the action, e.g. `github` in `/auth/signin/github`. */
  providerId: string | undefined
  method: string
  url: URL
  headers: Headers
  /** The first value of each query parameter. */
  query: Record<string, string>
  /** The parsed body of a POST; `{}` otherwise. */
  body: RequestBody
  cookies: CookieJar
  /** The original request, as handed to `authorize`. */
  request: Request
}

/**
 * `{basePath}/<action>[/<providerId>]` → `{ action, providerId }`; anything else is an
 * `UnknownAction`. Split on "/", no regular expressions.
 */
export function parseActionPath(
  pathname: string,
  basePath: string,
): {
  action: AuthAction
  providerId: string | undefined
} {
  if (!pathname.startsWith(`${basePath}/`)) {
    throw new UnknownAction(`The path is not under the base path "${basePath || "/"}"`)
  }
  const segments = pathname.slice(basePath.length + 1).split("/")
  if (segments.length > 1 && segments[segments.length - 1] === "") segments.pop()
  const [action = "", providerSegment, ...rest] = segments
  if (!isAuthAction(action) || rest.length > 0) throw new UnknownAction("Unsupported action")
  let providerId: string | undefined
  if (providerSegment !== undefined && providerSegment !== "") {
    try {
      providerId = decodeURIComponent(providerSegment)
    } catch {
      throw new UnknownAction("The provider id in the path is not valid")
    }
  }
  return { action, providerId }
}

function firstValues(params: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {}
  for (const [key, value] of params) {
    if (Object.hasOwn(query, key)) continue
    Object.defineProperty(query, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return query
}

/** Parses the request; the body is read only for POST. */
export async function parseRequest(
  request: Request,
  url: URL,
  config: ResolvedConfig,
): Promise<AuthRequest> {
  const { action, providerId } = parseActionPath(url.pathname, config.basePath)
  const method = request.method.toUpperCase()
  return {
    action,
    providerId,
    method,
    url,
    headers: request.headers,
    query: url.search ? firstValues(url.searchParams) : {},
    body: method === "POST" ? await readBody(request) : {},
    cookies: new CookieJar(request.headers.get("cookie")),
    request,
  }
}
