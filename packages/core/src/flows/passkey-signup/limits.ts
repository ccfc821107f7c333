/**
 * The limits of passkey-first sign-up, counted in the counter store (the adapter's
 * `incrementCounter`, shared by every instance) under HMAC keys:
 *
 * - codes mailed per address: 3 per 10 minutes, so nobody floods someone's inbox;
 * - sign-ups started per client (an IPv4 address or an IPv6 /64): 20 per 10 minutes, so nobody
 *   sprays addresses;
 * - tries per mailed code: 5, counted before the check, so that parallel guesses count too.
 *   Guessing a 6-digit code in 5 tries succeeds once in 200,000 mails, each under the limits
 *   above.
 *
 * The address's counter counts every request before anything looks the address up: being
 * stopped by it says nothing about whether the address has an account.
 */
import type { ActionContext } from "../../actions/context.js"
import { counterKey, counters } from "../../security/counter.js"

export interface Limit {
  max: number
  /** Seconds. */
  window: number
}

export const SENDS_PER_ADDRESS: Limit = { max: 3, window: 600 }
export const STARTS_PER_CLIENT: Limit = { max: 20, window: 600 }
export const TRIES_PER_CODE: Limit = { max: 5, window: 600 }

/** Counts one more under `name` for `subject`; whether it is still within `limit`. */
export async function within(
  ctx: ActionContext,
  name: string,
  subject: string,
  limit: Limit,
): Promise<boolean> {
  const key = await counterKey(ctx.config, `passkey-signup:${name}`, subject)
  const count = await counters(ctx.config)(key, new Date(Date.now() + limit.window * 1000))
  return count <= limit.max
}
