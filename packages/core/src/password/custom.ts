/**
 * A deployer's own password hashing (`Password({ hash, verify })`): argon2id from a native
 * package, bcrypt for hashes imported from another system, a platform's hashing service. Latch
 * keeps the rest of what it does around its own scrypt:
 *
 * - the password is NFKC-normalized before either function sees it (hash.ts), and one with a NUL
 *   is refused before any work;
 * - every call waits for a slot of the process's limiter (limiter.ts) and its budgets, as a
 *   scrypt derivation does: a sign-up flood cannot run the deployer's hashing without bound;
 * - a sign-in of an address without an account calls `hash` and throws the result away, so that
 *   it costs what checking a real account's password costs (`verify` of a hash made by `hash`
 *   takes as long as making it, for every memory-hard function);
 * - `verify` may say a hash matched but should be made again (`needsRehash`): the sign-in then
 *   calls `hash` and stores the new one, as it does for scrypt hashes of older parameters;
 * - hashes in Latch's own format (`$scrypt$…`, made by the default before `hash` was set) are
 *   checked by Latch, never by `verify`, and made again with `hash` once they match: every
 *   account moves over at its next sign-in with no code of the deployer's. (A `verify` calling
 *   `verifyPassword` itself would wait for a second slot of the limiter while holding one: with
 *   one slot, forever.) So `hash` must not make hashes of that format.
 */
import type { Awaitable } from "../types.js"
import {
  isScryptHash,
  normalizePassword,
  verifyPassword,
  type HashingOptions,
  type PasswordCheck,
} from "./hash.js"
import { defaultHashingLimits, processLimiter, type HashingLimits } from "./limiter.js"

/**
 * What `verify` answers: whether the password matches, or that and whether the stored hash
 * should be made again with `hash` (its parameters or algorithm are outdated).
 */
export type PasswordVerification = boolean | { ok: boolean; needsRehash?: boolean }

/** A deployer's own password hashing (see `PasswordOptions.hash`). */
export interface OwnHashing {
  /** A new hash of `password` (already NFKC-normalized), as the adapter will store it. */
  hash: (password: string) => Awaitable<string>
  /** Whether `password` (already NFKC-normalized) matches `stored`, a hash `hash` made. */
  verify: (password: string, stored: string) => Awaitable<PasswordVerification>
}

let defaultLimits: HashingLimits | undefined

/** `work` when the process's limiter lets it run (else `HashingBusy`). */
function limited<T>(work: () => Awaitable<T>, options: HashingOptions): Promise<T> {
  const limits = options.limits ?? (defaultLimits ??= defaultHashingLimits())
  return processLimiter().run(async () => work(), {
    priority: options.priority ?? "account",
    limits,
  })
}

const hasNul = (password: string) => password.includes("\u0000")

/** A shape that is not what the functions promise: a configuration error, said plainly. */
function misbehaved(name: "hash" | "verify", expected: string, value: unknown): TypeError {
  const got = value === null ? "null" : typeof value
  return new TypeError(`Password(): ${name} must return ${expected}; it returned ${got}.`)
}

/** A new hash with the deployer's `hash`. */
export async function hashWithOwn(
  own: OwnHashing,
  password: string,
  options: HashingOptions = {},
): Promise<string> {
  if (hasNul(password)) throw new TypeError("A password cannot contain a NUL character.")
  const hash = await limited(() => own.hash(normalizePassword(password)), options)
  if (typeof hash !== "string" || hash === "")
    throw misbehaved("hash", "a promise of a non-empty string", hash)
  if (isScryptHash(hash))
    throw new TypeError(
      "Password(): hash must not return Latch's own $scrypt$ format: Latch checks those hashes itself and would replace this one at every sign-in. Use another prefix.",
    )
  return hash
}

/**
 * The deployer's `verify` of `password` against `stored`, as a `PasswordCheck`; Latch's own check
 * for a hash of its scrypt format, which then always needs a rehash (with `hash`).
 */
export async function verifyWithOwn(
  own: OwnHashing,
  password: string,
  stored: string,
  options: HashingOptions = {},
): Promise<PasswordCheck> {
  if (isScryptHash(stored)) {
    const { ok } = await verifyPassword(password, stored, undefined, options)
    return { ok, needsRehash: ok }
  }
  if (hasNul(password)) {
    await burnWithOwn(own, password.replaceAll("\u0000", ""), options)
    return { ok: false, needsRehash: false }
  }
  const answer = await limited(() => own.verify(normalizePassword(password), stored), options)
  if (typeof answer === "boolean") return { ok: answer, needsRehash: false }
  if (typeof answer !== "object" || answer === null || typeof answer.ok !== "boolean")
    throw misbehaved("verify", "a promise of a boolean or of { ok, needsRehash? }", answer)
  return { ok: answer.ok, needsRehash: answer.ok && answer.needsRehash === true }
}

/** The work of a check for an address without a password: one `hash`, thrown away. */
export async function burnWithOwn(
  own: OwnHashing,
  password: string,
  options: HashingOptions = {},
): Promise<void> {
  await limited(() => own.hash(normalizePassword(password)), options)
}
