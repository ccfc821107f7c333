/**
 * The session cookies of an Auth.js (`@auth/core`) app, as its users' browsers still hold them
 * after the move to Latch: their names, and how a JWT session in them is encrypted.
 *
 * Auth.js encrypts the session JWT as Latch does (compact JWE, `alg: "dir"`,
 * `enc: "A256CBC-HS512"`, a 64-byte key derived with HKDF-SHA-256 from the secret, the cookie
 * name as the salt); only the HKDF `info` differs: "Auth.js Generated Encryption Key (<salt>)".
 */
import type { DerivedKey } from "../security/keys.js"

/** Auth.js's session cookie on http. */
export const AUTHJS_SESSION_COOKIE = "authjs.session-token"
/** Auth.js's session cookie on https. */
export const AUTHJS_SECURE_SESSION_COOKIE = "__Secure-authjs.session-token"

/** Both names, the https one first (it is the one a deployed app set). */
export const AUTHJS_SESSION_COOKIES = [AUTHJS_SECURE_SESSION_COOKIE, AUTHJS_SESSION_COOKIE]

const encoder = new TextEncoder()

/** Upper bound of cached keys: secrets and cookie names are few. */
const MAX_CACHED_KEYS = 64
const cache = new Map<string, Promise<DerivedKey>>()

async function derive(secret: string, salt: string): Promise<DerivedKey> {
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, [
    "deriveBits",
  ])
  const bits = await crypto.subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: encoder.encode(salt),
      info: encoder.encode(`Auth.js Generated Encryption Key (${salt})`),
    },
    base,
    512,
  )
  // No `kid`: these keys only decrypt, and are tried in the order of the secrets.
  return { bytes: new Uint8Array(bits), kid: "" }
}

/** The keys Auth.js encrypted a session cookie named `salt` with, one per secret, derived once. */
export function authjsKeys(secrets: readonly string[], salt: string): Promise<DerivedKey[]> {
  return Promise.all(
    secrets.map((secret) => {
      const id = `${salt}\u0000${secret}`
      let key = cache.get(id)
      if (!key) {
        if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value!)
        key = derive(secret, salt)
        cache.set(id, key)
        key.catch(() => cache.delete(id))
      }
      return key
    }),
  )
}
