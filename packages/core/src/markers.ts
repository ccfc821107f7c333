/**
 * Unique markers understood by `Auth()`.
 *
 * They are registered symbols (`Symbol.for`) so that two copies of `@latch/core` in one
 * dependency tree (an app's and an integration's) still recognise each other's markers.
 */

/**
 * Set `config.raw = raw` to receive the internal response (`ResponseInternal`) instead of a
 * `Response`. For framework integrations.
 */
export const raw: unique symbol = Symbol.for("latch.raw") as never

/**
 * Set `config.skipCSRFCheck = skipCSRFCheck` to turn off the double-submit CSRF check. For
 * framework integrations that protect POST requests themselves; the `csrf` action then answers
 * 404. Not recommended anywhere else.
 */
export const skipCSRFCheck: unique symbol = Symbol.for("latch.skip-csrf-check") as never

/**
 * Key under which a provider may carry its own `fetch`, used for every HTTP call made on its
 * behalf (tests, proxies, corporate egress).
 *
 * @example
 * ```ts
 * GitHub({ [customFetch]: (input, init) => fetch(input, { ...init, dispatcher }) })
 * ```
 */
export const customFetch: unique symbol = Symbol.for("latch.custom-fetch") as never
