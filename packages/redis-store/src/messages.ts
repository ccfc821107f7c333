/**
 * What travels on the sessions channel, as JSON: a change (`{ sessionToken }`, `{ userId }`,
 * the shapes `SessionChange` has), `{ reset: true }` (changes may have been lost: drop
 * everything), or a watch's own heartbeat `{ ping }`. Anything else is ignored, so a message
 * published by hand in another shape does no harm.
 */
import type { SessionChange } from "@latch/core/adapters"

/** What may be published: a change, or a `reset` (every instance drops its cache). */
export type Change = SessionChange | { reset: true }

export type Message = Change | { ping: string }

export const encode = (message: Message) => JSON.stringify(message)

/**
 * What `session.hashTokens` (on by default) stores: the SHA-256 of the cookie's token, in
 * lowercase hex. Only a stored token of that shape may travel on the channel: any client of the
 * Redis can subscribe to it, and a token of any other shape (`hashTokens: false`, or a row
 * written raw by Auth.js before hashing) is the value of someone's session cookie.
 */
const STORED_HASH = /^[0-9a-f]{64}$/

export const isStoredHash = (token: string) => STORED_HASH.test(token)

/**
 * The message that tells of a change to the session stored under `sessionToken`: the token
 * itself when it is a hash; otherwise the session's user (`userId`, which evicts every cached
 * session of that user: wider, still correct), or a `reset` (every instance drops its cache)
 * when the user is unknown.
 */
export function sessionMessage(sessionToken: string, userId?: unknown): Change {
  if (isStoredHash(sessionToken)) return { sessionToken }
  if (typeof userId === "string") return { userId }
  return { reset: true }
}

/** A change as it may travel: a session token that is not a hash never does (`sessionMessage`). */
export const safeMessage = (change: SessionChange): Change =>
  "sessionToken" in change ? sessionMessage(change.sessionToken) : { userId: change.userId }

export function decode(payload: string): Message | undefined {
  let value: unknown
  try {
    value = JSON.parse(payload)
  } catch {
    return undefined
  }
  if (typeof value !== "object" || value === null) return undefined
  const { sessionToken, userId, reset, ping } = value as Record<string, unknown>
  if (typeof sessionToken === "string") return { sessionToken }
  if (typeof userId === "string") return { userId }
  if (reset === true) return { reset: true }
  if (typeof ping === "string") return { ping }
  return undefined
}
