/**
 * The session cookie's names and format. Latch reads and writes the session as Auth.js
 * (`@auth/core`) does — under its cookie names, encrypted with its key derivation — so that
 * moving an app from Auth.js to Latch, or back, signs nobody out, and code that names
 * `authjs.session-token` keeps working.
 *
 * The format: a compact JWE (`alg: "dir"`, `enc: "A256CBC-HS512"`), its 64-byte key derived with
 * HKDF-SHA-256 from the secret, the cookie name as the salt and "Auth.js Generated Encryption Key
 * (<salt>)" as the info; `kid` is the key's RFC 7638 thumbprint (SHA-512).
 *
 * Earlier Latch releases named the cookie `latch.session-token` and derived its key with the
 * info "Latch Generated Encryption Key (<salt>)". Such a cookie is still read, and moved to the
 * current name on that read (`migrate.ts`), so that nobody is signed out by the change either.
 */
import { deriveKeys, type DerivedKey } from "../security/keys.js"

/** Auth.js's session cookie names (and Latch's defaults), the https one first. */
export const AUTHJS_SESSION_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"]

/** The session cookie names of earlier Latch releases, the https one first. */
export const LEGACY_SESSION_COOKIES = ["__Secure-latch.session-token", "latch.session-token"]

/**
 * The keys a session cookie named `salt` may be encrypted with, one pair per secret: Auth.js's
 * derivation (the first of these encrypts), then Latch's earlier one. A token's `kid` picks the
 * right one at once.
 */
export async function sessionKeys(secrets: readonly string[], salt: string): Promise<DerivedKey[]> {
  const [current, legacy] = await Promise.all([
    deriveKeys(secrets, salt, "Auth.js"),
    deriveKeys(secrets, salt, "Latch"),
  ])
  return [...current, ...legacy]
}

/**
 * The names besides the configured one where a session may still be: Auth.js's defaults (an app
 * that renamed its cookie may have run on Auth.js under these) and the earlier Latch names. On
 * https only the `__Secure-` ones: a plain cookie can be planted over http or by a sibling
 * subdomain, and a planted session (the attacker's own) must not sign a visitor in.
 */
export function fallbackSessionCookies(current: string, secure: boolean): string[] {
  return [...AUTHJS_SESSION_COOKIES, ...LEGACY_SESSION_COOKIES].filter(
    (name) => name !== current && name.startsWith("__Secure-") === secure,
  )
}

/** Whether a `Cookie` header may carry a session under a default or earlier name (a cheap look). */
export function mayHaveFallbackSession(header: string): boolean {
  return header.includes("authjs.session-token") || header.includes("latch.session-token")
}
