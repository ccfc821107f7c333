/** The list of actions, and the public helpers built on it. */
import { authURLFromEnv, type Env } from "../config/env.js"
import type { LoggerInstance } from "../lib/logger.js"
import { normalizeBasePath } from "../lib/url.js"
import type { AuthAction } from "../types.js"

/** Every action Latch answers. */
export const authActions: readonly AuthAction[] = [
  "callback",
  "csrf",
  "error",
  "providers",
  "session",
  "signin",
  "signout",
  "verify-request",
  "webauthn-options",
]

const actionSet = new Set<string>(authActions)

/** Whether a string names an action. */
export function isAuthAction(action: string): action is AuthAction {
  return actionSet.has(action)
}

/**
 * The absolute URL of an action: from `AUTH_URL` when set (its path is the base path when the
 * configuration gives none), else from the request's `Host` header and `protocol` — the request
 * your server received, as your server sees it. `X-Forwarded-Host`, `X-Forwarded-Proto` and
 * `Forwarded` are never read: any client can send them. Behind a proxy, set `AUTH_URL`.
 *
 * @param action the action, e.g. `"signin"`
 * @param protocol the request's protocol as your server knows it, e.g. `"https:"`
 * @param headers the request's headers (only `Host` is read)
 * @param envObject the environment: `AUTH_URL` is read from it
 * @param config `basePath` (default `/auth`, or `AUTH_URL`'s path)
 * @example
 * ```ts
 * createActionURL("signin", "https:", request.headers, process.env, { basePath: "/auth" })
 * // → https://example.com/auth/signin (AUTH_URL=https://example.com)
 * ```
 */
export function createActionURL(
  action: AuthAction,
  protocol: string,
  headers: Headers,
  envObject: Env,
  config: { basePath?: string; logger?: Partial<LoggerInstance> },
): URL {
  const envURL = authURLFromEnv(envObject ?? {})
  if (envURL) {
    const basePath = normalizeBasePath(
      config.basePath ?? (envURL.pathname === "/" ? "/auth" : envURL.pathname),
    )
    return new URL(`${envURL.origin}${basePath}/${action}`)
  }
  const scheme = (protocol || "https").replace(/:$/, "").toLowerCase()
  if (scheme !== "http" && scheme !== "https") throw new TypeError(`"protocol" must be http(s)`)
  const host = headers.get("host")
  const origin = host ? new URL(`${scheme}://${host}`) : undefined
  if (!origin || origin.username || origin.password || origin.pathname !== "/" || origin.search) {
    throw new TypeError('"headers" must carry a Host header naming a host (or set AUTH_URL)')
  }
  const basePath = normalizeBasePath(config.basePath ?? "/auth")
  return new URL(`${origin.origin}${basePath}/${action}`)
}
