/**
 * What the database holds for a session token (`session.hashTokens`, on by default): the
 * SHA-256 of the cookie's token, in lowercase hex — what `hashSessionTokens` of
 * `@latch/pg-adapter` and PostgreSQL's `encode(sha256(…), 'hex')` compute too. A reader of the
 * `sessions` table then sees which users have sessions until when, but holds no cookie: the
 * token is 122 random bits (a v4 UUID), its hash cannot be turned back into it, and a hash sent
 * as a cookie is hashed again and matches nothing.
 *
 * Rows written before hashing (or by Auth.js) hold the token itself. They are still found —
 * looked up by the token when its hash matches nothing — and moved under the hash on that read;
 * never for a token that has the shape of a hash, whatever its case, and only when the row found
 * holds exactly the token sent, so that a stolen hash is not a way in through that second lookup.
 * Both matter on a store that compares text loosely: MySQL's and SQL Server's default collations
 * (used by Auth.js adapters) ignore case, and MySQL's also accents and trailing spaces, so a hash
 * sent upper-cased, or with one letter accented, would find the row that holds it.
 */
import type { ResolvedConfig } from "../config/resolved.js"
import { sha256HexNow, timingSafeEqual } from "../lib/crypto.js"

/** The shape of a stored hash: 64 hex characters, in either case (see the module's comment). */
const HASH = /^[0-9a-f]{64}$/i

/** The key a session token is stored under: its hash, or itself with `hashTokens: false`. */
export function storedToken(config: ResolvedConfig, token: string): string | Promise<string> {
  return config.session.hashTokens ? sha256HexNow(token) : token
}

/**
 * Whether a token may have been stored as it is, in a row written before hashing: with
 * `hashTokens` on, any token that is not shaped like a hash.
 */
export function mayBeStoredUnhashed(config: ResolvedConfig, token: string): boolean {
  return config.session.hashTokens && !HASH.test(token)
}

/**
 * Whether a row found by a token as it is (`mayBeStoredUnhashed`) holds exactly that token: a
 * store comparing text loosely also finds a row whose token differs in case, accents or trailing
 * spaces — a stored hash among them.
 */
export function holdsToken(stored: string, token: string): boolean {
  return timingSafeEqual(stored, token)
}
