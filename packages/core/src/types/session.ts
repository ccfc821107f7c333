// The session options of the configuration.

/** Session options. */
export interface SessionOptions {
  /**
   * `"jwt"` keeps the session in an encrypted cookie; `"database"` keeps it in the adapter and
   * only a random token in the cookie.
   * @default "jwt", or "database" when an adapter is set
   */
  strategy: "jwt" | "database"
  /** Seconds of inactivity after which the session expires. @default 2592000 (30 days) */
  maxAge: number
  /**
   * How often, in seconds, the session's expiry is pushed forward (and, for JWT sessions, the
   * cookie re-issued). `0` updates on every access. @default 86400 (1 day)
   */
  updateAge: number
  /** Creates database session tokens. @default crypto.randomUUID */
  generateSessionToken: () => string
  /**
   * Database sessions: store the SHA-256 of each session token, not the token, so that a
   * leaked `sessions` table hands out no live session. Rows holding the token itself (written
   * before, or by Auth.js) are still found, and moved under the hash when first read. `false`
   * stores the token itself, as Auth.js does (for going back to it). @default true
   */
  hashTokens: boolean
  /**
   * Database sessions: keep recently read sessions in this instance's memory, so that a page of
   * a known session costs no database round trip; the adapter reports every change to sessions
   * and users (`watchSessions`: `@latch/pg-adapter` has it, through PostgreSQL `LISTEN`/`NOTIFY`)
   * and the cache evicts at once, on every instance. `true` for the defaults. Ignored with JWT
   * sessions. @default false
   */
  cache: false | SessionCacheOptions
}

/** `session.cache`: how much each instance keeps. */
export interface SessionCacheOptions {
  /** Sessions kept per instance; the oldest go first. @default 10000 */
  maxEntries: number
  /** Seconds an entry is served before the session is read again. @default 60 */
  maxAge: number
}
