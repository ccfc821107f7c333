/**
 * Password hashes for the `Password` provider: scrypt from `node:crypto`, with OWASP's current
 * parameters by default (N = 2^17, r = 8, p = 1: 128 MiB and a few hundred milliseconds per hash;
 * the Password Storage Cheat Sheet's scrypt row), a 16-byte random salt and a 32-byte key.
 *
 * A hash names its own algorithm and parameters, in the PHC string format's shape:
 *
 *     $scrypt$ln=17,r=8,p=1$<salt, base64 without padding>$<key, base64 without padding>
 *
 * so that parameters can be raised later: a hash made with others still verifies, and says it
 * should be made again (`needsRehash`), which the sign-in does with the password it just checked.
 *
 * Why scrypt rather than argon2id: it is in `node:crypto` on every Node.js Latch supports, so no
 * native or WASM package has to install (argon2's packages compile or ship binaries per
 * platform), and OWASP lists it with parameters of equal strength. Where there is no
 * `node:crypto` (edge runtimes), the provider takes hashing functions of the app's own.
 */
import { nodeCrypto } from "../lib/node-crypto.js"

/** scrypt's parameters: `ln` is log2 of the cost N, `r` the block size, `p` the parallelism. */
export interface ScryptParams {
  ln: number
  r: number
  p: number
}

/** OWASP's minimum for scrypt (2025): N = 2^17, r = 8, p = 1. */
export const DEFAULT_SCRYPT: Readonly<ScryptParams> = Object.freeze({ ln: 17, r: 8, p: 1 })

const SALT_BYTES = 16
const KEY_BYTES = 32
/** The longest password hashed: longer ones are refused before any work (policy.ts). */
export const MAX_PASSWORD_LENGTH = 1024

/** What verifying a password against a stored hash found. */
export interface PasswordCheck {
  /** The password matches the hash. */
  ok: boolean
  /** It matches, but the hash was made with other parameters (or another format): hash again. */
  needsRehash: boolean
}

const HASH_FORMAT =
  /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/

/**
 * scrypt keys HMAC with the password, and HMAC pads a short key with zero bytes: "pass" and
 * "pass\0" derive the same key. No password holds a NUL (the policy refuses control
 * characters), so one that does is refused before any comparison.
 */
const hasNul = (password: string) => password.includes("\u0000")

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64").replace(/=+$/, "")

/**
 * The password as it is hashed: Unicode NFKC, so that the same password typed on two keyboards
 * (composed or decomposed accents, full-width forms) is the same password (NIST SP 800-63B
 * §5.1.1.2 asks for a normalization).
 */
export const normalizePassword = (password: string): string => password.normalize("NFKC")

function crypto() {
  if (!nodeCrypto)
    throw new Error(
      "Password hashing needs node:crypto (Node.js, Bun or Deno); on another runtime, give the Password provider `hash` and `verify` functions of your own.",
    )
  return nodeCrypto
}

function scrypt(password: string, salt: Uint8Array, params: ScryptParams, length: number) {
  const N = 2 ** params.ln
  // Node refuses to use more than `maxmem` (32 MiB by default); scrypt needs 128 · N · r bytes.
  const maxmem = 128 * N * params.r * params.p + 2 ** 20
  return new Promise<Buffer>((resolve, reject) =>
    crypto().scrypt(
      normalizePassword(password),
      salt,
      length,
      { N, r: params.r, p: params.p, maxmem },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  )
}

/** Hashes a password with `params` (OWASP's by default), with a new random salt. */
export async function hashPassword(
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT,
): Promise<string> {
  if (hasNul(password)) throw new TypeError("A password cannot contain a NUL character.")
  const salt = crypto().randomBytes(SALT_BYTES)
  const key = await scrypt(password, salt, params, KEY_BYTES)
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${b64(salt)}$${b64(key)}`
}

/** The parameters, salt and key of a stored hash, or `undefined` if it is not one of ours. */
function parse(hash: string) {
  const match = HASH_FORMAT.exec(hash)
  if (!match) return undefined
  const [, ln, r, p, salt, key] = match
  const params = { ln: Number(ln), r: Number(r), p: Number(p) }
  // Parameters no hash of ours has, and a cost that would take minutes or gigabytes: a row
  // edited by hand, or planted; not worth the server's memory.
  if (
    params.ln < 10 ||
    params.ln > 22 ||
    params.r < 1 ||
    params.r > 32 ||
    params.p < 1 ||
    params.p > 16
  )
    return undefined
  const bytes = { salt: Buffer.from(salt!, "base64"), key: Buffer.from(key!, "base64") }
  // Exactly the sizes hashPassword writes: a key cut short would compare only its prefix.
  if (bytes.salt.length !== SALT_BYTES || bytes.key.length !== KEY_BYTES) return undefined
  return { params, ...bytes }
}

const sameParams = (a: ScryptParams, b: ScryptParams) => a.ln === b.ln && a.r === b.r && a.p === b.p

/**
 * Checks a password against a stored hash, in constant time over the derived key. A hash that is
 * not in the format above never matches.
 *
 * @param current the parameters new hashes are made with: a match on others needs a rehash
 */
export async function verifyPassword(
  password: string,
  hash: string,
  current: ScryptParams = DEFAULT_SCRYPT,
): Promise<PasswordCheck> {
  const stored = parse(hash)
  if (!stored || hasNul(password)) {
    // Spend the time a real check takes, so that a broken row is not told apart by timing.
    await burnOne(password, current)
    return { ok: false, needsRehash: false }
  }
  const key = await scrypt(password, stored.salt, stored.params, stored.key.length)
  const ok = crypto().timingSafeEqual(key, stored.key)
  return { ok, needsRehash: ok && !sameParams(stored.params, current) }
}

/** One hash per set of parameters, made once, to check unknown users' passwords against. */
const dummies = new Map<string, Promise<string>>()

/**
 * The work of a real check, for a sign-in or reset of an address that has no password: scrypt
 * with the current parameters against a hash that matches nothing, so that the answer takes as
 * long whether the account exists or not.
 */
export async function burnOne(password: string, params: ScryptParams = DEFAULT_SCRYPT) {
  const id = `${params.ln},${params.r},${params.p}`
  let dummy = dummies.get(id)
  if (!dummy) {
    dummy = hashPassword(crypto().randomBytes(24).toString("base64"), params)
    dummies.set(id, dummy)
  }
  const stored = parse(await dummy)!
  await scrypt(password, stored.salt, stored.params, stored.key.length)
}
