/** The list of actions, and the public helpers built on it. */
import { authURLFromEnv, parseBoolean, readableEnv, type Env } from "../config/env.js"
import { UntrustedHost } from "../errors.js"
import type { LoggerInstance } from "../lib/logger.js"
import { normalizeBasePath } from "../lib/url.js"
import type { AuthAction } from "../types.js"

/** Every action Latch answers. */
export const authActions: readonly AuthAction[] = [
  "account",
  "callback",
  "change-password",
  "csrf",
  "error",
  "new-password",
  "passkey",
  "passkey-signup",
  "providers",
  "reauthenticate",
  "reset-password",
  "session",
  "signin",
  "signout",
  "signup",
  "two-factor",
  "unlink",
  "verify-email",
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
 * configuration gives none). Without it, only when the caller opts in (`config.trustHost: true`
 * or `AUTH_TRUST_HOST=true`), from the request's `Host` header and `protocol` — a header the
 * client chooses, so opt in only where your server or proxy sets it; otherwise `UntrustedHost`.
 * `X-Forwarded-Host`, `X-Forwarded-Proto` and `Forwarded` are never read.
 *
 * @param action the action, e.g. `"signin"`
 * @param protocol the request's protocol as your server knows it, e.g. `"https:"`
 * @param headers the request's headers (only `Host` is read, and only with the opt-in)
 * @param envObject the environment: `AUTH_URL` and `AUTH_TRUST_HOST` are read from it
 * @param config `basePath` (default `/auth`, or `AUTH_URL`'s path); `trustHost` to build from
 *   `Host` without `AUTH_URL`
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
  config: { basePath?: string; logger?: Partial<LoggerInstance>; trustHost?: boolean },
): URL {
  // Read safely: a refused read (Deno without --allow-env) is an unset variable.
  const env = readableEnv(envObject ?? {})
  const envURL = authURLFromEnv(env)
  if (envURL) {
    const basePath = normalizeBasePath(
      config.basePath ?? (envURL.pathname === "/" ? "/auth" : envURL.pathname),
    )
    return new URL(`${envURL.origin}${basePath}/${action}`)
  }
  // Explicitly, not by NODE_ENV: without AUTH_URL the origin would come from the client.
  if (config.trustHost !== true && parseBoolean(env.AUTH_TRUST_HOST) !== true) {
    throw new UntrustedHost(
      "createActionURL: set AUTH_URL, or opt in to the Host header with `trustHost: true` (AUTH_TRUST_HOST=true) where your server or proxy sets it",
    )
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
