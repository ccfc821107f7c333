/**
 * Password hashes for the `Password` provider: scrypt from `node:crypto`, with parameters OWASP
 * rates as strong as its first recommendation (N = 2^17, r = 8, p = 1, which needs 128 MiB) in a
 * quarter of the memory: N = 2^15, r = 8, p = 3, 32 MiB and a few hundred milliseconds per hash
 * (the Password Storage Cheat Sheet's scrypt table lists the equal trade-offs; p runs serially,
 * so it costs time, not memory). A 16-byte random salt and a 32-byte key.
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
 * platform), and OWASP lists it with parameters of equal strength. Where there is no
 * `node:crypto` (edge runtimes), hashing fails with an error that says so.
 *
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#scrypt
 */
import { nodeCrypto } from "../lib/node-crypto.js"
import {
  defaultHashingLimits,
  processLimiter,
  type HashingLimits,
  type HashingPriority,
} from "./limiter.js"

/** scrypt's parameters: `ln` is log2 of the cost N, `r` the block size, `p` the parallelism. */
export interface ScryptParams {
  ln: number
  r: number
  p: number
}

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

/**
 * The bytes a derivation allocates: V, N blocks of 128·r bytes (and two more of scratch), and B,
 * p blocks. OpenSSL refuses `maxmem` below exactly this; the p blocks of B are mixed one after
 * another through the same V, so p multiplies the time, not the memory.
 *
 * @see https://nodejs.org/api/crypto.html#cryptoscryptpassword-salt-keylen-options-callback
 */
export function scryptMemory(params: ScryptParams): number {
  return 128 * params.r * (2 ** params.ln + 2) + 128 * params.r * params.p
}

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
      "Password hashing needs node:crypto (Node.js, Bun or Deno); on another runtime, check passwords in a Credentials provider's authorize with a hashing library of your own.",
    )
  return nodeCrypto
}

let defaultLimits: HashingLimits | undefined

/** One derivation, when the process's limiter lets it run (else `HashingBusy`). */
function scrypt(
  password: string,
  salt: Uint8Array,
  params: ScryptParams,
  length: number,
  options: HashingOptions,
) {
  const node = crypto()
  // Node refuses to use more than `maxmem` (32 MiB by default, a little less than the defaults'
  // 32 MiB and 5 KiB): room for what this derivation needs, and a margin for other builds of
  // scrypt (BoringSSL's in Bun) that count their scratch space another way.
  const maxmem = scryptMemory(params) + 2 ** 20
  const derive = () =>
    new Promise<Buffer>((resolve, reject) =>
      node.scrypt(
        normalizePassword(password),
        salt,
        length,
        { N: 2 ** params.ln, r: params.r, p: params.p, maxmem },
        (error, key) => (error ? reject(error) : resolve(key)),
      ),
    )
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
  const salt = crypto().randomBytes(SALT_BYTES)
  const key = await scrypt(password, salt, params, KEY_BYTES, options)
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
  if (!isBoundedScrypt(params)) return undefined
  const bytes = { salt: Buffer.from(salt!, "base64"), key: Buffer.from(key!, "base64") }
  // Exactly the sizes hashPassword writes: a key cut short would compare only its prefix.
  if (bytes.salt.length !== SALT_BYTES || bytes.key.length !== KEY_BYTES) return undefined
  return { params, ...bytes }
}

/** Whether scrypt parameters are ones Latch derives with: sane, and at most `MAX_SCRYPT_MEMORY`. */
export function isBoundedScrypt(params: ScryptParams): boolean {
  const { ln, r, p } = params
  if (![ln, r, p].every(Number.isInteger)) return false
  if (ln < 10 || ln > 22 || r < 1 || r > 32 || p < 1 || p > 16) return false
  return 128 * r * 2 ** ln <= MAX_SCRYPT_MEMORY
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
  const ok = crypto().timingSafeEqual(key, stored.key)
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
  await scrypt(password, crypto().randomBytes(SALT_BYTES), params, KEY_BYTES, options)
}
