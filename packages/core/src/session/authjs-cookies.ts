/**
 * The session cookies of an Auth.js (`@auth/core`) app, as its users' browsers still hold them
 * after the move to Latch: their names, and how a JWT session in them is encrypted.
 *
 * Auth.js encrypts the session JWT as Latch does (compact JWE, `alg: "dir"`,
 * `enc: "A256CBC-HS512"`, a 64-byte key derived with HKDF-SHA-256 from the secret, the cookie
 * name as the salt); only the HKDF `info` differs: "Auth.js Generated Encryption Key (<salt>)".
 */
import { deriveKeys, type DerivedKey } from "../security/keys.js"

/** Auth.js's session cookie on http. */
export const AUTHJS_SESSION_COOKIE = "authjs.session-token"
/** Auth.js's session cookie on https. */
export const AUTHJS_SECURE_SESSION_COOKIE = "__Secure-authjs.session-token"

/** Both names, the https one first (it is the one a deployed app set). */
export const AUTHJS_SESSION_COOKIES = [AUTHJS_SECURE_SESSION_COOKIE, AUTHJS_SESSION_COOKIE]

/** The keys Auth.js encrypted a session cookie named `salt` with, one per secret, derived once. */
export function authjsKeys(secrets: readonly string[], salt: string): Promise<DerivedKey[]> {
  return deriveKeys(secrets, salt, "Auth.js")
}
