/**
 * What a resolved configuration holds, apart from the code that resolves it: the actions, the
 * session code and the adapter checks all name it, and `resolve.ts` runs some of their code.
 */
import type { Adapter } from "../types/adapter.js"
import type { ResolvedCookies } from "../cookies/defaults.js"
import type { AuthError } from "../errors.js"
import type { LoggerInstance } from "../lib/logger.js"
import type { DerivedKey } from "../security/keys.js"
import type { OriginPattern } from "../security/origin-pattern.js"
import type { JWTOptions } from "../types/jwt.js"
import type {
  AuthConfig,
  CallbacksOptions,
  CounterStore,
  EventCallbacks,
  PagesOptions,
  SessionOptions,
  Theme,
  TwoFactorOptions,
} from "../types.js"
import type { InternalProvider } from "./providers.js"

/** A configuration with every default filled. */
export interface ResolvedConfig {
  /** The object this was resolved from. */
  source: AuthConfig
  /** Normalized: leading slash, no trailing slash; `""` for the root. */
  basePath: string
  /** Newest first; the first encrypts. */
  secrets: string[]
  providers: Map<string, InternalProvider>
  session: SessionOptions
  jwt: JWTOptions
  /** Whether `jwt.encode`/`jwt.decode` are Latch's own (then the fast path is used). */
  builtInJWT: boolean
  callbacks: CallbacksOptions
  /** Whether the `jwt` callback is the default one, which never changes the token. */
  defaultJWTCallback: boolean
  events: Partial<EventCallbacks>
  pages: Partial<PagesOptions>
  theme: Theme
  logger: LoggerInstance
  trustHost: boolean
  /** `AUTH_URL`, when set: the site's origin comes from it, not from the request. */
  authURL: URL | undefined
  /** `undefined`: decided per request from the URL's protocol. */
  useSecureCookies: boolean | undefined
  skipCSRFCheck: boolean
  adapter: Adapter | undefined
  /** The deployer's store of expiring counters, checked to have `increment` and `get`. */
  counterStore: CounterStore | undefined
  redirectProxyUrl: string | undefined
  /** Where a redirect proxy may forward a sign-in; empty: nowhere. */
  redirectProxyAllowedOrigins: OriginPattern[]
  experimental: { enableWebAuthn: boolean }
  /** Two-factor authentication, when configured. */
  twoFactor: TwoFactorOptions | undefined
  /** Changes to an account's ways in: how long a proof stays fresh, in seconds. */
  accountChanges: { freshAge: number }
  /** A configuration error: every request of this configuration fails with it. */
  error: AuthError | undefined
  /** The cookies for a secure or insecure origin. */
  cookies(secure: boolean): ResolvedCookies
  /** The keys for a salt (a cookie name): derived from the secrets once, newest first. */
  keys(salt: string): Promise<DerivedKey[]>
  /**
   * The keys of the session token under a cookie name: Auth.js's derivation (the first
   * encrypts), then earlier Latch releases' (`session/session-cookies.ts`).
   */
  sessionKeys(salt: string): Promise<DerivedKey[]>
}
