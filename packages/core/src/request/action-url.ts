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

/** The first value of a comma-separated forwarded header. */
export function firstForwarded(value: string | null): string | null {
  if (!value) return null
  const first = value.split(",")[0]!.trim()
  return first === "" ? null : first
}

/**
 * The absolute URL of an action: from `AUTH_URL` when set (its path is the base path when the
 * configuration gives none), else from the `X-Forwarded-Host`/`Host` and `X-Forwarded-Proto`
 * headers and `protocol`.
 *
 * @example
 * ```ts
 * createActionURL("signin", "https:", request.headers, process.env, { basePath: "/auth" })
 * // → https://example.com/auth/signin
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
  const host = firstForwarded(headers.get("x-forwarded-host")) ?? headers.get("host")
  const scheme = (firstForwarded(headers.get("x-forwarded-proto")) ?? protocol ?? "https").replace(
    /:$/,
    "",
  )
  const basePath = normalizeBasePath(config.basePath ?? "/auth")
  return new URL(`${scheme}://${host}${basePath}/${action}`)
}
