/**
 * How many sign-in links may be sent: per address (so nobody can flood someone's inbox) and per
 * client (`ctx.client`: an IPv4 address or an IPv6 /64, so nobody can spray many addresses).
 * The counters live in the adapter (`incrementCounter`), shared by every instance of the app;
 * their keys are HMACs, so the database holds no address or IP in the clear for them.
 *
 * Over the limit, the user sees the same "check your email" page as when a link was sent, so
 * the limit reveals nothing about the address; no mail is sent and no token stored.
 */
import type { ActionContext } from "../../actions/context.js"
import type { EmailConfig } from "../../providers/email.js"
import { counterKey, counters } from "../../security/counter.js"

export const DEFAULT_WINDOW = 600
export const DEFAULT_PER_ADDRESS = 5
export const DEFAULT_PER_CLIENT = 20

/** Counts this attempt; `true` when it is within the limits. */
export async function withinRateLimit(
  ctx: ActionContext,
  provider: EmailConfig,
  address: string,
): Promise<boolean> {
  const limit = provider.rateLimit
  if (limit === false) return true
  const window = limit?.window ?? DEFAULT_WINDOW
  const perAddress = limit?.perAddress ?? DEFAULT_PER_ADDRESS
  const perClient = limit?.perClient ?? DEFAULT_PER_CLIENT
  // A window starts with its first attempt; the adapter keeps that first expiry.
  const expires = new Date(Date.now() + window * 1000)
  const increment = counters(ctx.config)
  const checks: Promise<boolean>[] = [
    counterKey(ctx.config, `email:address:${provider.id}`, address)
      .then((key) => increment(key, expires))
      .then((count) => count <= perAddress),
  ]
  if (ctx.client) {
    checks.push(
      counterKey(ctx.config, `email:ip:${provider.id}`, ctx.client)
        .then((key) => increment(key, expires))
        .then((count) => count <= perClient),
    )
  }
  const verdicts = await Promise.all(checks)
  return verdicts.every(Boolean)
}
