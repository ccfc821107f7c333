/**
 * The byte work around a password hash, with Web APIs only: Cloudflare Workers without
 * `nodejs_compat` have no `Buffer` and no `node:crypto`, and a hash made there must read the same
 * everywhere else.
 */
import { decodeBase64url, encodeBase64url } from "../lib/base64url.js"

/** Bytes → base64 (RFC 4648 §4, `+` and `/`) without padding, as stored hashes spell it. */
export function encodeBase64(bytes: Uint8Array): string {
  return encodeBase64url(bytes).replace(/-/g, "+").replace(/_/g, "/")
}

/** Base64 without padding → bytes; `undefined` for text that is not. */
export function decodeBase64(text: string): Uint8Array | undefined {
  // base64url is the same alphabet with two characters swapped: one decoder for both.
  if (/[-_]/.test(text)) return undefined
  return decodeBase64url(text.replace(/\+/g, "-").replace(/\//g, "_")) ?? undefined
}

/** `length` random bytes from Web Crypto (every runtime Latch runs on has it, Node.js too). */
export function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length))
}

/**
 * Whether two byte strings are equal, in a time that depends on their length only: every byte
 * is compared whatever the first difference (`node:crypto`'s `timingSafeEqual` is not on every
 * runtime; this is the same loop).
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!
  return difference === 0
}
