/**
 * How many `webauthn-options` requests a client may make while nobody is signed in: each one
 * runs `getUserInfo` (an app's may look an address up) and seals a challenge, so an unlimited
 * action would let anyone probe addresses or load the server for free.
 *
 * Counted per client (`ctx.client`: the address the integration reports, never a header the
 * client writes, an IPv6 address by its /64), in the same counter store as the email limits and
 * spent challenges. Windows are aligned to the clock, so that the answer can say exactly when the
 * next one starts (`Retry-After`).
 */
import type { ActionContext } from "../../actions/context.js"
import { InvalidProvider } from "../../errors.js"
import type { WebAuthnConfig } from "../../providers/webauthn.js"
import { counterKey, counters } from "../../security/counter.js"

export const DEFAULT_OPTIONS_WINDOW = 60
export const DEFAULT_OPTIONS_PER_CLIENT = 60

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (Number.isSafeInteger(value) && value > 0) return value
  throw new InvalidProvider(`The WebAuthn provider's rateLimit.${name} must be a positive integer`)
}

/**
 * Counts an anonymous options request. Returns the seconds until the client may ask again when
 * it is over the limit, else `undefined`.
 */
export async function optionsRetryAfter(
  ctx: ActionContext,
  provider: WebAuthnConfig,
): Promise<number | undefined> {
  const limit = provider.rateLimit
  if (limit === false) return undefined
  const window = positiveInteger(limit?.window, DEFAULT_OPTIONS_WINDOW, "window")
  const perClient = positiveInteger(limit?.perClient, DEFAULT_OPTIONS_PER_CLIENT, "perClient")
  if (!ctx.client) return undefined
  const now = Date.now()
  const span = window * 1000
  const start = Math.floor(now / span) * span
  const end = start + span
  const key = await counterKey(
    ctx.config,
    `webauthn:options:${provider.id}`,
    `${start}\u0000${ctx.client}`,
  )
  const count = await counters(ctx.config)(key, new Date(end))
  return count > perClient ? Math.max(1, Math.ceil((end - now) / 1000)) : undefined
}
