/**
 * When the database is down. A request that needed the adapter (or the counter store) and got an
 * `AdapterError` answers 503 with `Retry-After`, never a 500: the server is fine, the database
 * behind it is not answering, and clients (browsers, load balancers, monitors) should try again
 * shortly rather than treat it as a bug.
 *
 * Every `AdapterError` counts as unavailability. Core cannot tell a connection refused from a
 * broken query in general: each adapter (pg, Prisma, Drizzle, an HTTP API…) reports failures its
 * own way, and a guess based on one driver's codes would turn another driver's outages into 500s.
 * The operator still sees the real cause in the log; a programming error that persists shows
 * there, and a client that retries it only costs a few requests.
 */
import { AdapterError } from "../errors.js"
import { logThrottled, moreLikeIt, reasonOf } from "../lib/log-throttle.js"
import type { LoggerInstance } from "../lib/logger.js"

/**
 * The seconds a 503 asks clients to wait. A PostgreSQL restart or a managed database's failover
 * takes a few seconds to some tens of seconds; 5 brings users back soon after a short outage
 * without a retry storm against a database that is starting up, and pools open new connections
 * on the next request anyway.
 */
export const RETRY_AFTER_SECONDS = 5

/** What a client is told: no driver message, no host or port, nothing from the cause. */
export const UNAVAILABLE_MESSAGE =
  "The service is temporarily unavailable (its database did not answer). Try again in a few seconds."

/** Whether the error means the database could not serve the request. */
export function isUnavailable(error: unknown): error is AdapterError {
  return error instanceof AdapterError
}

/**
 * A failure's kind: the adapter method and the driver's code (or, without one, its message), so
 * that "getSessionAndUser: ECONNREFUSED" is logged once whatever number of requests hit it.
 */
function kindOf(error: AdapterError): string {
  return `${error.message}\u0000${reasonOf(error.cause?.err)}`
}

/**
 * Logs a database failure for the operator, once per kind per minute (lib/log-throttle.ts), with
 * how many were left out since the last line.
 */
export function logUnavailable(logger: LoggerInstance, error: AdapterError, now = Date.now()) {
  logThrottled(
    logger,
    kindOf(error),
    error,
    (suppressed) =>
      new AdapterError(`${error.message}${moreLikeIt(suppressed)}`, {
        cause: error.cause?.err ?? error.cause,
      }),
    now,
  )
}
