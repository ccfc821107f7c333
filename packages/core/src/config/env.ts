/**
 * The `AUTH_*` environment variables. Read once per configuration, never per request.
 */
import type { AuthConfig } from "../types.js"
import type { Env } from "../types/env.js"
import type { ProviderConfig } from "../types/provider-config.js"
import { isProduction, platformPinsOrigin } from "./platform.js"
import { readableEnv } from "./readable-env.js"

export { envRefusal, readableEnv } from "./readable-env.js"
export type { Env } from "../types/env.js"

/**
 * `process.env` where there is one, else an empty environment (workerd without
 * `nodejs_compat` has no `process`); readable whatever the runtime's permissions.
 */
export function processEnv(): Env {
  try {
    const env = (globalThis as { process?: { env?: Env } }).process?.env
    return env ? readableEnv(env) : {}
  } catch (error) {
    // `process` itself refused: an environment whose every read is that refusal.
    return readableEnv(
      new Proxy({} as Env, {
        get: () => {
          throw error
        },
      }),
    )
  }
}

/**
 * Where `setEnvDefaults` leaves its environment on a configuration, so that what is read per
 * configuration (`AUTH_URL`) comes from the same place as the rest. A symbol: never serialised.
 */
export const envKey: unique symbol = Symbol.for("latch.env") as never

/** The environment a configuration was given with `setEnvDefaults`, else `process.env`. */
export function envOf(config: object): Env {
  const given = (config as { [envKey]?: Env })[envKey]
  return given ? readableEnv(given) : processEnv()
}

/**
 * The secrets of the environment, newest first: `AUTH_SECRET` (one secret, or a comma-separated
 * list), and, as Auth.js reads them, `AUTH_SECRET_1`, `AUTH_SECRET_2` and `AUTH_SECRET_3`, each
 * put before what is read so far (so the highest number set encrypts, and the others decrypt).
 */
export function secretsFromEnv(env: Env): string[] | undefined {
  const secrets = (env.AUTH_SECRET ?? "")
    .split(",")
    .map((secret) => secret.trim())
    .filter(Boolean)
  for (const index of [1, 2, 3]) {
    const secret = env[`AUTH_SECRET_${index}`]?.trim()
    if (secret) secrets.unshift(secret)
  }
  return secrets.length ? secrets : undefined
}

/** `"true"`/`"1"` → true, `"false"`/`"0"` → false, anything else → undefined. */
export function parseBoolean(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined
  const normalized = value.trim().toLowerCase()
  if (normalized === "true" || normalized === "1") return true
  if (normalized === "false" || normalized === "0") return false
  return undefined
}

/**
 * Whether the Host header may be trusted when `trustHost` is not set: `AUTH_TRUST_HOST` decides
 * when set (`false` means false); platforms that route by the deployer's own host names are
 * trusted (`config/platform.ts`); otherwise only outside production, which is wherever
 * `NODE_ENV` is not `development` or `test` (unset included).
 */
export function trustHostFromEnv(env: Env): boolean {
  const explicit = parseBoolean(env.AUTH_TRUST_HOST)
  if (explicit !== undefined) return explicit
  if (env.AUTH_URL) return true
  if (platformPinsOrigin(env)) return true
  return !isProduction(env)
}

/** `AUTH_URL` as a URL; `undefined` when unset or not an absolute http(s) URL. */
export function authURLFromEnv(env: Env): URL | undefined {
  if (!env.AUTH_URL) return undefined
  try {
    const url = new URL(env.AUTH_URL)
    return url.protocol === "https:" || url.protocol === "http:" ? url : undefined
  } catch {
    return undefined
  }
}

/** The provider id as it appears in variable names: `microsoft-entra-id` → `MICROSOFT_ENTRA_ID`. */
function envName(id: string): string {
  return id.toUpperCase().replace(/-/g, "_")
}

/**
 * Fills a configuration's unset values from the environment, in place (as integrations have
 * always done): `secret` from `AUTH_SECRET`, `trustHost` from `AUTH_TRUST_HOST` (and
 * `AUTH_URL`), `redirectProxyUrl` from `AUTH_REDIRECT_PROXY_URL`, `basePath` from `AUTH_URL`'s
 * path, each OAuth/OIDC provider's `clientId`, `clientSecret` and `issuer` from
 * `AUTH_<ID>_ID`, `AUTH_<ID>_SECRET` and `AUTH_<ID>_ISSUER`, and each email provider's
 * `apiKey` from `AUTH_<ID>_KEY` (`AUTH_RESEND_KEY`). `AUTH_URL` is then read from
 * `env` too, instead of `process.env` (for platforms without one, and SvelteKit's
 * `$env/dynamic/private`).
 *
 * @example
 * ```ts
 * setEnvDefaults(process.env, config)
 * ```
 */
export function setEnvDefaults(given: Env, config: AuthConfig): void {
  const env = readableEnv(given)
  ;(config as { [envKey]?: Env })[envKey] = env
  if (config.secret === undefined) {
    const secrets = secretsFromEnv(env)
    if (secrets) config.secret = secrets.length === 1 ? secrets[0] : secrets
  }
  if (config.trustHost === undefined) config.trustHost = trustHostFromEnv(env)
  if (config.redirectProxyUrl === undefined && env.AUTH_REDIRECT_PROXY_URL) {
    config.redirectProxyUrl = env.AUTH_REDIRECT_PROXY_URL
  }
  const url = authURLFromEnv(env)
  if (config.basePath === undefined && url && url.pathname !== "/") {
    config.basePath = url.pathname
  }
  config.providers = config.providers.map((provider) => {
    const resolved: ProviderConfig = typeof provider === "function" ? provider() : provider
    const name = envName(resolved.id)
    if (resolved.type === "email") {
      // Every email provider, as Auth.js does: the mail API providers send with this key.
      const apiKey = env[`AUTH_${name}_KEY`]
      return apiKey && !resolved.apiKey ? { ...resolved, apiKey } : resolved
    }
    if (resolved.type !== "oauth" && resolved.type !== "oidc") return resolved
    const filled: Record<string, unknown> = { ...resolved }
    filled.clientId ??= env[`AUTH_${name}_ID`]
    filled.clientSecret ??= env[`AUTH_${name}_SECRET`]
    // Any OAuth provider, as Auth.js does: a provider that cannot use an issuer refuses it when
    // the configuration is resolved, rather than ignoring it (`normalizeProviders`).
    const issuer = env[`AUTH_${name}_ISSUER`]
    if (issuer) filled.issuer ??= issuer
    return filled as ProviderConfig
  })
}
