/**
 * Password accounts kept by Latch: the user's address and a password whose hash the adapter
 * stores (`getPasswordHash`, `setPasswordHash`). Unlike `Credentials`, there is no `authorize` to
 * write: Latch looks the account up, checks the password in constant time against a memory-hard
 * hash (scrypt, 32 MiB at a strength OWASP rates equal to its 128 MiB minimum, on every runtime:
 * `node:crypto`'s where it works, a plain-JavaScript one elsewhere, with the same hashes), does
 * the same work for an address without an account, makes the hash again when the parameters
 * changed, and refuses an address not yet verified. `hash` and `verify` replace scrypt with the
 * deployer's own hashing. The hashing is bounded (`hashing`): budgets before any
 * anonymous derivation, and a few derivations at once per process.
 *
 * @module providers/password
 */
import type { CredentialsRateLimit } from "./credentials.js"
import type { CredentialsConfig } from "./index.js"
import type { Awaitable } from "../types.js"
import { DEFAULT_SCRYPT, isBoundedScrypt, type ScryptParams } from "../password/hash.js"
import { defaultHashingLimits } from "../password/limiter.js"
import { policyBounds, type PasswordPolicy } from "../password/policy.js"
import type { OwnHashing, PasswordVerification } from "../password/custom.js"

export type { PasswordPolicy, PasswordPolicyCode } from "../password/policy.js"
export type { PasswordCheck, ScryptParams } from "../password/hash.js"
export type { PasswordVerification } from "../password/custom.js"
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
   * scrypt's parameters for new hashes. Hashes made with others (such as `{ ln: 17, r: 8, p: 1 }`,
   * the default before) still verify and are made again at the next sign-in. At most 256 MiB per
   * derivation (128 · 2^ln · r bytes).
   * @default `{ ln: 15, r: 8, p: 3 }`: 32 MiB, as strong as OWASP's N = 2^17, r = 8, p = 1
   */
  scrypt?: ScryptParams
  /**
   * Your own password hashing instead of scrypt (with `verify`): argon2id from a native package,
   * a platform's hashing service, or a hash of your own where scrypt's CPU time is more than the
   * platform allows. Resolves to the string the adapter stores. It receives the password
   * NFKC-normalized; it runs in the provider's `hashing` limits, as scrypt does. A sign-in of an
   * address without an account calls it too and throws the result away, so that the answer takes
   * as long as checking a real account's password: keep it as slow as `verify`.
   *
   * It must make hashes of a format of its own: hashes in Latch's (`$scrypt$…`, made by the
   * default before `hash` was set) are checked by Latch and, once they match, made again with
   * `hash`, so every account moves over at its next sign-in.
   *
   * @example
   * ```ts
   * import argon2 from "argon2"
   * import Password from "@latch/core/providers/password"
   *
   * Password({
   *   hash: (password) => argon2.hash(password),
   *   verify: async (password, stored) => ({
   *     ok: await argon2.verify(stored, password),
   *     needsRehash: argon2.needsRehash(stored),
   *   }),
   * })
   * ```
   */
  hash?: (password: string) => Awaitable<string>
  /**
   * Checks a password (NFKC-normalized) against a hash the adapter stored (with `hash`): `true`
   * or `false`, or `{ ok, needsRehash }` where `needsRehash: true` after a match makes the
   * sign-in call `hash` and store the new hash (an outdated algorithm or parameters). It receives
   * every stored hash but Latch's own scrypt ones (see `hash`). Throwing, or answering anything
   * else, is a configuration error (`error=Configuration`).
   */
  verify?: (password: string, stored: string) => Awaitable<PasswordVerification>
  /** How much password hashing the server does at once, and for anonymous clients. */
  hashing?: PasswordHashing
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

/** At most `max` in `window` seconds. */
export interface HashingBudget {
  max: number
  /** Seconds. */
  window: number
}

/**
 * The bounds of the provider's password hashing. Every scrypt derivation (32 MiB and a few
 * hundred milliseconds with the default parameters) waits for one of `concurrency` slots in this
 * process; sign-ins, changes of password and the new passwords of reset links go before sign-ups.
 * Past `queue` waiting, a request is refused before any work, with `code: "busy"` and
 * `Retry-After`. Sign-ups (the only derivations anyone can ask for without an account, a link or
 * a session) are also counted, before their derivation, per client and for the whole app: over
 * either budget the sign-up answers "check your email" as usual, but hashes nothing and mails
 * nothing.
 *
 * @example
 * ```ts
 * Password({ hashing: { concurrency: 2, queue: 16, global: { max: 300, window: 60 } } })
 * ```
 */
export interface PasswordHashing {
  /**
   * Derivations at once in this process, at most: memory for hashing stays under this × 32 MiB
   * with the default parameters. Sign-ups never take the last free slot.
   * @default the CPU cores (`os.availableParallelism()`), at most `UV_THREADPOOL_SIZE` − 1
   * (3: one of libuv's threads stays free for file reads and DNS), at least 1; 2 without `node:os`
   */
  concurrency?: number
  /**
   * Derivations waiting for a slot, at most; one more is refused (`code: "busy"`, 503 with
   * `Retry-After` for JSON answers, the form again with the code for a browser). A sign-in
   * arriving at a full queue takes the place of the sign-up that came last. @default 32
   */
  queue?: number
  /**
   * Sign-up derivations per client (an IPv4 address, or an IPv6 /64) per window, counted in the
   * shared counters before the hash. `false`: not counted. @default `{ max: 20, window: 600 }`
   */
  perClient?: HashingBudget | false
  /**
   * Sign-up derivations for the whole app (every instance sharing the counter store) per window,
   * counted after `perClient`. Reaching it is logged (once a minute). `false`: not counted.
   * @default `{ max: 60, window: 60 }`: a sign-up a second on average
   */
  global?: HashingBudget | false
}

/** The `hashing` option with its defaults. */
export interface ResolvedHashing {
  concurrency: number
  queue: number
  perClient: HashingBudget | false
  global: HashingBudget | false
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
  /** The deployer's `hash` and `verify`, used instead of `scrypt` when given. */
  own?: OwnHashing
  hashing: ResolvedHashing
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

function wholeNumber(value: number | undefined, fallback: number, name: string, least: number) {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < least)
    throw new TypeError(`Password(): ${name} must be a whole number of at least ${least}`)
  return value
}

function budget(value: HashingBudget | false | undefined, fallback: HashingBudget, name: string) {
  if (value === false) return false
  if (value === undefined) return fallback
  return {
    max: wholeNumber(value.max, fallback.max, `${name}.max`, 1),
    window: wholeNumber(value.window, fallback.window, `${name}.window`, 1),
  }
}

/** The `hashing` option with its defaults, checked once when the provider is configured. */
function resolveHashing(options: PasswordHashing = {}): ResolvedHashing {
  const defaults = defaultHashingLimits()
  return {
    concurrency: wholeNumber(options.concurrency, defaults.concurrency, "hashing.concurrency", 1),
    queue: wholeNumber(options.queue, defaults.queue, "hashing.queue", 0),
    perClient: budget(options.perClient, { max: 20, window: 600 }, "hashing.perClient"),
    global: budget(options.global, { max: 60, window: 60 }, "hashing.global"),
  }
}

/** `hash` and `verify`, both functions or neither, and then no `scrypt` (which they replace). */
function ownHashing(options: PasswordOptions): OwnHashing | undefined {
  const { hash, verify } = options
  if (hash === undefined && verify === undefined) return undefined
  if (typeof hash !== "function" || typeof verify !== "function")
    throw new TypeError(
      "Password(): hash and verify go together: give both functions (a hash made by one is checked by the other), or neither for the default scrypt",
    )
  if (options.scrypt)
    throw new TypeError(
      "Password(): scrypt sets the default hashing's parameters, which hash and verify replace: give one or the other",
    )
  return { hash, verify }
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
  const scrypt = options.scrypt ?? DEFAULT_SCRYPT
  if (!isBoundedScrypt(scrypt))
    throw new TypeError(
      "Password(): scrypt must be whole numbers with ln 10–22, r 1–32, p 1–16 and at most 256 MiB (128 · 2^ln · r bytes)",
    )
  const own = ownHashing(options)
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
      scrypt,
      own,
      hashing: resolveHashing(options.hashing),
      requireEmailVerification: options.requireEmailVerification ?? true,
      signUp: options.signUp ?? true,
      sendMail: options.sendMail,
      verifyMaxAge: positiveSeconds(options.verifyMaxAge, 24 * 60 * 60, "verifyMaxAge"),
      resetMaxAge: positiveSeconds(options.resetMaxAge, 60 * 60, "resetMaxAge"),
      continuePage: options.continuePage ?? true,
    },
  } as PasswordConfig
}
