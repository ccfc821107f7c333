/**
 * Every error Latch raises is an `AuthError`. Each condition has its own class with a stable
 * `type` (for logs and `instanceof`-free checks) and a `kind`:
 *
 * - `"signIn"` errors are the user's to fix (wrong password, expired form): they send the user
 *   back to the sign-in page with `?error=<param>`.
 * - `"error"` errors send the user to the error page with `?error=<param>`, where the parameter
 *   is `AccessDenied`, `Verification` or, for everything that is the server's fault,
 *   `Configuration` (the details go to the logs, never to the browser).
 *
 * @module errors
 */

/** The `type` of every error class, as found in logs. */
export type ErrorType =
  | "AccessDenied"
  | "AccountError"
  | "TwoFactorError"
  | "PasskeySignUpError"
  | "AdapterError"
  | "AccountNotLinked"
  | "CallbackRouteError"
  | "CredentialsSignin"
  | "DuplicateConditionalUI"
  | "EmailSignInError"
  | "EmailCodeError"
  | "ErrorPageLoop"
  | "EventError"
  | "ExperimentalFeatureNotEnabled"
  | "InvalidCallbackUrl"
  | "InvalidCheck"
  | "InvalidEndpoints"
  | "InvalidProvider"
  | "JWTSessionError"
  | "MethodNotAllowed"
  | "MissingAdapter"
  | "MissingAdapterMethods"
  | "MissingAuthorize"
  | "MissingCSRF"
  | "MissingSecret"
  | "MissingWebAuthnAutocomplete"
  | "OAuthAccountNotLinked"
  | "OAuthCallbackError"
  | "OAuthProfileParseError"
  | "OAuthSignInError"
  | "PasswordError"
  | "PayloadTooLarge"
  | "InvalidRequest"
  | "ReauthenticationRequired"
  | "SessionTokenError"
  | "SignOutError"
  | "UnknownAction"
  | "UnsupportedStrategy"
  | "UntrustedHost"
  | "Verification"
  | "WebAuthnVerificationError"

/** Where an error sends the user: the sign-in page or the error page. */
export type ErrorKind = "signIn" | "error"

/**
 * Options of every error constructor. A `cause` is stored in the shape of `AuthError.cause`: an
 * `Error` becomes `{ err }` (merged with the fields of its own plain-object `cause`), a plain
 * object is kept, any other value becomes `{ value }`.
 */
export interface AuthErrorOptions {
  cause?: unknown
}

/** What `AuthError.cause` holds: the underlying error as `err`, and any details. */
export type AuthErrorCause = Record<string, unknown> & { err?: Error }

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

/** Brings any `cause` to the shape of `AuthError.cause`; `undefined` stays `undefined`. */
export function toErrorCause(cause: unknown): AuthErrorCause | undefined {
  if (cause === undefined) return undefined
  if (cause instanceof Error) {
    const details = isPlainObject(cause.cause) ? cause.cause : {}
    return { ...details, err: cause }
  }
  if (isPlainObject(cause)) return cause as AuthErrorCause
  return { value: cause }
}

/**
 * Base class of every error Latch raises. Its `cause` is always `{ err?: Error, …details }`, so
 * that code reading it never has to tell an `Error` from a plain object.
 *
 * @example
 * ```ts
 * import { AuthError } from "@latch/core/errors"
 * if (error instanceof AuthError) console.log(error.type, error.cause?.err)
 *
 * // An error type of your own:
 * class RateLimited extends AuthError {
 *   static type = "RateLimited"
 * }
 * ```
 */
export class AuthError extends Error {
  /**
   * The error's class, stable across versions. Subclasses of your own may use a type of their
   * own.
   */
  static type: ErrorType | (string & {}) = "Configuration"
  /** Where this error sends the user. */
  static kind: ErrorKind = "error"

  /** Same as the class's static `type`. */
  type: ErrorType
  /** Same as the class's static `kind`. */
  kind: ErrorKind
  /** The underlying error (`err`) and any details; see `AuthErrorOptions`. */
  declare cause?: AuthErrorCause

  /**
   * @param message the message, or an `Error` that is the cause (its message is not reused)
   * @param options `{ cause }`
   */
  constructor(message?: string | Error | AuthErrorOptions, options?: AuthErrorOptions) {
    let text: string | undefined
    let cause: unknown
    if (typeof message === "string") {
      text = message
      cause = options?.cause
    } else if (message instanceof Error) {
      cause = message
    } else {
      cause = (message ?? options)?.cause
    }
    super(text)
    const normalized = toErrorCause(cause)
    if (normalized !== undefined) {
      Object.defineProperty(this, "cause", {
        value: normalized,
        writable: true,
        configurable: true,
        enumerable: false,
      })
    }
    const ctor = new.target as typeof AuthError
    this.name = ctor.name
    this.type = ctor.type as ErrorType
    this.kind = ctor.kind
  }
}

/** Base class of the errors that send the user back to the sign-in page. */
export class SignInError extends AuthError {
  static override kind: ErrorKind = "signIn"
}

/**
 * The `signIn` callback returned `false` or threw. The message is the thrown error's message,
 * and the thrown error is the `cause`.
 */
export class AccessDenied extends AuthError {
  static override type: ErrorType = "AccessDenied"
}

/** An adapter method failed; the adapter's error is the `cause`. */
export class AdapterError extends AuthError {
  static override type: ErrorType = "AdapterError"
}

/** The account already belongs to another user (WebAuthn and account linking). */
export class AccountNotLinked extends SignInError {
  static override type: ErrorType = "AccountNotLinked"
}

/**
 * Something inside the callback route failed: an error thrown by `authorize` other than
 * `CredentialsSignin`, or by a callback. The original error is the `cause`.
 */
export class CallbackRouteError extends AuthError {
  static override type: ErrorType = "CallbackRouteError"
}

/**
 * The credentials were refused. Throw it from `authorize` with a `code` of your own, which
 * reaches the sign-in page as `?code=`; it must not reveal anything sensitive.
 *
 * Latch's own codes: `credentials` (wrong or unknown), `rate_limited` (too many attempts),
 * `unverified` (a Password account whose address is not confirmed yet), and `busy` (a Password
 * sign-in refused before any work because password hashing is at capacity). `rate_limited` and
 * `busy` come with `retryAfter` seconds, sent as `Retry-After`.
 *
 * @example
 * ```ts
 * class InvalidLogin extends CredentialsSignin { code = "invalid_login" }
 * authorize: async () => { throw new InvalidLogin() }
 * ```
 */
export class CredentialsSignin extends SignInError {
  static override type: ErrorType = "CredentialsSignin"
  /** Sent to the sign-in page as `?code=`. @default "credentials" */
  code = "credentials"
}

/** More than one WebAuthn provider enables conditional UI. */
export class DuplicateConditionalUI extends AuthError {
  static override type: ErrorType = "DuplicateConditionalUI"
}

/** The email sign-in could not start: a bad address, or the mail could not be sent. */
export class EmailSignInError extends SignInError {
  static override type: ErrorType = "EmailSignInError"
}

/** The error page itself failed to render. */
export class ErrorPageLoop extends AuthError {
  static override type: ErrorType = "ErrorPageLoop"
}

/** An event handler threw. Events never break a flow: this error is only logged. */
export class EventError extends AuthError {
  static override type: ErrorType = "EventError"
}

/** A feature under `experimental` is used without being enabled. */
export class ExperimentalFeatureNotEnabled extends AuthError {
  static override type: ErrorType = "ExperimentalFeatureNotEnabled"
}

/**
 * A callback URL could not be parsed or points outside the allowed origins — including a
 * redirect proxy asked to forward to an origin `redirectProxyAllowedOrigins` does not list.
 */
export class InvalidCallbackUrl extends AuthError {
  static override type: ErrorType = "InvalidCallbackUrl"
}

/** A state, PKCE, nonce or challenge check failed. Never results in a session. */
export class InvalidCheck extends AuthError {
  static override type: ErrorType = "InvalidCheck"
}

/** A provider's endpoints are missing or not URLs. */
export class InvalidEndpoints extends AuthError {
  static override type: ErrorType = "InvalidEndpoints"
}

/** The provider in the path is not configured, or its configuration is not usable. */
export class InvalidProvider extends AuthError {
  static override type: ErrorType = "InvalidProvider"
}

/** The request itself is malformed (unreadable body, bad JSON). Answered with 400. */
export class InvalidRequest extends AuthError {
  static override type: ErrorType = "InvalidRequest"
}

/** The session token could not be encoded or decoded, or a callback failed while reading it. */
export class JWTSessionError extends AuthError {
  static override type: ErrorType = "JWTSessionError"
}

/** The action exists but not for this HTTP method. Answered with 405 and an `Allow` header. */
export class MethodNotAllowed extends AuthError {
  static override type: ErrorType = "MethodNotAllowed"
  /** The methods the action accepts. */
  allow: string[] = []
}

/** The configuration needs an adapter (database sessions, email, passkeys) and has none. */
export class MissingAdapter extends AuthError {
  static override type: ErrorType = "MissingAdapter"
}

/** The adapter lacks methods the configuration needs. */
export class MissingAdapterMethods extends AuthError {
  static override type: ErrorType = "MissingAdapterMethods"
}

/** A credentials provider has no `authorize` function. */
export class MissingAuthorize extends AuthError {
  static override type: ErrorType = "MissingAuthorize"
}

/** A state-changing POST came without a CSRF token matching its cookie. */
export class MissingCSRF extends SignInError {
  static override type: ErrorType = "MissingCSRF"
}

/**
 * No usable secret: neither `secret` nor `AUTH_SECRET` is set, or (in production) a secret is
 * shorter than 32 characters. Generate one with `npx @latch/core secret` (or
 * `openssl rand -base64 33`).
 */
export class MissingSecret extends AuthError {
  static override type: ErrorType = "MissingSecret"
}

/** A WebAuthn provider with conditional UI needs an input with `autocomplete="webauthn"`. */
export class MissingWebAuthnAutocomplete extends AuthError {
  static override type: ErrorType = "MissingWebAuthnAutocomplete"
}

/**
 * The email of this OAuth account belongs to a user who signed in another way. Set
 * `allowDangerousEmailAccountLinking` on a provider only if it verifies emails.
 */
export class OAuthAccountNotLinked extends SignInError {
  static override type: ErrorType = "OAuthAccountNotLinked"
}

/** The OAuth server answered the callback with an error (e.g. the user refused access). */
export class OAuthCallbackError extends SignInError {
  static override type: ErrorType = "OAuthCallbackError"
}

/** The provider's `profile` function failed or returned no id. */
export class OAuthProfileParseError extends AuthError {
  static override type: ErrorType = "OAuthProfileParseError"
}

/** The OAuth sign-in could not start (discovery or authorization URL failed). */
export class OAuthSignInError extends SignInError {
  static override type: ErrorType = "OAuthSignInError"
}

/** The request body is larger than Latch accepts. Answered with 413. */
export class PayloadTooLarge extends AuthError {
  static override type: ErrorType = "PayloadTooLarge"
}

/** A database session could not be read or written. */
export class SessionTokenError extends AuthError {
  static override type: ErrorType = "SessionTokenError"
}

/** Signing out failed (the session could not be deleted). */
export class SignOutError extends AuthError {
  static override type: ErrorType = "SignOutError"
}

/** The path names no action of Latch. Answered with 400. */
export class UnknownAction extends AuthError {
  static override type: ErrorType = "UnknownAction"
}

/** The session strategy cannot be used with this provider or configuration. */
export class UnsupportedStrategy extends AuthError {
  static override type: ErrorType = "UnsupportedStrategy"
}

/**
 * Neither `AUTH_URL` nor `trustHost` says what this site's origin is. Set `AUTH_URL`, or
 * `trustHost: true` (`AUTH_TRUST_HOST=true`) where the server builds the request's URL from its
 * own settings. Headers such as `X-Forwarded-Host` are never read.
 */
export class UntrustedHost extends AuthError {
  static override type: ErrorType = "UntrustedHost"
}

/** An email sign-in link was used, expired, or belongs to another address. */
export class Verification extends AuthError {
  static override type: ErrorType = "Verification"
}

/**
 * Codes of `EmailCodeError`: a code that is not the one mailed (`wrong_code`), one past its
 * expiry (`expired`), one tried too often (`too_many_attempts`: it no longer works), or a browser
 * with no request for a code (`no_request`: another browser, or the code was used already).
 */
export type EmailCodeErrorCode = "wrong_code" | "expired" | "too_many_attempts" | "no_request"

/**
 * A code from a sign-in mail was refused. It is a `Verification` error (`instanceof`), but the
 * user goes back to the "check your email" page, where the code is typed, with
 * `?error=Verification&code=<EmailCodeErrorCode>`.
 */
export class EmailCodeError extends Verification {
  static override type: ErrorType = "EmailCodeError"
  /** Why; sent as `?code=`. @default "wrong_code" */
  code: EmailCodeErrorCode

  constructor(
    message?: string | (AuthErrorOptions & { code?: EmailCodeErrorCode }),
    options?: AuthErrorOptions & { code?: EmailCodeErrorCode },
  ) {
    super(message, options)
    const opts = typeof message === "object" && message !== null ? message : options
    this.code = opts?.code ?? "wrong_code"
  }
}

/**
 * Why a WebAuthn ceremony failed, sent to the sign-in page as `?code=`:
 *
 * - `challenge`: no challenge cookie (expired, or the options came from another browser);
 * - `replay`: the challenge was used already;
 * - `invalid-response`: the posted response is not a WebAuthn response;
 * - `origin`, `rp-id`: it was made for another site;
 * - `user-verification`: the authenticator did not verify the user (PIN, biometrics);
 * - `unknown-credential`: no stored credential has its id (removed, or never registered here);
 * - `counter`: the signature counter went backwards (a cloned authenticator);
 * - `credential-exists`: the credential is registered already;
 * - `email-in-use`: a new account's address belongs to someone (sign in first to add a passkey);
 * - `session`: the signed-in user changed between the options and the response;
 * - `attestation`: the provider's attestation policy refused the authenticator (no attestation,
 *   a model not allowed, or a certificate chain that does not lead to its maker's roots);
 * - `verification`: any other failed check of the signature or attestation.
 */
export type WebAuthnErrorCode =
  | "challenge"
  | "replay"
  | "invalid-response"
  | "origin"
  | "rp-id"
  | "user-verification"
  | "unknown-credential"
  | "counter"
  | "credential-exists"
  | "email-in-use"
  | "session"
  | "attestation"
  | "verification"

/**
 * A WebAuthn registration or authentication response did not verify. The user goes back to the
 * sign-in page with `?error=WebAuthnVerificationError&code=<WebAuthnErrorCode>`.
 */
export class WebAuthnVerificationError extends SignInError {
  static override type: ErrorType = "WebAuthnVerificationError"
  /** Why it failed; sent to the sign-in page as `?code=`. @default "verification" */
  code: WebAuthnErrorCode

  constructor(
    message?: string | (AuthErrorOptions & { code?: WebAuthnErrorCode }),
    options?: AuthErrorOptions & { code?: WebAuthnErrorCode },
  ) {
    super(message, options)
    const opts = typeof message === "object" && message !== null ? message : options
    this.code = opts?.code ?? "verification"
  }
}

/** The page of a password or account form an error sends the user back to. */
export type FormPage =
  | "signUp"
  | "resetPassword"
  | "newPassword"
  | "changePassword"
  | "account"
  | "twoFactor"
  | "twoFactorSetup"
  | "reauthenticate"
  | "confirmEmail"
  | "passkeySignUp"

/** Codes of `PasswordError`: the new password's policy, and the forms' own refusals. */
export type PasswordErrorCode =
  | "password_too_short"
  | "password_too_long"
  | "password_control_characters"
  | "password_like_identifier"
  | "password_breached"
  | "invalid_email"
  | "wrong_password"
  | "password_required"
  | "same_password"
  | "no_password"
  | "rate_limited"
  | "signed_out"
  | "mail_failed"
  | "sign_up_closed"
  | "busy"
  | "refused"

/**
 * A password form was refused (`Password` provider): sign-up, reset request, new password or
 * change of password. The user goes back to the form with
 * `?error=PasswordError&code=<PasswordErrorCode>`; a form action gets it thrown, to show the
 * message inline. A code never says whether an address has an account. `busy`: the server's
 * password hashing is at capacity (the provider's `hashing` option) and refused the request
 * before any work; `retryAfter` says when to try again (`Retry-After` on the answer).
 */
export class PasswordError extends SignInError {
  static override type: ErrorType = "PasswordError"
  /** Why; sent to the form as `?code=`. @default "refused" */
  code: PasswordErrorCode
  /** The form to go back to. @default "signUp" */
  page: FormPage
  /** Seconds until another try may succeed (`rate_limited`). */
  retryAfter?: number

  constructor(message?: string | PasswordErrorOptions, options?: PasswordErrorOptions) {
    super(message, options)
    const opts = typeof message === "object" && message !== null ? message : options
    this.code = opts?.code ?? "refused"
    this.page = opts?.page ?? "signUp"
    if (opts?.retryAfter !== undefined) this.retryAfter = opts.retryAfter
  }
}

/** What a `PasswordError` is made with. */
export interface PasswordErrorOptions extends AuthErrorOptions {
  code?: PasswordErrorCode
  page?: FormPage
  retryAfter?: number
}

/** Codes of `TwoFactorError`. */
export type TwoFactorErrorCode =
  | "wrong_code"
  | "replayed_code"
  | "expired"
  | "rate_limited"
  | "signed_out"
  | "not_enrolled"
  | "unverified"
  | "key_refused"

/**
 * The second factor was refused: a wrong code (`wrong_code`), a code already used
 * (`replayed_code`), a sign-in that waited too long for its code (`expired`: sign in again),
 * too many tries (`rate_limited`), a change of the factor without a session, or a setup on an
 * account whose address was never proven (`unverified`: confirm the address first), or a security
 * key's answer that did not verify (`key_refused`: not one of the account's keys, a used
 * challenge, another site's). The user goes
 * back to the code form (`{basePath}/two-factor`, or the setup form) with
 * `?error=TwoFactorError&code=…`; `expired` goes to the sign-in page.
 */
export class TwoFactorError extends SignInError {
  static override type: ErrorType = "TwoFactorError"
  /** Why; sent as `?code=`. @default "wrong_code" */
  code: TwoFactorErrorCode
  /** The form to go back to. @default "twoFactor" */
  page: FormPage
  /** Seconds until another try may succeed (`rate_limited`). */
  retryAfter?: number

  constructor(message?: string | TwoFactorErrorOptions, options?: TwoFactorErrorOptions) {
    super(message, options)
    const opts = typeof message === "object" && message !== null ? message : options
    this.code = opts?.code ?? "wrong_code"
    this.page = opts?.page ?? "twoFactor"
    if (opts?.retryAfter !== undefined) this.retryAfter = opts.retryAfter
  }
}

/** What a `TwoFactorError` is made with. */
export interface TwoFactorErrorOptions extends AuthErrorOptions {
  code?: TwoFactorErrorCode
  page?: FormPage
  retryAfter?: number
}

/**
 * Codes of `PasskeySignUpError`: an address that is not one plain address (`invalid_email`), a
 * code that is not the one mailed (`wrong_code`), past its time (`expired`), too many tries or
 * mails (`rate_limited`), no sign-up started in this browser (`no_request`), a proof of the
 * address already used for an account (`replay`), or a mail that could not be sent
 * (`mail_failed`). None says whether an address has an account.
 */
export type PasskeySignUpErrorCode =
  | "invalid_email"
  | "wrong_code"
  | "expired"
  | "rate_limited"
  | "no_request"
  | "replay"
  | "mail_failed"

/**
 * Passkey-first sign-up (`Passkey({ signUp: true })`) refused a step. The user goes back to the
 * sign-up page (`{basePath}/passkey-signup/<provider>`, or `pages.passkeySignUp`) with
 * `?error=PasskeySignUpError&code=<PasskeySignUpErrorCode>`; `retryAfter` says when a
 * `rate_limited` one may be tried again (`Retry-After` on the answer).
 */
export class PasskeySignUpError extends SignInError {
  static override type: ErrorType = "PasskeySignUpError"
  /** Why; sent as `?code=`. @default "wrong_code" */
  code: PasskeySignUpErrorCode
  /** Seconds until another try may succeed (`rate_limited`). */
  retryAfter?: number

  constructor(message?: string | PasskeySignUpErrorOptions, options?: PasskeySignUpErrorOptions) {
    super(message, options)
    const opts = typeof message === "object" && message !== null ? message : options
    this.code = opts?.code ?? "wrong_code"
    if (opts?.retryAfter !== undefined) this.retryAfter = opts.retryAfter
  }
}

/** What a `PasskeySignUpError` is made with. */
export interface PasskeySignUpErrorOptions extends AuthErrorOptions {
  code?: PasskeySignUpErrorCode
  retryAfter?: number
}

/**
 * Codes of `ReauthenticationRequired`: why the step is asked (`required`: the session's last
 * proof is older than `accountChanges.freshAge`; `second_factor`: it was made without the
 * user's second factor), or why the last try at it was refused.
 */
export type ReauthenticationCode =
  | "required"
  | "second_factor"
  | "wrong_password"
  | "wrong_code"
  | "replayed_code"
  | "passkey_failed"
  | "code_expired"
  | "rate_limited"
  | "mail_failed"
  | "no_method"
  | "signed_out"

/**
 * A change to the account's ways in needs fresh proof that its owner is there: the user goes to
 * the re-authentication step (`{basePath}/reauthenticate`, or `pages.reauthenticate`) with
 * `?error=ReauthenticationRequired&code=<ReauthenticationCode>&callbackUrl=<where they were>`,
 * and comes back there once confirmed; nothing was changed. A SvelteKit form action gets it
 * thrown, with `url` set to that step.
 */
export class ReauthenticationRequired extends SignInError {
  static override type: ErrorType = "ReauthenticationRequired"
  /** Why; sent as `?code=`. @default "required" */
  code: ReauthenticationCode
  /** Seconds until another try may succeed (`rate_limited`). */
  retryAfter?: number
  /**
   * The re-authentication step's URL, coming back where the user was: set on the error an
   * integration's `Auth()` call throws (`raw`), for its form action to redirect to.
   */
  url?: string

  constructor(
    message?: string | (AuthErrorOptions & { code?: ReauthenticationCode; retryAfter?: number }),
    options?: AuthErrorOptions & { code?: ReauthenticationCode; retryAfter?: number },
  ) {
    super(message, options)
    const opts = typeof message === "object" && message !== null ? message : options
    this.code = opts?.code ?? "required"
    if (opts?.retryAfter !== undefined) this.retryAfter = opts.retryAfter
  }
}

/** Codes of `AccountError`. */
export type AccountErrorCode =
  "invalid_name" | "last_method" | "not_found" | "signed_out" | "unverified"

/**
 * A change to the signed-in user's sign-in methods was refused: removing the last way to sign
 * in (`last_method`), a method that is not theirs (`not_found`), no session (`signed_out`),
 * linking another method to an account whose address is not verified (`unverified`: an
 * unverified password account adopts nothing, see the Password provider), or a passkey name
 * that is empty, longer than 64 characters or holds control characters (`invalid_name`).
 */
export class AccountError extends SignInError {
  static override type: ErrorType = "AccountError"
  /** Why; sent as `?code=`. @default "not_found" */
  code: AccountErrorCode

  constructor(
    message?: string | (AuthErrorOptions & { code?: AccountErrorCode }),
    options?: AuthErrorOptions & { code?: AccountErrorCode },
  ) {
    super(message, options)
    const opts = typeof message === "object" && message !== null ? message : options
    this.code = opts?.code ?? "not_found"
  }
}

/** The `error` parameter of the error page. */
export type ErrorPageParam = "Configuration" | "AccessDenied" | "Verification"

/** The `error` parameter of the sign-in page. */
export type SignInPageErrorParam =
  | "Signin"
  | "OAuthSignin"
  | "OAuthCallbackError"
  | "OAuthCreateAccount"
  | "EmailCreateAccount"
  | "Callback"
  | "OAuthAccountNotLinked"
  | "EmailSignin"
  | "CredentialsSignin"
  | "SessionRequired"
  | "MissingCSRF"
  | "AccountNotLinked"
  | "WebAuthnVerificationError"
  | "PasswordError"
  | "AccountError"
  | "TwoFactorError"
  | "ReauthenticationRequired"
  | "PasskeySignUpError"

/** Sign-in page parameters for the `signIn` errors whose type differs from the parameter. */
const signInParams: Partial<Record<ErrorType, SignInPageErrorParam>> = {
  OAuthSignInError: "OAuthSignin",
  OAuthCallbackError: "OAuthCallbackError",
  OAuthAccountNotLinked: "OAuthAccountNotLinked",
  EmailSignInError: "EmailSignin",
  CredentialsSignin: "CredentialsSignin",
  MissingCSRF: "MissingCSRF",
  AccountNotLinked: "AccountNotLinked",
  WebAuthnVerificationError: "WebAuthnVerificationError",
}

/** Where an error sends the user, and with which query parameters. */
export interface ErrorDestination {
  /** `"verifyRequest"`: the "check your email" page, whose code form was refused. */
  page: ErrorKind | FormPage | "verifyRequest"
  error: ErrorPageParam | SignInPageErrorParam
  code?: string
}

/**
 * The page and query parameters for an error. Anything that is not a known `AuthError` is the
 * server's fault and becomes `Configuration`: its details stay in the logs.
 */
export function errorDestination(error: unknown): ErrorDestination {
  if (!(error instanceof AuthError)) return { page: "error", error: "Configuration" }
  if (error instanceof PasswordError)
    return { page: error.page, error: "PasswordError", code: error.code }
  if (error instanceof TwoFactorError) {
    const page = error.code === "expired" || error.code === "signed_out" ? "signIn" : error.page
    return { page, error: "TwoFactorError", code: error.code }
  }
  if (error instanceof ReauthenticationRequired) {
    // Signed out meanwhile: nothing to confirm, sign in again.
    const page = error.code === "signed_out" ? "signIn" : "reauthenticate"
    return { page, error: "ReauthenticationRequired", code: error.code }
  }
  if (error instanceof AccountError) {
    // Linking refused while signing in with another method: back to the sign-in page.
    const page = error.code === "unverified" ? "signIn" : "account"
    return { page, error: "AccountError", code: error.code }
  }
  if (error instanceof PasskeySignUpError)
    return { page: "passkeySignUp", error: "PasskeySignUpError", code: error.code }
  if (error instanceof EmailCodeError)
    return { page: "verifyRequest", error: "Verification", code: error.code }
  if (error.kind === "signIn") {
    const param = signInParams[error.type] ?? "Signin"
    if (error instanceof CredentialsSignin || error instanceof WebAuthnVerificationError)
      return { page: "signIn", error: param, code: error.code }
    return { page: "signIn", error: param }
  }
  if (error.type === "AccessDenied" || error.type === "Verification") {
    return { page: "error", error: error.type }
  }
  return { page: "error", error: "Configuration" }
}

/** Whether the error is the user's to fix, so that its message may be shown. */
export function isClientSafe(error: unknown): boolean {
  return errorDestination(error).error !== "Configuration"
}
