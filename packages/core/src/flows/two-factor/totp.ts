/**
 * Time-based one-time passwords (RFC 6238, on HOTP, RFC 4226) as authenticator apps make them:
 * HMAC-SHA-1, 6 digits, 30-second steps — the parameters every app supports, and the only ones
 * some do. A code is accepted for its step and the steps on either side (±1: clocks drift, and
 * a code typed at the end of its step arrives in the next); the caller refuses a step used once
 * already (see verify.ts), so a code seen over a shoulder is worth nothing after its use.
 *
 * On Web Crypto, so that it runs wherever core does.
 */

/** RFC 4648 base32, the alphabet of `otpauth://` secrets. */
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

/** Seconds per step. */
export const TOTP_PERIOD = 30
/** Digits per code. */
export const TOTP_DIGITS = 6
/** Steps accepted on each side of the current one. */
export const TOTP_WINDOW = 1
/** Bytes of a new secret: 160 bits, the HMAC-SHA-1 key size RFC 4226 recommends. */
export const SECRET_BYTES = 20

/** Bytes → base32 without padding (as `otpauth://` URIs carry secrets). */
export function encodeBase32(bytes: Uint8Array): string {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31]
      bits -= 5
    }
    buffer &= (1 << bits) - 1
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31]
  return out
}

/**
 * Base32 → bytes, ignoring case, spaces, hyphens and padding (people copy secrets by hand);
 * `null` for any other character.
 */
export function decodeBase32(text: string): Uint8Array | null {
  const clean = text.toUpperCase().replace(/[\s-]/g, "").replace(/=+$/, "")
  const out: number[] = []
  let buffer = 0
  let bits = 0
  for (const char of clean) {
    const value = BASE32.indexOf(char)
    if (value === -1) return null
    buffer = (buffer << 5) | value
    bits += 5
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff)
      bits -= 8
    }
    buffer &= (1 << bits) - 1
  }
  return new Uint8Array(out)
}

/** A new random secret, base32. */
export function newTotpSecret(): string {
  return encodeBase32(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)))
}

/** The step of a time (milliseconds since the epoch). */
export function stepOf(time: number): number {
  return Math.floor(time / 1000 / TOTP_PERIOD)
}

/** HOTP (RFC 4226 §5.3): the code of `counter` under `key`. */
export async function hotp(key: Uint8Array, counter: number): Promise<string> {
  const message = new Uint8Array(8)
  // The counter is 8 bytes big-endian; steps fit in 53 bits, so split at 2^32.
  new DataView(message.buffer).setUint32(0, Math.floor(counter / 2 ** 32))
  new DataView(message.buffer).setUint32(4, counter >>> 0)
  const cryptoKey = await crypto.subtle.importKey(
    "raw",
    key as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  )
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, message))
  const offset = mac[mac.length - 1]! & 0x0f
  const binary =
    ((mac[offset]! & 0x7f) << 24) |
    (mac[offset + 1]! << 16) |
    (mac[offset + 2]! << 8) |
    mac[offset + 3]!
  return String(binary % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, "0")
}

/** The code of a secret at a time: what the user's app shows. */
export async function totpAt(secret: string, time: number): Promise<string> {
  const key = decodeBase32(secret)
  if (!key || key.length === 0) throw new TypeError("The TOTP secret is not base32")
  return hotp(key, stepOf(time))
}

/** A posted code: digits only (spaces, as apps show "123 456", dropped); else `null`. */
export function normalizeCode(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 32) return null
  const code = value.replace(/\s/g, "")
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code) ? code : null
}

/**
 * The step whose code `code` is, within ±`TOTP_WINDOW` of `time`; `null` when none. Every step
 * of the window is computed and compared, whatever matched, so the time taken says nothing of
 * which one did.
 */
export async function matchingStep(
  secret: string,
  code: string,
  time: number,
): Promise<number | null> {
  const key = decodeBase32(secret)
  if (!key || key.length === 0) return null
  const now = stepOf(time)
  let found: number | null = null
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step++) {
    const expected = await hotp(key, step)
    let difference = 0
    for (let i = 0; i < TOTP_DIGITS; i++) difference |= expected.charCodeAt(i) ^ code.charCodeAt(i)
    if (difference === 0 && found === null) found = step
  }
  return found
}

/**
 * The enrolment URI authenticator apps read (Key Uri Format, as Google Authenticator defined
 * it): `otpauth://totp/<issuer>:<account>?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30`.
 */
export function otpauthUri(params: { issuer: string; account: string; secret: string }): string {
  const label = `${encodeURIComponent(params.issuer)}:${encodeURIComponent(params.account)}`
  const query = new URLSearchParams({
    secret: params.secret,
    issuer: params.issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD),
  })
  return `otpauth://totp/${label}?${query}`
}
