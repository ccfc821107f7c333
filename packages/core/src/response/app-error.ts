/**
 * Errors of the app's own classes: an `AuthError` subclass the app defined (e.g. an
 * `AccountLocked` thrown by its `authorize`). A form action that runs a flow server-side (the
 * `raw` marker) throws them to the app, as Auth.js does, since only the app knows what they
 * mean; Latch's own errors of kind `"error"` go to the error page with their code.
 */
import * as errors from "../errors.js"
import type { AuthError } from "../errors.js"

const latchClasses = new Set<unknown>(Object.values(errors))

/** Whether the error's class is the app's own, not one of Latch's. */
export function isAppError(error: AuthError): boolean {
  return !latchClasses.has(error.constructor)
}
