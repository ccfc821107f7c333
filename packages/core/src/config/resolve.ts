/**
 * A configuration object → a `ResolvedConfig` with every default filled, built once per object
 * and cached: requests never re-validate, re-read the environment or re-derive keys.
 *
 * Nothing here is module-wide: two configurations in one process (say, one with an email
 * provider and one without) never see each other's state.
 */
import type { AuthError } from "../errors.js"
import type { Adapter } from "../adapters.js"
import { AuthError as AuthErrorClass } from "../errors.js"
import type { JWTOptions } from "../jwt.js"
import { DEFAULT_MAX_AGE, decode, encode } from "../jwt.js"
import { createLogger, type WarningCode } from "../lib/logger.js"
import type { EmailConfig } from "../providers/email.js"
import { passwordSettings, type PasswordConfig } from "../providers/password.js"
import { isWeakScrypt } from "../password/hash.js"
import { normalizeBasePath } from "../lib/url.js"
import { skipCSRFCheck } from "../markers.js"
import { deriveKeys, type DerivedKey } from "../security/keys.js"
import { sessionKeys } from "../session/session-cookies.js"
import { parseOriginPatterns, type OriginPattern } from "../security/origin-pattern.js"
import { resolveCookies, type ResolvedCookies } from "../cookies/defaults.js"
import type { AuthConfig, CounterStore, SessionCacheOptions, SessionOptions } from "../types.js"
import { assertConfig } from "./assert.js"
import { EMAIL_ADAPTER_METHODS } from "../flows/email/adapter.js"
import { anyRefreshingProvider, REFRESH_ADAPTER_METHODS } from "../session/refresh-config.js"
import { requireMethods } from "../session/adapter-call.js"
import { MissingAdapter, MissingAdapterMethods, UnsupportedStrategy } from "../errors.js"
import { DEFAULT_CACHE_ENTRIES, DEFAULT_CACHE_MAX_AGE } from "../session/cache.js"
import {
  DEFAULT_BASE_PATH,
  DEFAULT_SESSION_MAX_AGE,
  DEFAULT_SESSION_UPDATE_AGE,
  defaultCallbacks,
} from "./defaults.js"
import {
  authURLFromEnv,
  envOf,
  envRefusal,
  secretsFromEnv,
  trustHostFromEnv,
  type Env,
} from "./env.js"
import { normalizeProviders, type InternalProvider } from "./providers.js"
import type { ResolvedConfig } from "./resolved.js"
import { assertWebAuthn } from "./webauthn.js"

export type { ResolvedConfig } from "./resolved.js"

const cache = new WeakMap<AuthConfig, ResolvedConfig>()

/**
 * Resolves a configuration once; later calls with the same object return the cached result.
 * Never throws: what fails here (a provider factory that throws, a runtime without an API the
 * configuration needs) becomes the configuration's `error`, answered like every configuration
 * error (the error page, or 500 JSON) and logged once.
 */
export function resolveConfig(config: AuthConfig, env?: Env): ResolvedConfig {
  const cacheable = typeof config === "object" && config !== null
  let resolved = cacheable ? cache.get(config) : undefined
  if (!resolved) {
    try {
      resolved = build(config, env ?? envOf(config))
    } catch (caught) {
      resolved = unresolvable(config, caught)
    }
    if (cacheable) cache.set(config, resolved)
  }
  return resolved
}

/** A stand-in for a configuration that could not be resolved: every request fails with why. */
function unresolvable(config: AuthConfig, caught: unknown): ResolvedConfig {
  const reason = caught instanceof Error ? caught.message : String(caught)
  const error =
    caught instanceof AuthErrorClass
      ? caught
      : new AuthErrorClass(`The configuration could not be resolved: ${reason}`, { cause: caught })
  let logger: AuthConfig["logger"]
  try {
    logger = config.logger
  } catch {
    // The same failure again: the default logger will do.
  }
  // Nothing of the failed configuration is used but its logger: a placeholder secret keeps the
  // stand-in itself free of errors, and no request of it gets past `error`.
  const fallback = build({ providers: [], logger, secret: "-".repeat(32), trustHost: false }, {})
  fallback.logger.error(error)
  return { ...fallback, source: config, error }
}

function secretsOf(config: AuthConfig, env: Env): string[] {
  const given = config.secret
  if (given === undefined || given === "") return secretsFromEnv(env) ?? []
  const list = Array.isArray(given) ? given : [given]
  return list.filter((secret): secret is string => typeof secret === "string" && secret !== "")
}

/** The value of `key` in `cache`, made once. */
function memoized<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key)
  if (value === undefined) {
    value = make()
    cache.set(key, value)
  }
  return value
}

/** A `counterStore` must be able to count and to read: the rate limits need both. */
/**
 * A Password provider keeps accounts in the adapter (an error without one), and mails links
 * through an email provider or its own `sendMail` (without either, sign-up, reset and the
 * notices cannot work: a warning, since sign-in alone still does).
 */
function assertPassword(providers: Map<string, InternalProvider>, adapter: Adapter | undefined) {
  const warnings: WarningCode[] = []
  for (const provider of providers.values()) {
    const settings = (provider as Partial<PasswordConfig>)[passwordSettings]
    if (!settings) continue
    if (!adapter)
      throw new MissingAdapter(
        `The Password provider "${provider.id}" keeps accounts in an adapter: set \`adapter\`.`,
      )
    const canMail =
      settings.sendMail !== undefined ||
      [...providers.values()].some(
        (other) => other.type === "email" && typeof (other as EmailConfig).sendMail === "function",
      )
    if (!canMail) warnings.push("password-no-mail")
    if (isWeakScrypt(settings.scrypt)) warnings.push("weak-password-hash")
  }
  return warnings
}

/** Two-factor authentication keeps its secrets and recovery codes in the adapter. */
function assertTwoFactor(adapter: Adapter | undefined): void {
  if (!adapter)
    throw new MissingAdapter(
      "Two-factor authentication keeps its secrets in an adapter: set `adapter`.",
    )
  requireMethods(
    adapter,
    [
      "getUser",
      "getTwoFactor",
      "setTwoFactor",
      "deleteTwoFactor",
      "setRecoveryCodes",
      "useRecoveryCode",
    ],
    "two-factor authentication",
  )
}

function assertCounterStore(store: CounterStore | undefined): void {
  if (store === undefined) return
  const missing = (["increment", "get"] as const).filter(
    (method) => typeof (store as Partial<CounterStore> | null)?.[method] !== "function",
  )
  if (missing.length) {
    throw new MissingAdapterMethods(
      `The counterStore lacks ${missing.join(" and ")}: a counter store is { increment(key, expires), get(key) }.`,
    )
  }
}

/** The default time a sign-in or re-authentication lets the session change the account. */
export const DEFAULT_FRESH_AGE = 300

function freshAgeOf(option: unknown): number {
  if (option === undefined) return DEFAULT_FRESH_AGE
  if (typeof option === "number" && Number.isSafeInteger(option) && option > 0) return option
  throw new UnsupportedStrategy(
    `accountChanges.freshAge must be a positive whole number of seconds: ${String(option)}`,
  )
}

/** `session.cache` → its options, or `false`; an option that is not one throws at once. */
function cacheOptions(option: unknown): SessionCacheOptions | false {
  if (option === undefined || option === false) return false
  const given = (option === true ? {} : option) as Partial<
    Record<keyof SessionCacheOptions, unknown>
  >
  if (typeof given !== "object" || given === null) {
    throw new UnsupportedStrategy("session.cache must be true, false or { maxEntries, maxAge }")
  }
  const positive = (value: unknown, fallback: number, name: string) => {
    if (value === undefined) return fallback
    if (typeof value === "number" && Number.isFinite(value) && value > 0) return value
    throw new UnsupportedStrategy(
      `session.cache.${name} must be a positive number: ${String(value)}`,
    )
  }
  return {
    maxEntries: Math.floor(positive(given.maxEntries, DEFAULT_CACHE_ENTRIES, "maxEntries")),
    maxAge: positive(given.maxAge, DEFAULT_CACHE_MAX_AGE, "maxAge"),
  }
}

function build(config: AuthConfig, env: Env): ResolvedConfig {
  const logger = createLogger({ debug: config.debug === true, overrides: config.logger })
  const authURL = authURLFromEnv(env)
  const basePath = normalizeBasePath(
    config.basePath ?? (authURL && authURL.pathname !== "/" ? authURL.pathname : DEFAULT_BASE_PATH),
  )
  const maxAge = config.session?.maxAge ?? DEFAULT_SESSION_MAX_AGE
  const session: SessionOptions = {
    strategy: config.session?.strategy ?? (config.adapter ? "database" : "jwt"),
    maxAge,
    updateAge: config.session?.updateAge ?? DEFAULT_SESSION_UPDATE_AGE,
    generateSessionToken: config.session?.generateSessionToken ?? (() => crypto.randomUUID()),
    hashTokens: config.session?.hashTokens ?? true,
    // Set below, where a misconfiguration becomes the configuration's error.
    cache: false,
  }
  const jwt: JWTOptions = {
    maxAge: config.jwt?.maxAge ?? maxAge ?? DEFAULT_MAX_AGE,
    encode: config.jwt?.encode ?? encode,
    decode: config.jwt?.decode ?? decode,
  }
  const secrets = secretsOf(config, env)
  const cookieVariants: Partial<Record<"secure" | "insecure", ResolvedCookies>> = {}
  const keysBySalt = new Map<string, Promise<DerivedKey[]>>()
  const sessionKeysBySalt = new Map<string, Promise<DerivedKey[]>>()

  const trustHost = config.trustHost ?? trustHostFromEnv(env)
  let error: AuthError | undefined
  let providers = new Map<string, InternalProvider>()
  let redirectProxyAllowedOrigins: OriginPattern[] = []
  const accountChanges = { freshAge: DEFAULT_FRESH_AGE }
  try {
    accountChanges.freshAge = freshAgeOf(config.accountChanges?.freshAge)
    redirectProxyAllowedOrigins = parseOriginPatterns(
      config.redirectProxyAllowedOrigins ?? env.AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS,
    )
    providers = normalizeProviders(config.providers, env)
    const warnings = assertConfig({
      secrets,
      strategy: session.strategy,
      hasAdapter: config.adapter !== undefined,
      debug: config.debug === true,
      skipCSRFCheck: config.skipCSRFCheck === skipCSRFCheck,
      basePathGiven: config.basePath !== undefined,
      authURL,
      basePath,
      trustHost,
      env,
      envRefusal: envRefusal(env),
    })
    warnings.push(
      ...assertWebAuthn(providers, {
        enabled: config.experimental?.enableWebAuthn === true,
        adapter: config.adapter,
      }),
    )
    warnings.push(...assertPassword(providers, config.adapter))
    if (config.twoFactor) assertTwoFactor(config.adapter)
    for (const code of warnings) logger.warn(code)
    assertCounterStore(config.counterStore)
    if ([...providers.values()].some((provider) => provider.type === "email")) {
      if (!config.adapter) {
        throw new MissingAdapter(
          "Email sign-in needs an adapter to store its tokens: set `adapter`.",
        )
      }
      requireMethods(config.adapter, EMAIL_ADAPTER_METHODS, "email sign-in")
    }
    session.cache = cacheOptions(config.session?.cache)
    if (session.strategy === "database" && session.cache) {
      requireMethods(config.adapter!, ["watchSessions"], "the session cache (`session.cache`)")
    }
    if (session.strategy === "database" && anyRefreshingProvider({ providers })) {
      // The tokens live on the accounts: read, and written back after each refresh.
      requireMethods(config.adapter!, REFRESH_ADAPTER_METHODS, "refreshing tokens (`refresh`)")
    }
  } catch (caught) {
    if (!(caught instanceof AuthErrorClass)) throw caught
    error = caught
    logger.error(caught)
  }
  // After every read of the environment (the providers' `AUTH_<ID>_*` included).
  if (envRefusal(env)) logger.warn("env-unreadable")

  return {
    source: config,
    basePath,
    secrets,
    providers,
    session,
    jwt,
    builtInJWT: jwt.encode === encode && jwt.decode === decode,
    callbacks: { ...defaultCallbacks, ...config.callbacks },
    defaultJWTCallback: !config.callbacks?.jwt,
    events: config.events ?? {},
    pages: config.pages ?? {},
    twoFactor: config.twoFactor,
    accountChanges,
    theme: config.theme ?? {},
    logger,
    trustHost,
    authURL,
    useSecureCookies: config.useSecureCookies,
    skipCSRFCheck: config.skipCSRFCheck === skipCSRFCheck,
    adapter: config.adapter,
    counterStore: config.counterStore,
    redirectProxyUrl: config.redirectProxyUrl ?? env.AUTH_REDIRECT_PROXY_URL,
    redirectProxyAllowedOrigins,
    experimental: { enableWebAuthn: config.experimental?.enableWebAuthn === true },
    error,
    cookies(secure) {
      const variant = secure ? "secure" : "insecure"
      return (cookieVariants[variant] ??= resolveCookies(secure, config.cookies))
    },
    keys: (salt) => memoized(keysBySalt, salt, () => deriveKeys(secrets, salt)),
    sessionKeys: (salt) => memoized(sessionKeysBySalt, salt, () => sessionKeys(secrets, salt)),
  }
}
