/**
 * Small cryptographic helpers on Web Crypto, so that they run on every runtime. The hot path
 * (session cookies) has its own backend in `jwe.ts`.
 */
import { encodeBase64url } from "./base64url.js"
import { nodeCrypto } from "./node-crypto.js"

const encoder = new TextEncoder()

/** `bytes` random bytes, hex-encoded. */
export function randomHex(bytes = 32): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes))
  let hex = ""
  for (let i = 0; i < buffer.length; i++) hex += buffer[i]!.toString(16).padStart(2, "0")
  return hex
}

/** `bytes` random bytes, base64url-encoded. */
export function randomBase64url(bytes = 32): string {
  return encodeBase64url(crypto.getRandomValues(new Uint8Array(bytes)))
}

function toHex(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer)
  let hex = ""
  for (let i = 0; i < bytes.length; i++) hex += bytes[i]!.toString(16).padStart(2, "0")
  return hex
}

/** SHA-256 of a UTF-8 string, hex-encoded. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", encoder.encode(text)))
}

/**
 * SHA-256 of a UTF-8 string, hex-encoded: at once where `node:crypto` is (a session read hashes
 * its cookie's token on every request), else as a promise.
 */
export function sha256HexNow(text: string): string | Promise<string> {
  return nodeCrypto ? nodeCrypto.createHash("sha256").update(text).digest("hex") : sha256Hex(text)
}

const hmacKeys = new Map<string, Promise<CryptoKey>>()

/** HMAC-SHA-256 of `data` under `key`, hex-encoded. Imported keys are cached per key. */
export async function hmacSha256Hex(key: string, data: string): Promise<string> {
  let cryptoKey = hmacKeys.get(key)
  if (!cryptoKey) {
    cryptoKey = crypto.subtle.importKey(
      "raw",
      encoder.encode(key),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    )
    if (hmacKeys.size > 64) hmacKeys.clear()
    hmacKeys.set(key, cryptoKey)
  }
  return toHex(await crypto.subtle.sign("HMAC", await cryptoKey, encoder.encode(data)))
}

/**
 * Compares two strings in time that depends only on their length, so that a token cannot be
 * guessed one character at a time. Tokens compared here have a fixed length.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}
