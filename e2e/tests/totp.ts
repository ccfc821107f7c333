// The test's own authenticator app: time-based one-time passwords (RFC 6238, on HOTP, RFC 4226)
// as Google Authenticator and the others make them — HMAC-SHA-1, 6 digits, 30-second steps —
// from the key the demo's setup page shows. Written apart from Latch's own code (node:crypto,
// not core's Web Crypto), so that a mistake in one is not repeated in the other.
import { createHmac } from "node:crypto"

/** Seconds per step. */
export const PERIOD = 30
/** Digits per code. */
export const DIGITS = 6

/** RFC 4648 base32, the alphabet of authenticator keys. */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

/** A key as people copy it (any case, spaces between groups, `=` padding) → its bytes. */
export function base32Decode(key: string): Buffer {
  const clean = key.toUpperCase().replace(/\s+/g, "").replace(/=+$/, "")
  const bytes: number[] = []
  let buffer = 0
  let bits = 0
  for (const char of clean) {
    const value = ALPHABET.indexOf(char)
    if (value === -1) throw new TypeError(`Not a base32 key: ${JSON.stringify(key)}`)
    buffer = ((buffer << 5) | value) & 0xffff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes.push((buffer >> bits) & 0xff)
    }
  }
  return Buffer.from(bytes)
}

/** HOTP (RFC 4226 §5.3): the code of a counter, with `digits` digits. */
export function hotp(key: Buffer, counter: number, digits = DIGITS): string {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac("sha1", key).update(message).digest()
  // Dynamic truncation: four bytes at the offset the last nibble names, without the sign bit.
  const offset = mac[mac.length - 1]! & 0x0f
  const binary = mac.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** digits).padStart(digits, "0")
}

/** The step of a time (milliseconds since the epoch). */
export function stepAt(time: number): number {
  return Math.floor(time / 1000 / PERIOD)
}

/** The code of a base32 key for a step. */
export function totp(key: string, step: number, digits = DIGITS): string {
  return hotp(base32Decode(key), step, digits)
}

/**
 * An authenticator app holding one key, which remembers the steps whose codes were given: Latch
 * accepts a step once (and one step either side of its own clock), so each code this hands out
 * is of a step not used yet — this one, the next, or the one before.
 */
export class Authenticator {
  /** The steps whose codes were posted, and the codes. */
  readonly used = new Map<number, string>()
  /** The step of the code handed out last. */
  private last: number | undefined

  constructor(readonly key: string) {}

  /**
   * A code of a step not used yet: the current step's, else the next one's (accepted from now
   * until the server's clock is two steps on), else the one before (while at least 5 seconds
   * of the current step are left). Waits for the next step when all three were used.
   */
  async code(): Promise<string> {
    for (;;) {
      const now = Date.now()
      const step = stepAt(now)
      const left = (step + 1) * PERIOD * 1000 - now
      // The current step late in its 30 seconds arrives, at worst, in the next one: accepted.
      const candidates = left > 5_000 ? [step, step + 1, step - 1] : [step, step + 1]
      const free = candidates.find((candidate) => !this.used.has(candidate))
      if (free !== undefined) return this.take(free)
      await new Promise((resolve) => setTimeout(resolve, left + 100))
    }
  }

  /**
   * The code handed out last again, as someone who saw it over a shoulder would post it: Latch
   * must still accept its step for the time, so that a refusal is about the replay (its step is
   * the current one or the next, or the one before with 5 seconds of this one left).
   */
  replay(): string {
    if (this.last === undefined) throw new Error("No code was handed out yet")
    const now = Date.now()
    const step = stepAt(now)
    const left = (step + 1) * PERIOD * 1000 - now
    if (this.last < step - 1 || (this.last === step - 1 && left <= 5_000)) {
      throw new Error("The last code's step is over: the server would call it wrong, not used")
    }
    return this.used.get(this.last)!
  }

  /**
   * Six digits that are no code of the key now (nor of the steps either side, nor soon after).
   */
  wrongCode(): string {
    const step = stepAt(Date.now())
    const codes = new Set([-1, 0, 1, 2].map((offset) => totp(this.key, step + offset)))
    for (let candidate = Number(totp(this.key, step)) + 1; ; candidate++) {
      const code = String(candidate % 10 ** DIGITS).padStart(DIGITS, "0")
      if (!codes.has(code)) return code
    }
  }

  private take(step: number): string {
    const code = totp(this.key, step)
    this.used.set(step, code)
    this.last = step
    return code
  }
}
