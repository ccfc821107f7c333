/**
 * The address a sign-in link goes to. What the user typed becomes exactly one plain address,
 * or nothing: the address ends up in the mail's `To:` header and in the database, so anything
 * that could smuggle a second recipient, a header, or a look-alike is refused.
 */
import { EmailSignInError } from "../../errors.js"

/** RFC 5321's limit on a path, less the angle brackets: 254 characters. */
export const MAX_ADDRESS_LENGTH = 254

/**
 * The local part: RFC 5322 `dot-atom` characters (no quoted strings, no comments), plus any
 * letter or digit (RFC 6531 internationalized addresses). Dots only between atoms.
 */
const ATOM = "[\\p{L}\\p{N}!#$%&'*+/=?^_`{|}~-]+"
const LOCAL = new RegExp(String.raw`^${ATOM}(?:\.${ATOM})*$`, "u")
/** A domain: two or more labels of letters, digits and inner hyphens (IDNs allowed). */
const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?`
const DOMAIN = new RegExp(String.raw`^${LABEL}(?:\.${LABEL})+$`, "u")
/**
 * Control characters (CR, LF, NUL…), format characters (zero-width spaces and joiners, the
 * bidi overrides and isolates, the BOM), separators and unassigned or private-use code points.
 */
const FORBIDDEN = /[\p{C}\p{Z}]/u

/** Whether `address` is one plain address: `local@domain`, nothing around it. */
export function isPlainAddress(address: string): boolean {
  if (address.length === 0 || address.length > MAX_ADDRESS_LENGTH) return false
  if (FORBIDDEN.test(address)) return false
  const at = address.indexOf("@")
  if (at <= 0 || at !== address.lastIndexOf("@")) return false
  const local = address.slice(0, at)
  const domain = address.slice(at + 1)
  return local.length <= 64 && LOCAL.test(local) && DOMAIN.test(domain)
}

/** The default normalization: trim, lowercase. */
export function defaultNormalizeIdentifier(identifier: string): string {
  return identifier.trim().toLowerCase()
}

/**
 * The address to send to, from what was posted: normalized (by the provider's
 * `normalizeIdentifier` or the default), then checked. Throws `EmailSignInError` otherwise.
 */
export function normalizeAddress(
  input: unknown,
  normalize: (identifier: string) => string = defaultNormalizeIdentifier,
): string {
  if (typeof input !== "string" || input.length > 4 * MAX_ADDRESS_LENGTH) {
    throw new EmailSignInError("No usable email address was given")
  }
  let address: unknown
  try {
    address = normalize(input)
  } catch (error) {
    throw new EmailSignInError("normalizeIdentifier refused the address", { cause: error })
  }
  if (typeof address !== "string" || !isPlainAddress(address)) {
    throw new EmailSignInError("The email address is not one plain address")
  }
  return address
}
