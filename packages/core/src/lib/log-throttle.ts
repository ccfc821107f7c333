/**
 * Logging a failure that repeats, once per kind per minute: while a database or a mail server is
 * down every request fails the same way, and a log line per request would bury everything else.
 * The next line of a kind says how many were left out since the last.
 */
import type { LoggerInstance } from "./logger.js"

/** The same kind of failure is logged once in this many milliseconds. */
export const LOG_EVERY = 60_000

interface Seen {
  loggedAt: number
  suppressed: number
}

/** Per logger (one per configuration), the kinds logged lately. */
const seenBy = new WeakMap<LoggerInstance, Map<string, Seen>>()

/**
 * Logs `error` unless its `kind` was logged within the last minute. `counted(n)` makes the
 * error to log when `n` of its kind were left out since the last line.
 */
export function logThrottled(
  logger: LoggerInstance,
  kind: string,
  error: Error,
  counted: (suppressed: number) => Error,
  now = Date.now(),
): void {
  let seen = seenBy.get(logger)
  if (!seen) seenBy.set(logger, (seen = new Map()))
  const last = seen.get(kind)
  if (last && now - last.loggedAt < LOG_EVERY) {
    last.suppressed++
    return
  }
  // Kinds that stopped happening are forgotten, so that the map stays small.
  for (const [key, entry] of seen) if (now - entry.loggedAt >= LOG_EVERY) seen.delete(key)
  seen.set(kind, { loggedAt: now, suppressed: 0 })
  logger.error(last?.suppressed ? counted(last.suppressed) : error)
}

/** " (and 3 more like it since it was last logged)". */
export const moreLikeIt = (suppressed: number) =>
  ` (and ${suppressed === 1 ? "1 more like it" : `${suppressed} more like it`} since it was last logged)`

/** A cause's code (a driver's or a socket's), else its message: what tells failures apart. */
export function reasonOf(cause: unknown): string {
  const error = cause as (Error & { code?: unknown }) | undefined
  return typeof error?.code === "string" ? error.code : (error?.message ?? "")
}
