/**
 * Password hashes for the `Password` provider: scrypt with parameters OWASP rates as strong as its
 * first recommendation (N = 2^17, r = 8, p = 1, which needs 128 MiB) in a quarter of the memory:
 * N = 2^15, r = 8, p = 3, 32 MiB per derivation (the Password Storage Cheat Sheet's scrypt table
 * lists the equal trade-offs; p runs serially, so it costs time, not memory). A 16-byte random
 * salt and a 32-byte key.
 *
 * It runs on every runtime (scrypt.ts): `node:crypto`'s scrypt where it works (Node.js, Bun,
 * Deno, workerd with `nodejs_compat`), else in plain JavaScript (romix.ts; Cloudflare
 * Workers without it, Vercel's edge runtime), with the same bytes either way: a hash made on one
 * runtime verifies on every other. 32 MiB fits the smallest of them (128 MB per Workers isolate)
 * with room to spare; a derivation takes a few hundred milliseconds of CPU on the portable path.
 * Salts come from Web Crypto, keys are compared in constant time without `node:crypto`, and
 * base64 is written without `Buffer` (bytes.ts).
 *
 * A hash names its own algorithm and parameters, in the PHC string format's shape:
 *
 *     $scrypt$ln=15,r=8,p=3$<salt, base64 without padding>$<key, base64 without padding>
 *
 * so that parameters can be changed later: a hash made with others (such as `ln=17,r=8,p=1`,
 * the default before) still verifies, and says it should be made again (`needsRehash`), which
 * the sign-in does with the password it just checked.
 *
 * Every derivation goes through the process's limiter (limiter.ts): at most a few at once, the
 * rest queued, refused with `HashingBusy` past the queue. So the memory hashing takes is bounded
 * whatever the traffic: the limiter's concurrency × 32 MiB with the defaults.
 *
 * Why scrypt rather than argon2id: it is in `node:crypto` on every Node.js Latch supports, so no
 * native or WASM package has to install (argon2's packages compile or ship binaries per
 * platform), and OWASP lists it with parameters of equal strength. A deployer who wants argon2id
 * (or a platform's hashing service) gives the provider `hash` and `verify` (custom.ts).
 *
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#scrypt
 */
import { decodeBase64, encodeBase64, randomBytes, sameBytes } from "./bytes.js"
import {
  defaultHashingLimits,
  processLimiter,
  type HashingLimits,
  type HashingPriority,
} from "./limiter.js"
import { deriveScrypt, scryptMemory, type ScryptParams } from "./scrypt.js"

export { scryptMemory, type ScryptParams }

/**
 * N = 2^15, r = 8, p = 3: 32 MiB per derivation, rated by OWASP as strong as its minimum of
 * N = 2^17, r = 8, p = 1 (128 MiB), the default of earlier versions.
 */
export const DEFAULT_SCRYPT: Readonly<ScryptParams> = Object.freeze({ ln: 15, r: 8, p: 3 })

/**
 * The largest scrypt table (128·N·r bytes) a derivation may fill: twice the earlier default's. A
 * stored hash asking for more (a row edited by hand, or planted) never verifies, and `scrypt`
 * options asking for more are refused at start-up: the limiter bounds how many derivations run,
 * this bounds each.
 */
export const MAX_SCRYPT_MEMORY = 256 * 2 ** 20

/** How a derivation waits for its turn (limiter.ts). */
export interface HashingOptions {
  /** Its lane: `"anonymous"` for sign-ups, served after the rest. @default "account" */
  priority?: HashingPriority
  /** The limits of the configuration asking. @default defaultHashingLimits() */
  limits?: HashingLimits
}

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

/**
 * The password as it is hashed: Unicode NFKC, so that the same password typed on two keyboards
 * (composed or decomposed accents, full-width forms) is the same password (NIST SP 800-63B
 * §5.1.1.2 asks for a normalization).
 */
export const normalizePassword = (password: string): string => password.normalize("NFKC")

let defaultLimits: HashingLimits | undefined

/** One derivation, when the process's limiter lets it run (else `HashingBusy`). */
function scrypt(
  password: string,
  salt: Uint8Array,
  params: ScryptParams,
  length: number,
  options: HashingOptions,
) {
  const derive = async () => {
    try {
      return await deriveScrypt(normalizePassword(password), salt, params, length)
    } catch (error) {
      throw new Error(
        `Password hashing failed on this runtime: scrypt (${Math.ceil(scryptMemory(params) / 2 ** 20)} MiB) could not run. Give the Password provider \`hash\` and \`verify\` functions of your own (Password({ hash, verify })), or run password routes where it can.`,
        { cause: error },
      )
    }
  }
  const limits = options.limits ?? (defaultLimits ??= defaultHashingLimits())
  return processLimiter().run(derive, { priority: options.priority ?? "account", limits })
}

/**
 * Hashes a password with `params` (`DEFAULT_SCRYPT` by default), with a new random salt.
 *
 * @throws HashingBusy when the process's limiter refuses the derivation (nothing was computed)
 */
export async function hashPassword(
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT,
  options: HashingOptions = {},
): Promise<string> {
  if (hasNul(password)) throw new TypeError("A password cannot contain a NUL character.")
  const salt = randomBytes(SALT_BYTES)
  const key = await scrypt(password, salt, params, KEY_BYTES, options)
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${encodeBase64(salt)}$${encodeBase64(key)}`
}

/** The parameters, salt and key of a stored hash, or `undefined` if it is not one of ours. */
function parse(hash: string) {
  const match = HASH_FORMAT.exec(hash)
  if (!match) return undefined
  const [, ln, r, p, salt, key] = match
  const params = { ln: Number(ln), r: Number(r), p: Number(p) }
  // Parameters no hash of ours has, and a cost that would take minutes or gigabytes: a row
  // edited by hand, or planted; not worth the server's memory.
  if (!isBoundedScrypt(params)) return undefined
  const bytes = { salt: decodeBase64(salt!), key: decodeBase64(key!) }
  // Exactly the sizes hashPassword writes: a key cut short would compare only its prefix.
  if (bytes.salt?.length !== SALT_BYTES || bytes.key?.length !== KEY_BYTES) return undefined
  return { params, salt: bytes.salt, key: bytes.key }
}

/** Whether a stored hash claims Latch's scrypt format (well-formed or not). */
export const isScryptHash = (hash: string): boolean => hash.startsWith("$scrypt$")

/** Whether scrypt parameters are ones Latch derives with: sane, and at most `MAX_SCRYPT_MEMORY`. */
export function isBoundedScrypt(params: ScryptParams): boolean {
  const { ln, r, p } = params
  if (![ln, r, p].every(Number.isInteger)) return false
  if (ln < 10 || ln > 22 || r < 1 || r > 32 || p < 1 || p > 16) return false
  return 128 * r * 2 ** ln <= MAX_SCRYPT_MEMORY
}

/**
 * Whether scrypt parameters are weaker than every configuration OWASP's Password Storage Cheat
 * Sheet lists (from N = 2^17, r = 8, p = 1 down to N = 2^13, r = 8, p = 10): less memory than
 * its lowest (8 MiB), or less work than its lowest (N · r · p = 655,360). Accepted all the same
 * (tests, a platform's CPU budget), with the `weak-password-hash` warning.
 */
export function isWeakScrypt(params: ScryptParams): boolean {
  const { ln, r, p } = params
  return 128 * r * 2 ** ln < 8 * 2 ** 20 || 2 ** ln * r * p < 655_360
}

const sameParams = (a: ScryptParams, b: ScryptParams) => a.ln === b.ln && a.r === b.r && a.p === b.p

/**
 * Checks a password against a stored hash, in constant time over the derived key. A hash that is
 * not in the format above never matches.
 *
 * @param current the parameters new hashes are made with: a match on others needs a rehash
 * @throws HashingBusy when the process's limiter refuses the derivation (nothing was computed)
 */
export async function verifyPassword(
  password: string,
  hash: string,
  current: ScryptParams = DEFAULT_SCRYPT,
  options: HashingOptions = {},
): Promise<PasswordCheck> {
  const stored = parse(hash)
  if (!stored || hasNul(password)) {
    // Spend the time a real check takes, so that a broken row is not told apart by timing.
    await burnOne(password, current, options)
    return { ok: false, needsRehash: false }
  }
  const key = await scrypt(password, stored.salt, stored.params, stored.key.length, options)
  const ok = sameBytes(key, stored.key)
  return { ok, needsRehash: ok && !sameParams(stored.params, current) }
}

/**
 * The work of a real check, for a sign-in or reset of an address that has no password: one
 * derivation with the current parameters and a fresh salt, whose key is compared with nothing,
 * so that the answer takes as long whether the account exists or not.
 *
 * @throws HashingBusy when the process's limiter refuses the derivation (nothing was computed)
 */
export async function burnOne(
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT,
  options: HashingOptions = {},
): Promise<void> {
  await scrypt(password, randomBytes(SALT_BYTES), params, KEY_BYTES, options)
}
