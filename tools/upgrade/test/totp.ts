/**
 * The codes an authenticator app shows (RFC 6238: HMAC-SHA-1 over the 30-second step, 6 digits,
 * RFC 4226's dynamic truncation), from the key the setup page shows in base32 (RFC 4648).
 */
import { createHmac } from "node:crypto"

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

function base32Decode(text: string): Buffer {
  const bytes: number[] = []
  let bits = 0
  let value = 0
  for (const char of text.replace(/[\s=]/g, "").toUpperCase()) {
    const index = BASE32.indexOf(char)
    if (index < 0) throw new Error(`not base32: ${char}`)
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes.push((value >>> bits) & 0xff)
    }
  }
  return Buffer.from(bytes)
}

/** The code for the time `at` (milliseconds). */
export function totp(key: string, at = Date.now()): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)))
  const mac = createHmac("sha1", base32Decode(key)).update(counter).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  const number = mac.readUInt32BE(offset) & 0x7fffffff
  return String(number % 1_000_000).padStart(6, "0")
}
