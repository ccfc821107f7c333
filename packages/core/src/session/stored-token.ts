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
 * never for a token that has the shape of a hash, so that a stolen hash is not a way in through
 * that second lookup.
 */
import type { ResolvedConfig } from "../config/resolve.js"
import { sha256HexNow } from "../lib/crypto.js"

/** The shape of a stored hash: 64 lowercase hex characters. */
const HASH = /^[0-9a-f]{64}$/

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
