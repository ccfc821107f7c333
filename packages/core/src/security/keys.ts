/**
 * Keys derived from the secret. A key depends only on the secret and a salt (the cookie name),
 * so it is derived once and cached: HKDF on every request would cost more than the decrypt.
 */
import { encodeBase64url } from "../lib/base64url.js"

const encoder = new TextEncoder()

/** A 512-bit key for `dir` + `A256CBC-HS512`, with its RFC 7638 thumbprint as `kid`. */
export interface DerivedKey {
  /** The 64 key bytes: the MAC key (first half) and the AES key (second half), RFC 7518 §5.2.2.1. */
  bytes: Uint8Array
  /** The key's JWK thumbprint (RFC 7638; see `KeyLabel` for the hash), sent as the JWE `kid`. */
  kid: string
}

/** Upper bound of cached keys: secrets rarely change, so the cache never thrashes. */
const MAX_CACHED_KEYS = 256
const cache = new Map<string, Promise<DerivedKey>>()

/**
 * Whose derivation: Auth.js's (the session token, so that a session cookie reads the same under
 * Auth.js and Latch, both ways) or Latch's own (every other sealed value: check cookies, links,
 * stored second-factor secrets; and session tokens of earlier Latch releases). They differ in the
 * HKDF `info` and in the hash of the `kid` thumbprint: Auth.js's is SHA-512 for a 64-byte key.
 */
export type KeyLabel = "Latch" | "Auth.js"

/** The HKDF `info` for a salt; the salt is the cookie name, so each cookie has its own key. */
function info(salt: string, label: KeyLabel): string {
  return `${label} Generated Encryption Key (${salt})`
}

async function derive(secret: string, salt: string, label: KeyLabel): Promise<DerivedKey> {
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, [
    "deriveBits",
  ])
  const bits = await crypto.subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: encoder.encode(salt),
      info: encoder.encode(info(salt, label)),
    },
    base,
    512,
  )
  const bytes = new Uint8Array(bits)
  // RFC 7638: the thumbprint of an "oct" JWK hashes {"k":…,"kty":"oct"}, members in this order.
  const jwk = `{"k":"${encodeBase64url(bytes)}","kty":"oct"}`
  const hash = label === "Auth.js" ? "SHA-512" : "SHA-256"
  const kid = encodeBase64url(new Uint8Array(await crypto.subtle.digest(hash, encoder.encode(jwk))))
  return { bytes, kid }
}

/**
 * The key for a secret and salt, derived with HKDF-SHA-256 (RFC 5869) on first use and cached.
 */
export function deriveKey(
  secret: string,
  salt: string,
  label: KeyLabel = "Latch",
): Promise<DerivedKey> {
  const id = `${label}\u0000${salt}\u0000${secret}`
  let key = cache.get(id)
  if (!key) {
    if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value!)
    key = derive(secret, salt, label)
    cache.set(id, key)
    key.catch(() => cache.delete(id))
  }
  return key
}

/** The keys of every secret, newest first: the first encrypts, all may decrypt. */
export function deriveKeys(
  secrets: readonly string[],
  salt: string,
  label: KeyLabel = "Latch",
): Promise<DerivedKey[]> {
  return Promise.all(secrets.map((secret) => deriveKey(secret, salt, label)))
}
