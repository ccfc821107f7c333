/**
 * How many sign-in links may be sent: per address (so nobody can flood someone's inbox) and per
 * client (`ctx.client`: an IPv4 address or an IPv6 /64, so nobody can spray many addresses).
 * The counters live in the adapter (`incrementCounter`), shared by every instance of the app;
 * their keys are HMACs, so the database holds no address or IP in the clear for them.
 *
 * Over the limit, no mail is sent and no token stored, and the user sees the same "check your
 * email" page as when a link was sent — unless the provider's `rateLimit.sayWhenReached` is on:
 * then the page says which limit stopped the mail. Either way the page is the same for an
 * address with an account and one without: the address's counter counts every request, before
 * anything looks the address up.
 */
import type { ActionContext } from "../../actions/context.js"
import type { EmailConfig } from "../../providers/email.js"
import { counterKey, counters } from "../../security/counter.js"

export const DEFAULT_WINDOW = 600
export const DEFAULT_PER_ADDRESS = 5
export const DEFAULT_PER_CLIENT = 20

/** Which limit stopped a mail: the address's, or the client's. */
export type EmailLimitReached = "address" | "client"

/** The window of the provider's limits, in seconds; `undefined` without limits. */
export function rateLimitWindow(provider: EmailConfig): number | undefined {
  if (provider.rateLimit === false) return undefined
  return provider.rateLimit?.window ?? DEFAULT_WINDOW
}

/** Counts this attempt; the limit it is over (the address's first), or `undefined` if none. */
export async function rateLimitReached(
  ctx: ActionContext,
  provider: EmailConfig,
  address: string,
): Promise<EmailLimitReached | undefined> {
  const limit = provider.rateLimit
  if (limit === false) return undefined
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
  const [addressWithin, clientWithin = true] = await Promise.all(checks)
  if (!addressWithin) return "address"
  return clientWithin ? undefined : "client"
}
