/**
 * Every public type of `@latch/core`, in one place: the configuration, the resources (User,
 * Account, Session, …) and the internal response for framework integrations.
 *
 * @module types
 */
import type { SerializeOptions } from "cookie"
import type { Adapter, AdapterSession, AdapterUser } from "./adapters.js"
import type { JWT, JWTOptions } from "./jwt.js"
import type { LoggerInstance } from "./lib/logger.js"
import type { raw, skipCSRFCheck } from "./markers.js"
import type { CredentialInput, Provider, ProviderType } from "./providers/index.js"

export type { JWT, JWTOptions } from "./jwt.js"
export type { LoggerInstance, WarningCode } from "./lib/logger.js"
export type {
  CredentialInput,
  CredentialsConfig,
  Provider,
  ProviderType,
} from "./providers/index.js"
export type { ErrorPageParam, ErrorType, SignInPageErrorParam } from "./errors.js"

/** Values that may be returned synchronously or as a promise. */
export type Awaitable<T> = T | PromiseLike<T>

/** The value a promise resolves to (or the type itself when it is not a promise). */
export type Awaited<T> = T extends Promise<infer U> ? U : T

/** A version string: `v1`, `v1.2` or `v1.2.3`. */
export type SemverString = `v${number}` | `v${number}.${number}` | `v${number}.${number}.${number}`

/** The actions Latch answers under `basePath`. */
export type AuthAction =
  | "account"
  | "callback"
  | "change-password"
  | "csrf"
  | "error"
  | "new-password"
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

/** One element of an RFC 9396 `authorization_details` array. */
export interface AuthorizationDetails {
  readonly type: string
  readonly locations?: string[]
  readonly actions?: string[]
  readonly datatypes?: string[]
  readonly identifier?: string
  readonly privileges?: string[]
  readonly [parameter: string]: unknown
}

/** A partial OAuth 2.0 / OpenID Connect token endpoint response. */
export interface TokenEndpointResponse {
  readonly access_token?: string
  readonly token_type?: string
  readonly expires_in?: number
  readonly refresh_token?: string
  readonly scope?: string
  readonly id_token?: string
  readonly authorization_details?: AuthorizationDetails[]
  readonly [parameter: string]: unknown
}

/** A token endpoint response plus `expires_at`, in seconds since the epoch. */
export interface TokenSet extends TokenEndpointResponse {
  /** When the access token expires, in seconds since the epoch; computed from `expires_in`. */
  expires_at?: number
}

/**
 * How a user signed in with a provider. For OAuth it carries the token endpoint's fields.
 */
export interface Account extends TokenEndpointResponse {
  /** The provider's id, e.g. `"github"`. */
  provider: string
  /**
   * The user's id at the provider: the profile id for OAuth, the email address for email, the
   * id returned by `authorize` for credentials.
   */
  providerAccountId: string
  /** The kind of provider. */
  type: ProviderType
  /** The id of the user who owns the account. */
  userId?: string
  /** When the access token expires, in seconds since the epoch; computed from `expires_in`. */
  expires_at?: number
  /** Always lowercase, since the value is case-insensitive (RFC 6749 §7.1). */
  token_type?: Lowercase<string>
}

/** A registered passkey (WebAuthn credential). */
export interface Authenticator {
  /** Base64-encoded credential id. */
  credentialID: string
  /** The account the authenticator is connected to. */
  providerAccountId: string
  /** How many times the authenticator has been used. */
  counter: number
  /** Whether the credential is backed up (a synced passkey). */
  credentialBackedUp: boolean
  /** `"singleDevice"` or `"multiDevice"`. */
  credentialDeviceType: string
  /** Base64-encoded public key. */
  credentialPublicKey: string
  /** Transport flags, comma-separated. */
  transports?: string | null
  /** The owning user's id. */
  userId?: string
}

/** The fields of a user that Latch itself reads and writes. */
export interface DefaultUser {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
}

/**
 * A user, as returned by a provider's `profile` or a credentials `authorize`. Augment it to add
 * fields:
 *
 * @example
 * ```ts
 * declare module "@latch/core/types" {
 *   interface User { role?: string }
 * }
 * ```
 */
export interface User extends DefaultUser {}

/** The address claim of an OpenID Connect profile. */
export interface ProfileAddress {
  country?: string | null
  formatted?: string | null
  locality?: string | null
  postal_code?: string | null
  region?: string | null
  street_address?: string | null
}

/** The profile returned by an OAuth provider: the OpenID standard claims and anything else. */
export interface Profile {
  sub?: string | null
  id?: string | null
  name?: string | null
  given_name?: string | null
  family_name?: string | null
  middle_name?: string | null
  nickname?: string | null
  preferred_username?: string | null
  profile?: string | null
  picture?: any
  website?: string | null
  email?: string | null
  email_verified?: boolean | null
  gender?: string | null
  birthdate?: string | null
  zoneinfo?: string | null
  locale?: string | null
  phone_number?: string | null
  updated_at?: Date | string | number | null
  address?: ProfileAddress | null
  [claim: string]: unknown
}

/** The session exposed to the client by default. */
export interface DefaultSession {
  user?: User
  /** When the session expires, as an ISO 8601 string. */
  expires: string
  /**
   * `"RefreshTokenError"` when a provider with `refresh` on refused the stored refresh token: the
   * user is still signed in, but their access token cannot be renewed until they sign in again.
   * (Typed `string`, so that an app's own `Session` augmentation may narrow it, as Auth.js's
   * refresh guide does with `error?: "RefreshTokenError"`.)
   */
  error?: string
}

/**
 * The session returned by `GET {basePath}/session`, `getSession()` and `locals.auth()`.
 * Augment it to add fields:
 *
 * @example
 * ```ts
 * declare module "@latch/core/types" {
 *   interface Session { user: { role: string } & DefaultSession["user"] }
 * }
 * ```
 */
export interface Session extends DefaultSession {}

/** A provider as shown to clients by the `providers` action. */
export interface PublicProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
}

/** A cookie to set (or, with an empty value and `maxAge: 0`, to delete). */
export interface Cookie {
  name: string
  value: string
  options: CookieSerializeOptions
}

/** Serialization options of a cookie, as understood by the `cookie` package. */
export type CookieSerializeOptions = Omit<SerializeOptions, "encode">

/** A cookie's name and options. */
export interface CookieOption {
  name: string
  options: CookieSerializeOptions
}

/** The cookies Latch sets, each overridable in `cookies`. */
export interface CookiesOptions {
  sessionToken: Partial<CookieOption>
  callbackUrl: Partial<CookieOption>
  csrfToken: Partial<CookieOption>
  pkceCodeVerifier: Partial<CookieOption>
  state: Partial<CookieOption>
  nonce: Partial<CookieOption>
  webauthnChallenge: Partial<CookieOption>
  /** A sign-in waiting for its second factor (sealed; see `twoFactor`). */
  twoFactor: Partial<CookieOption>
  /**
   * When this browser's session last proved who it is — its sign-in, or a re-authentication —
   * and whether with the second factor (sealed, short-lived: see `accountChanges.freshAge`).
   */
  proof: Partial<CookieOption>
  /**
   * The browser that asked for a password account (sealed): its own link confirms the address
   * with one click; any other browser must type the chosen password.
   */
  signUp: Partial<CookieOption>
}

/** The body of a `ResponseInternal`. */
export type ResponseBody = string | Record<string, unknown> | unknown[] | null

/** What `Auth()` returns with `raw`: the response before it becomes a `Response`. */
export interface ResponseInternal<Body extends string | Record<string, any> | any[] | null = any> {
  status?: number
  headers?: Headers | HeadersInit
  body?: Body
  redirect?: string
  cookies?: Cookie[]
}

/** Paths of custom pages that replace the built-in ones. */
export interface PagesOptions {
  /** Receives `?error=` (a `SignInPageErrorParam`), `?code=` and `?callbackUrl=`. @default `${basePath}/signin` */
  signIn: string
  /** @default `${basePath}/signout` */
  signOut: string
  /** Receives `?error=` (an `ErrorPageParam`). @default `${basePath}/error` */
  error: string
  /** @default `${basePath}/verify-request` */
  verifyRequest: string
  /** New users are sent here after their first sign-in when set. */
  newUser: string
  /**
   * The sign-up form of the Password provider. Receives `?error=PasswordError`, `?code=` and
   * `?callbackUrl=`. @default `${basePath}/signup`
   */
  signUp: string
  /** The "forgot your password?" form; as `signUp`. @default `${basePath}/reset-password` */
  resetPassword: string
  /**
   * The "choose a new password" form the reset link leads to. Receives `?token=` (post it back
   * as the `token` field), and `?error=` and `?code=` after a refusal.
   * @default `${basePath}/new-password/<provider>`
   */
  newPassword: string
  /** The signed-in user's "change password" form; as `signUp`. @default `${basePath}/change-password` */
  changePassword: string
  /**
   * The code step of a sign-in waiting for its second factor (`twoFactor`). Receives
   * `?error=TwoFactorError&code=` after a refusal. @default `${basePath}/two-factor`
   */
  twoFactor: string
  /** Setting up an authenticator app; as `twoFactor`. @default `${basePath}/two-factor/setup` */
  twoFactorSetup: string
  /**
   * "Confirm it's you": the step a change to the account's ways in asks for when the session's
   * last proof is older than `accountChanges.freshAge`. Receives `?callbackUrl=` (where to go
   * once confirmed) and `?error=ReauthenticationRequired&code=` (why it is asked, or why the
   * last try was refused). @default `${basePath}/reauthenticate`
   */
  reauthenticate: string
}

/** The look of the built-in pages. */
export interface Theme {
  /** `auto` follows the visitor's system setting. @default "auto" */
  colorScheme?: "auto" | "dark" | "light"
  /** An absolute URL of a logo shown above the forms. */
  logo?: string
  /** A CSS color for buttons and accents. */
  brandColor?: string
  /** A CSS color for the text on `brandColor`. */
  buttonText?: string
}

/** Session options. */
export interface SessionOptions {
  /**
   * `"jwt"` keeps the session in an encrypted cookie; `"database"` keeps it in the adapter and
   * only a random token in the cookie.
   * @default "jwt", or "database" when an adapter is set
   */
  strategy: "jwt" | "database"
  /** Seconds of inactivity after which the session expires. @default 2592000 (30 days) */
  maxAge: number
  /**
   * How often, in seconds, the session's expiry is pushed forward (and, for JWT sessions, the
   * cookie re-issued). `0` updates on every access. @default 86400 (1 day)
   */
  updateAge: number
  /** Creates database session tokens. @default crypto.randomUUID */
  generateSessionToken: () => string
  /**
   * Database sessions: store the SHA-256 of each session token, not the token, so that a
   * leaked `sessions` table hands out no live session. Rows holding the token itself (written
   * before, or by Auth.js) are still found, and moved under the hash when first read. `false`
   * stores the token itself, as Auth.js does (for going back to it). @default true
   */
  hashTokens: boolean
  /**
   * Database sessions: keep recently read sessions in this instance's memory, so that a page of
   * a known session costs no database round trip; the adapter reports every change to sessions
   * and users (`watchSessions`: `@latch/pg-adapter` has it, through PostgreSQL `LISTEN`/`NOTIFY`)
   * and the cache evicts at once, on every instance. `true` for the defaults. Ignored with JWT
   * sessions. @default false
   */
  cache: false | SessionCacheOptions
}

/** `session.cache`: how much each instance keeps. */
export interface SessionCacheOptions {
  /** Sessions kept per instance; the oldest go first. @default 10000 */
  maxEntries: number
  /** Seconds an entry is served before the session is read again. @default 60 */
  maxAge: number
}

/** Parameters of the `signIn` callback. */
export interface SignInCallbackParams {
  user: User | AdapterUser
  /** The account signed in with; `null` for credentials. */
  account?: Account | null
  profile?: Profile
  email?: { verificationRequest?: boolean }
  credentials?: Record<string, unknown>
}

/** Parameters of the `jwt` callback. */
export interface JWTCallbackParams {
  /** On sign-in, a token with `name`, `email`, `picture` and `sub`; otherwise the whole JWT. */
  token: JWT
  /** Set on sign-in (`trigger` is `"signIn"` or `"signUp"`). */
  user: User | AdapterUser
  /** Set on sign-in. */
  account?: Account | null
  /** Set on OAuth sign-in. */
  profile?: Profile
  /**
   * Why the callback runs; undefined for an ordinary session read. `"refresh"`: the provider's
   * tokens were just refreshed (a provider with `refresh` on); `account` holds the new ones.
   */
  trigger?: "signIn" | "signUp" | "update" | "refresh"
  /** @deprecated use `trigger === "signUp"` */
  isNewUser?: boolean
  /** With `trigger: "update"`: the data sent by the client. Validate it before use. */
  session?: any
}

/**
 * Parameters of the `session` callback. Which of them are set depends on the session strategy:
 * with `"jwt"`, `session` and `token`; with `"database"`, `session` (the stored session and its
 * user) and `user`. They are typed together, so that a callback written for either strategy
 * reads its own parameters without checks:
 *
 * @example
 * ```ts
 * callbacks: {
 *   session({ session, token }) { // "jwt"
 *     session.user.id = token.sub!
 *     return session
 *   },
 * }
 * // or, with an adapter:
 * callbacks: {
 *   session({ session, user }) { // "database"
 *     session.user.id = user.id
 *     return session
 *   },
 * }
 * ```
 */
export type SessionCallbackParams = ({
  /** With `"database"`: the stored session, with its user. */
  session: { user: AdapterUser } & AdapterSession
  /** With `"database"`: the session's user, as stored. */
  user: AdapterUser
} & {
  /** With `"jwt"`: the session built from the token (`name`, `email`, `image`, `expires`). */
  session: Session
  /** With `"jwt"`: the session token, as returned by the `jwt` callback. */
  token: JWT
}) & {
  /** With `trigger: "update"`: the data the client sent. Validate it before use. */
  newSession: any
  /** `"update"` when the client updates the session; otherwise undefined. */
  trigger?: "update"
}

/** Callbacks: each may be async. */
export interface CallbacksOptions {
  /**
   * Whether the user may sign in. Return `false` (or throw) to refuse with `AccessDenied`, or a
   * URL to send the user there instead.
   */
  signIn: (params: SignInCallbackParams) => Awaitable<boolean | string>
  /**
   * Where a user may be redirected after sign-in or sign-out. By default only URLs of the same
   * origin as `baseUrl`.
   */
  redirect: (params: { url: string; baseUrl: string }) => Awaitable<string>
  /** What the client sees as the session. Token data reaches the client only if returned here. */
  session: (params: SessionCallbackParams) => Awaitable<Session | DefaultSession>
  /** The JWT stored in the session cookie. Returning `null` ends the session. */
  jwt: (params: JWTCallbackParams) => Awaitable<JWT | null>
}

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
  /** A sign-in passed its second factor (`method`: a TOTP code or a recovery code). */
  twoFactorVerified: (message: { user: User; method: "totp" | "recovery" }) => Awaitable<void>
  /** A code was refused: wrong, replayed, or over the limit. */
  twoFactorFailed: (message: { user: User; reason: string }) => Awaitable<void>
  /** A recovery code was used (it works once); `remaining` are left. */
  recoveryCodeUsed: (message: { user: User }) => Awaitable<void>
  /** A user turned two-factor authentication off. */
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
   * password, a code of their second factor, a passkey, or a code mailed to them).
   */
  reauthenticated: (message: {
    user: User
    method: "password" | "code" | "passkey" | "email"
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
 * A change to an account's ways in, as `events.accountChanged` and the owner's notice mail
 * describe it.
 */
export type AccountChange =
  | { type: "passwordChanged" }
  | { type: "passwordReset" }
  | { type: "passwordRemoved" }
  | { type: "passkeyAdded"; credentialID: string }
  | { type: "passkeyRemoved"; credentialID: string }
  | { type: "accountLinked"; provider: string; providerAccountId: string }
  | { type: "accountUnlinked"; provider: string; providerAccountId: string }
  | { type: "twoFactorEnabled" }
  | { type: "twoFactorReplaced" }
  | { type: "twoFactorDisabled" }
  | { type: "recoveryCodesRegenerated" }
  | { type: "addressProven"; removed: string[] }

/** Options of changes to an account's ways in (`accountChanges`). */
export interface AccountChangesOptions {
  /**
   * How long, in seconds, after a sign-in (with its second factor, for a user who has one) or a
   * re-authentication the session may change the account's ways in without being asked to
   * confirm it is the owner ("sudo mode"). Later, the change redirects to the re-authentication
   * step (`pages.reauthenticate`) first. @default 300 (5 minutes)
   */
  freshAge?: number
}

/** Options of two-factor authentication. */
export interface TwoFactorOptions {
  /** The name authenticator apps show for the account. @default the site's host */
  issuer?: string
  /**
   * Whether this sign-in must pass a second factor even though the user has none yet (e.g.
   * admins): the user then sets one up before getting a session. @default never
   */
  required?: (params: { user: User; account: Account | null }) => Awaitable<boolean>
  /** How long a sign-in may wait for its code, in seconds. @default 300 */
  pendingMaxAge?: number
  /**
   * The limits on codes (the code step, turning the factor off, new recovery codes, a new
   * authenticator), counted in fixed windows of `window` seconds aligned to the clock; a refusal
   * is `TwoFactorError` `rate_limited` with `Retry-After` the seconds to the window's end. Wrong
   * codes count, right ones do not (they offset their attempt, and a pair's wrong ones before):
   *
   * - per account and client (an IPv4 address or an IPv6 /64): `attempts`;
   * - per client across accounts: 10 × `attempts`;
   * - per account across clients: `attempts`. A client that passed a code for the account in the
   *   last 30 days or more (the owner's devices) is exempt from this limit and the previous one,
   *   so someone with only the password cannot use them to keep the owner out.
   *
   * A recovery code (and a new authenticator's code) counts per account and client alone: on a
   * new device while the account's limit is full, a recovery code is the owner's way in. Without
   * a client address (an integration that reports none) every code counts per account.
   *
   * @default { attempts: 5, window: 900 }
   * @example
   * ```ts
   * twoFactor: { rateLimit: { attempts: 3, window: 600 } }
   * ```
   */
  rateLimit?: { attempts?: number; window?: number }
}

/** A counter as a store holds it: how many so far, and when it starts again from zero. */
export interface CounterReading {
  count: number
  expires: Date
}

/**
 * A store of expiring counters, for `counterStore`: Latch counts sign-in attempts and spent
 * passkey challenges in it. Keys are at most 200 characters and reveal nothing of what they
 * count (HMACs under the secret). The core README has an example on Redis.
 */
export interface CounterStore {
  /**
   * Adds one to the counter of `key` and returns its new value, atomically: of concurrent calls,
   * each sees a different value. A counter that does not exist, or whose expiry has passed,
   * starts again at 1 and expires at `expires`; later calls keep that first expiry.
   */
  increment(key: string, expires: Date): Awaitable<number>
  /** The live counter of `key`, or `null` when there is none or it expired; never changes it. */
  get(key: string): Awaitable<CounterReading | null>
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
