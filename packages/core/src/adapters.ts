/**
 * The interface between Latch and a database. An adapter stores users, the accounts linked to
 * them, database sessions, email verification tokens and passkeys.
 *
 * Every method may be async. A method that finds nothing returns `null`, never throws; a method
 * that throws is reported as an `AdapterError`.
 *
 * @module adapters
 */
export type {
  Adapter,
  AdapterAccount,
  AdapterAccountType,
  AdapterAuthenticator,
  AdapterAuthenticatorUpdate,
  AdapterSession,
  AdapterTwoFactor,
  AdapterUser,
  SessionChange,
  SessionChangeListener,
  SessionWatch,
  VerificationToken,
} from "./types/adapter.js"

/** An ISO 8601 date and time with a zone, as `Date.prototype.toJSON` writes it. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/

/**
 * Whether a value is a date and time serialized as an ISO 8601 string (with a zone), such as a
 * JSON-stored `expires` or `emailVerified`. Adapters that store JSON use it to turn those fields
 * back into `Date` objects.
 *
 * @example
 * ```ts
 * import { isDate } from "@latch/core/adapters"
 *
 * const revive = (key: string, value: unknown) => (isDate(value) ? new Date(value) : value)
 * const session = JSON.parse(stored, revive)
 * ```
 */
export function isDate(value: unknown): value is string {
  return typeof value === "string" && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))
}
