/**
 * Password accounts kept by Latch: the user's address and a password whose hash the adapter
 * stores (`getPasswordHash`, `setPasswordHash`). Unlike `Credentials`, there is no `authorize` to
 * write: Latch looks the account up, checks the password in constant time against a memory-hard
 * hash (scrypt, OWASP's parameters), does the same work for an address without an account, makes
 * the hash again when the parameters changed, and refuses an address not yet verified.
 *
 * @module providers/password
 */
import type { CredentialsRateLimit } from "./credentials.js"
import type { CredentialsConfig } from "./index.js"
import type { Awaitable } from "../types.js"
import { DEFAULT_SCRYPT, type ScryptParams } from "../password/hash.js"
import { policyBounds, type PasswordPolicy } from "../password/policy.js"

export type { PasswordPolicy, PasswordPolicyCode } from "../password/policy.js"
export type { PasswordCheck, ScryptParams } from "../password/hash.js"
/**
 * For scripts and admin tools: hash a password as the provider does (to import users or set a
 * password by hand), check one against a stored hash, check a new one against a policy.
 */
export { DEFAULT_SCRYPT, hashPassword, verifyPassword } from "../password/hash.js"
export { checkNewPassword } from "../password/policy.js"

/** Where `Auth()` finds a Password provider's settings (it does the checking, not `authorize`). */
export const passwordSettings: unique symbol = Symbol.for("latch.password-settings") as never

/** Options of `Password()`. */
export interface PasswordOptions {
  /** @default "password" */
  id?: string
  /** @default "Password" */
  name?: string
  /** What a new password must be (length, a breached-password hook). */
  policy?: PasswordPolicy
  /**
   * scrypt's parameters for new hashes. Hashes made with others still verify and are made
   * again at the next sign-in. @default OWASP's: `{ ln: 17, r: 8, p: 1 }`
   */
  scrypt?: ScryptParams
  /**
   * Whether an account whose address is not verified yet may sign in with its password.
   * @default true: it may not (`code=unverified`)
   */
  requireEmailVerification?: boolean
  /** The brute-force limits of the sign-in, as `Credentials`'s. */
  rateLimit?: CredentialsRateLimit | false
  /**
   * Whether anyone may create an account with `POST {basePath}/signup/<id>`. Turn it off to
   * create accounts yourself (an invitation, an admin tool); resetting and changing passwords
   * keep working. @default true
   */
  signUp?: boolean
  /**
   * Sends the provider's mails (confirm your address, reset your password, your password was
   * changed). By default they go through the first email provider of the configuration that can
   * send any message (`Nodemailer`, `Resend`, `Postmark`, `SendGrid`, `Mailgun`, `Forward Email`).
   */
  sendMail?: (message: PasswordMail) => Awaitable<void>
  /** How long the link confirming a new account's address works, in seconds. @default 86400 */
  verifyMaxAge?: number
  /** How long a reset link works, in seconds. @default 3600 */
  resetMaxAge?: number
  /**
   * Whether the link confirming an address (`{basePath}/verify-email/<id>`) shows a "Confirm
   * your address" page whose button does the work (a CSRF-checked POST), rather than doing it
   * on the link's GET. Mail scanners (Outlook Safe Links and others) open every link in a mail;
   * with the page, their visit spends nothing and the user's own click still works. `false`
   * confirms on the GET. @default true
   */
  continuePage?: boolean
}

/** A mail of the Password provider, ready to send. */
export interface PasswordMail {
  to: string
  subject: string
  text: string
  html: string
}

/** The settings `Auth()` reads from a Password provider. */
export interface PasswordSettings {
  policy: PasswordPolicy
  scrypt: ScryptParams
  requireEmailVerification: boolean
  signUp: boolean
  sendMail?: (message: PasswordMail) => Awaitable<void>
  verifyMaxAge: number
  resetMaxAge: number
  continuePage: boolean
}

/** A Password provider: a credentials provider whose checking Latch does itself. */
export type PasswordConfig = CredentialsConfig<{
  email: { label: string; type: "email"; autocomplete: string }
  password: { label: string; type: "password"; autocomplete: string }
}> & { [passwordSettings]: PasswordSettings }

function positiveSeconds(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new TypeError(`Password(): ${name} must be a positive whole number of seconds`)
  return value
}

/**
 * Sign-in with an address and a password, for accounts Latch keeps (the adapter stores the
 * hashes). Needs an adapter with `getUserByEmail`, `getPasswordHash` and `setPasswordHash`.
 *
 * @example
 * ```ts
 * import Password from "@latch/core/providers/password"
 *
 * Password({ policy: { minLength: 12, isBreached: (password) => breachedList.has(password) } })
 * ```
 */
export default function Password(options: PasswordOptions = {}): PasswordConfig {
  const policy = options.policy ?? {}
  // A policy that cannot be met is a configuration error, found at start-up.
  policyBounds(policy)
  return {
    id: options.id ?? "password",
    name: options.name ?? "Password",
    type: "credentials",
    credentials: {
      email: { label: "Email", type: "email", autocomplete: "username" },
      password: { label: "Password", type: "password", autocomplete: "current-password" },
    },
    // Never called: Auth() checks the password itself (flows/password/sign-in.ts).
    authorize: () => null,
    rateLimit: options.rateLimit === false ? false : { identifier: "email", ...options.rateLimit },
    [passwordSettings]: {
      policy,
      scrypt: options.scrypt ?? DEFAULT_SCRYPT,
      requireEmailVerification: options.requireEmailVerification ?? true,
      signUp: options.signUp ?? true,
      sendMail: options.sendMail,
      verifyMaxAge: positiveSeconds(options.verifyMaxAge, 24 * 60 * 60, "verifyMaxAge"),
      resetMaxAge: positiveSeconds(options.resetMaxAge, 60 * 60, "resetMaxAge"),
      continuePage: options.continuePage ?? true,
    },
  } as PasswordConfig
}
