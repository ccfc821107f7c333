/**
 * Every public type of `@latch/core`, in one place: the configuration, the resources (User,
 * Account, Session, …) and the internal response for framework integrations. The configuration
 * and its events are declared here; the rest in the modules of `types/`, by topic, which import
 * nothing of this one.
 *
 * @module types
 */
import type { Adapter, AdapterSession, AdapterUser } from "./types/adapter.js"
import type { AccountChange, AccountChangesOptions } from "./types/account-changes.js"
import type { CallbacksOptions } from "./types/callbacks.js"
import type { Awaitable } from "./types/common.js"
import type { CookiesOptions } from "./types/cookies.js"
import type { CounterStore } from "./types/counters.js"
import type { JWT, JWTOptions } from "./types/jwt.js"
import type { PagesOptions, Theme } from "./types/pages.js"
import type { CredentialInput } from "./types/provider-common.js"
import type { Provider } from "./types/provider-config.js"
import type {
  Account,
  SessionFields,
  UserFields,
  Profile,
  Session,
  User,
} from "./types/resources.js"
import type { SessionCacheOptions, SessionOptions } from "./types/session.js"
import type { TwoFactorOptions } from "./types/two-factor.js"
import type { LoggerInstance } from "./lib/logger.js"
import type { raw, skipCSRFCheck } from "./markers.js"

export type { JWT, JWTOptions } from "./types/jwt.js"
export type { LoggerInstance, WarningCode } from "./lib/logger.js"
export type { CredentialInput, ProviderType } from "./types/provider-common.js"
export type { CredentialsConfig } from "./types/credentials.js"
export type { Provider } from "./types/provider-config.js"
export type { ErrorPageParam, ErrorType, SignInPageErrorParam } from "./errors.js"
export type { Awaitable, Awaited, SemverString } from "./types/common.js"
export type {
  Account,
  Authenticator,
  AuthorizationDetails,
  Profile,
  ProfileAddress,
  PublicProvider,
  Session,
  TokenEndpointResponse,
  TokenSet,
  User,
} from "./types/resources.js"
export type {
  Cookie,
  CookieOption,
  CookieSerializeOptions,
  CookiesOptions,
} from "./types/cookies.js"
export type { ResponseBody, ResponseInternal } from "./types/response.js"
export type { PagesOptions, Theme } from "./types/pages.js"
export type { SessionCacheOptions, SessionOptions } from "./types/session.js"
export type {
  CallbacksOptions,
  JWTCallbackParams,
  SessionCallbackParams,
  SignInCallbackParams,
} from "./types/callbacks.js"
export type { AccountChange, AccountChangesOptions } from "./types/account-changes.js"
export type { TwoFactorOptions } from "./types/two-factor.js"
export type { CounterReading, CounterStore } from "./types/counters.js"

// `DefaultSession` and `DefaultUser` are declared in this module, not only re-exported: an
// augmentation of "@latch/core/types" sees this module's own declarations, so it may name them
// without importing them (`user: { role: string } & DefaultSession["user"]`), as it may in
// Auth.js. (`Session` and `User` stay re-exports: an augmentation merges into them wherever they
// are declared.)

/** The session exposed to the client by default: what `Session` extends. */
export interface DefaultSession extends SessionFields {}

/** The user fields every provider fills: what `User` extends. */
export interface DefaultUser extends UserFields {}

/** The actions Latch answers under `basePath`. */
export type AuthAction =
  | "account"
  | "callback"
  | "change-password"
  | "csrf"
  | "error"
  | "new-password"
  | "passkey"
  | "passkey-signup"
  | "providers"
  | "reauthenticate"
  | "reset-password"
  | "session"
  | "signin"
  | "signout"
  | "signup"
  | "two-factor"
  | "unlink"
  | "verify-email"
  | "verify-request"
  | "webauthn-options"

/** Messages of the events. */
export interface EventCallbacks {
  signIn: (message: {
    user: User
    account?: Account | null
    profile?: Profile
    isNewUser?: boolean
  }) => Awaitable<void>
  signOut: (
    message: { session: AdapterSession | null | undefined } | { token: JWT | null },
  ) => Awaitable<void>
  createUser: (message: { user: User }) => Awaitable<void>
  updateUser: (message: { user: User }) => Awaitable<void>
  linkAccount: (message: {
    user: User | AdapterUser
    account: Account
    profile: User | AdapterUser
  }) => Awaitable<void>
  session: (message: { session: Session; token: JWT }) => Awaitable<void>
  /**
   * A provider's tokens were refreshed (a provider with `refresh` on), or the refresh failed:
   * `error` is set then. A refused refresh token (`invalid_grant`) marks the session with
   * `error: "RefreshTokenError"`; another failure (the provider unreachable) is retried at the
   * next read.
   */
  /** A user turned two-factor authentication on (or set up a new authenticator). */
  twoFactorEnrolled: (message: { user: User }) => Awaitable<void>
  /**
   * A sign-in passed its second factor (`method`: a TOTP code, a recovery code, or a security key
   * or passkey at the code step).
   */
  twoFactorVerified: (message: {
    user: User
    method: "totp" | "recovery" | "security-key"
  }) => Awaitable<void>
  /** A code or a key was refused: wrong, replayed, or over the limit (`reason`). */
  twoFactorFailed: (message: { user: User; reason: string }) => Awaitable<void>
  /** A recovery code was used (it works once); `remaining` are left. */
  recoveryCodeUsed: (message: { user: User }) => Awaitable<void>
  /** A user turned two-factor authentication off (or removed their last second factor). */
  twoFactorDisabled: (message: { user: User }) => Awaitable<void>
  /**
   * A change to the user's ways in was made: a password set, changed, reset or removed; a
   * passkey or a linked account added or removed; two-factor authentication turned on, replaced
   * or off; new recovery codes; or a proof of the address that removed what an unproven party
   * had set (`addressProven`). The owner is mailed a notice of each (but `addressProven`).
   */
  accountChanged: (message: { user: User; change: AccountChange }) => Awaitable<void>
  /**
   * A signed-in user confirmed it is them at the re-authentication step (`method`: their
   * password, a code of their second factor, a security key, a passkey, or a code mailed to them).
   */
  reauthenticated: (message: {
    user: User
    method: "password" | "code" | "securityKey" | "passkey" | "email"
  }) => Awaitable<void>
  refreshToken: (message: {
    provider: string
    providerAccountId: string
    /** The user, with database sessions (the JWT's `sub` otherwise). */
    userId?: string
    /** With an error: whether the refresh token was refused (the user must sign in again). */
    error?: Error
    refused?: boolean
  }) => Awaitable<void>
}

/**
 * The configuration of `Auth()`. The same object is meant to be reused for every request:
 * Latch resolves it once and caches the result.
 *
 * @example
 * ```ts
 * import { Auth } from "@latch/core"
 * import Credentials from "@latch/core/providers/credentials"
 *
 * const config: AuthConfig = {
 *   secret: process.env.AUTH_SECRET,
 *   trustHost: true,
 *   providers: [Credentials({ credentials: { password: {} }, authorize: checkPassword })],
 * }
 * const response = await Auth(request, config)
 * ```
 */
export interface AuthConfig {
  /** Sign-in sources. */
  providers: Provider[]
  /**
   * The secret, or secrets newest first. Derives every key. At least 32 characters (refused in
   * production when shorter). @default process.env.AUTH_SECRET (a comma-separated list allowed)
   */
  secret?: string | string[]
  /** Session options. */
  session?: Partial<Omit<SessionOptions, "cache">> & {
    cache?: boolean | Partial<SessionCacheOptions>
  }
  /** Options of the session JWT. */
  jwt?: Partial<JWTOptions>
  /** Custom pages. */
  pages?: Partial<PagesOptions>
  /** Callbacks. */
  callbacks?: Partial<CallbacksOptions>
  /** Events: audit hooks; an event that throws is logged and never breaks the flow. */
  events?: Partial<EventCallbacks>
  /** A database adapter. */
  adapter?: Adapter
  /**
   * Where the expiring counters live (the sign-in rate limits, spent passkey challenges): a store
   * shared by every instance of the app, such as Redis or Valkey. Without it they live in the
   * adapter (`incrementCounter`, `getCounter`), else in this process's memory.
   */
  counterStore?: CounterStore
  /** Turns debug messages on. @default false */
  debug?: boolean
  /** Overrides of the logger's methods. */
  logger?: Partial<LoggerInstance>
  /** The look of the built-in pages. */
  theme?: Theme
  /** Sends cookies with `Secure` and the `__Secure-`/`__Host-` prefixes. @default true on https */
  useSecureCookies?: boolean
  /** Overrides of the cookie names and options. Advanced. */
  cookies?: Partial<CookiesOptions>
  /**
   * Let the origin of the request's URL name the site when `AUTH_URL` is not set. Only the URL
   * is read — never `Host`, `X-Forwarded-Host`, `X-Forwarded-Proto` or `Forwarded` — so turn it
   * on where the server builds that URL from its own settings (SvelteKit's adapters do: it is on
   * there by default). Without it and without `AUTH_URL`, requests fail with `UntrustedHost`.
   * @default AUTH_TRUST_HOST, else true outside production
   */
  trustHost?: boolean
  /** The path under which Latch answers. @default "/auth" */
  basePath?: string
  /**
   * The `redirect_uri` of OAuth requests, for preview deployments: the provider sends every
   * sign-in back to this stable deployment, which forwards it to the deployment that started it.
   * @default AUTH_REDIRECT_PROXY_URL
   */
  redirectProxyUrl?: string
  /**
   * The origins a redirect proxy may forward a sign-in to (the deployment answering at
   * `redirectProxyUrl` checks it). An entry is an origin, whose host may hold `*` for one or more
   * letters, digits or hyphens — never a dot: `https://myapp-*-team.vercel.app`. Without a list,
   * nothing is forwarded: a provider's authorization code only ever goes to an origin you named.
   * @default AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS (comma-separated)
   * @example ["https://myapp-*-team.vercel.app", "https://staging.example.com"]
   */
  redirectProxyAllowedOrigins?: string[]
  /** Features that may change without notice. */
  experimental?: { enableWebAuthn?: boolean }
  /**
   * Two-factor authentication (TOTP, with recovery codes). Once a user turns it on, every
   * sign-in — credentials, password, email link, OAuth, passkey without user verification —
   * stops before the session: the browser holds a sealed pending state and is sent to
   * `{basePath}/two-factor` for the code. Needs an adapter with `getTwoFactor`, `setTwoFactor`,
   * `deleteTwoFactor`, `setRecoveryCodes` and `useRecoveryCode` (`@latch/pg-adapter` has them).
   */
  twoFactor?: TwoFactorOptions
  /**
   * Changes to an account's ways in — set, change or remove a password; add or remove a passkey
   * or a linked account; turn two-factor authentication on or off; new recovery codes — ask for
   * fresh proof that the owner is there: a sign-in of this session within `freshAge` seconds,
   * or the re-authentication step (`{basePath}/reauthenticate`). Each change is mailed to the
   * owner (through the Password provider's `sendMail` or an email provider) and emitted as
   * `events.accountChanged`.
   */
  accountChanges?: AccountChangesOptions
  /**
   * Has no effect, and is kept so that configurations that set it still type-check. Session
   * cookies are Auth.js's (same names, same encryption), so an Auth.js session reads as it is;
   * a session under another name it may have been kept under (Auth.js's defaults when
   * `cookies.sessionToken.name` is set, `latch.session-token` of earlier Latch releases) is read
   * and moved to the configured name, always.
   * @deprecated Remove it: what it turned on is always on.
   */
  migrateSessions?: boolean
  /** For framework integrations: return a `ResponseInternal`. */
  raw?: typeof raw
  /** For framework integrations that check CSRF themselves. */
  skipCSRFCheck?: typeof skipCSRFCheck
}

export type { Adapter, AdapterSession, AdapterUser, CredentialInput as CredentialInputConfig }

/** The public-key options answered by the `webauthn-options` action. */
export type WebAuthnOptionsResponseBody =
  | { action: "authenticate"; options: Record<string, unknown> }
  | { action: "register"; options: Record<string, unknown> }
