/**
 * Rate limits of the Password provider's forms, in the same shared counters as the other
 * brute-force limits (`counterStore`, the adapter's `incrementCounter`, or memory), keyed by
 * HMACs so that no address or IP address is stored in the clear.
 *
 * - sign-up and reset requests send mail: per address (nobody floods someone's inbox) and per
 *   client (nobody sprays addresses). Over a limit the user sees the same "check your email"
 *   page as when the mail went out: the limit says nothing about the address.
 * - a change of password checks the current one: per account, so that a stolen session cannot
 *   guess the password it lacks.
 * - new passwords (reset links) and the rest: per client.
 *
 * A client is `ctx.client`: an IPv4 address, or an IPv6 address's /64.
 */
import type { ActionContext } from "../../actions/context.js"
import { counterKey, counters } from "../../security/counter.js"

/** One limit: at most `max` attempts per `window` seconds. */
interface Limit {
  max: number
  window: number
}

/** The limits per form. */
export const PASSWORD_LIMITS = {
  /** Mails per address, and requests per client, per 10 minutes. */
  mailPerAddress: { max: 5, window: 600 },
  mailPerClient: { max: 20, window: 600 },
  /** Attempts at the current password per account per 15 minutes. */
  changePerAccount: { max: 5, window: 900 },
  /** New passwords set per client per 10 minutes. */
  newPasswordPerClient: { max: 20, window: 600 },
} satisfies Record<string, Limit>

/** The seconds until a window opened now would close: the `Retry-After` of a refusal. */
export function retryAfterOf(limit: Limit): number {
  return limit.window
}

async function count(ctx: ActionContext, name: string, subject: string, limit: Limit) {
  const key = await counterKey(ctx.config, `password:${name}`, subject)
  const value = await counters(ctx.config)(key, new Date(Date.now() + limit.window * 1000))
  return value <= limit.max
}

/** Counts a request that sends mail to `address` (`form`: "signup" or "reset"); `true` within. */
export async function withinMailLimits(
  ctx: ActionContext,
  form: "signup" | "reset",
  providerId: string,
  address: string,
): Promise<boolean> {
  const checks = [
    count(ctx, `${form}:address:${providerId}`, address, PASSWORD_LIMITS.mailPerAddress),
  ]
  if (ctx.client)
    checks.push(count(ctx, `${form}:ip:${providerId}`, ctx.client, PASSWORD_LIMITS.mailPerClient))
  return (await Promise.all(checks)).every(Boolean)
}

/** Counts an attempt at the current password of account `userId`; `true` within. */
export function withinChangeLimit(ctx: ActionContext, userId: string): Promise<boolean> {
  return count(ctx, "change:user", userId, PASSWORD_LIMITS.changePerAccount)
}

/** Counts a new password posted from this client; `true` within (or when it is unknown). */
export async function withinNewPasswordLimit(ctx: ActionContext): Promise<boolean> {
  if (!ctx.client) return true
  return count(ctx, "new:ip", ctx.client, PASSWORD_LIMITS.newPasswordPerClient)
}
