/**
 * What a new password must be, after NIST SP 800-63B §3.1.1.2 (2024): length, not composition.
 * At least 8 characters (15 is NIST's for a password used alone; apps choose), at most a generous
 * maximum (at least 64 must be allowed: the default is 256), any character (spaces and emoji
 * included, counted as the user sees them; control characters excepted, which no one types), no
 * rule on character classes, no expiry. Refused:
 * a password that is the account's own address or name, and, through a hook the app gives (no
 * network call by default), one found in a list of breached passwords.
 */
import { MAX_PASSWORD_LENGTH, normalizePassword } from "./hash.js"

type Awaitable<T> = T | PromiseLike<T>

/** Why a new password is refused (the code in `PasswordRefused` and on the page). */
export type PasswordPolicyCode =
  | "password_too_short"
  | "password_too_long"
  | "password_control_characters"
  | "password_like_identifier"
  | "password_breached"

/** The `policy` option of the `Password` provider. */
export interface PasswordPolicy {
  /** Fewest characters (user-perceived, after normalization). @default 8 */
  minLength?: number
  /** Most characters. At least 64; at most 1024. @default 256 */
  maxLength?: number
  /**
   * Whether the password is known from a breach (e.g. a k-anonymity lookup in a breached-password
   * service, or a local list). `true` refuses it. A hook that throws lets the password through,
   * logged: an outage of that service must not stop sign-ups. @default none
   */
  isBreached?: (password: string) => Awaitable<boolean>
}

/** The length a user sees: grapheme clusters, so that "é" or a family emoji is one character. */
export function passwordLength(password: string): number {
  const normalized = normalizePassword(password)
  const Segmenter = (Intl as { Segmenter?: typeof Intl.Segmenter }).Segmenter
  if (!Segmenter) return [...normalized].length
  let count = 0
  for (const _ of new Segmenter(undefined, { granularity: "grapheme" }).segment(normalized)) count++
  return count
}

/** The policy's bounds, checked once when the provider is configured. */
export function policyBounds(policy: PasswordPolicy = {}) {
  const minLength = policy.minLength ?? 8
  const maxLength = policy.maxLength ?? 256
  if (!Number.isInteger(minLength) || minLength < 1)
    throw new TypeError("Password policy: minLength must be a positive integer.")
  if (!Number.isInteger(maxLength) || maxLength < 64 || maxLength > MAX_PASSWORD_LENGTH)
    throw new TypeError(
      `Password policy: maxLength must be an integer from 64 to ${MAX_PASSWORD_LENGTH} (NIST SP 800-63B asks that at least 64 characters be allowed).`,
    )
  if (minLength > maxLength) throw new TypeError("Password policy: minLength exceeds maxLength.")
  return { minLength, maxLength }
}

/** What the password must not be: the account's address, its local part, the user's name. */
function identifiersOf(account: { email?: string | null; name?: string | null }): string[] {
  const found: string[] = []
  const email = account.email?.trim().toLowerCase()
  if (email) {
    found.push(email)
    const local = email.split("@")[0]
    if (local && local.length >= 3) found.push(local)
  }
  const name = account.name?.trim().toLowerCase()
  if (name && name.length >= 3) found.push(name)
  return found
}

/**
 * Checks a new password (sign-up, reset, change): `undefined` when it may be used, else why
 * not. `account` is who it is for; `onHookError` hears of a breached-password hook that failed.
 */
export async function checkNewPassword(
  password: string,
  policy: PasswordPolicy | undefined,
  account: { email?: string | null; name?: string | null },
  onHookError: (error: unknown) => void = () => {},
): Promise<PasswordPolicyCode | undefined> {
  const { minLength, maxLength } = policyBounds(policy)
  // Bounded before anything else: segmenting a megabyte would be work for nothing.
  if (password.length > maxLength * 8) return "password_too_long"
  const length = passwordLength(password)
  if (length < minLength) return "password_too_short"
  if (length > maxLength) return "password_too_long"
  // Control characters are nothing a user types (and a NUL would weaken the hash: see hash.ts).
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(password)) return "password_control_characters"
  const lowered = normalizePassword(password).toLowerCase()
  if (identifiersOf(account).includes(lowered)) return "password_like_identifier"
  if (policy?.isBreached) {
    try {
      if (await policy.isBreached(password)) return "password_breached"
    } catch (error) {
      onHookError(error)
    }
  }
  return undefined
}
