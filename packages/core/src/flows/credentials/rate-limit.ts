/**
 * Brute-force protection of credentials sign-in, after OWASP's Authentication Cheat Sheet:
 * failed attempts are throttled, and no one can lock an account's owner out.
 *
 * Three limits, in fixed windows aligned to the clock (so that a refusal can say exactly when
 * the next window starts: `Retry-After`):
 *
 * - per pair (account, client address), default 5: one client guessing one account's password.
 *   A successful sign-in of the pair starts its count again (a new "epoch" of the pair's keys:
 *   a store that can only count cannot reset).
 * - per client address, default 50: one client trying many accounts (password spraying).
 * - per account (identifier), default 20: many clients guessing one account.
 *
 * What is counted is attempts, before `authorize` runs, each with one atomic increment; a
 * success then offsets its own attempt. Counting before rather than after is what makes the
 * limits hold against concurrency: were the count checked and the failure recorded after
 * `authorize`, an attacker sending a thousand attempts at once would see all of them pass the
 * check before the first failure is written. So a limit also bounds the attempts in flight at
 * once, a successful one included (more than `perPair` sign-ins of one account from one address
 * at the very same moment is no user's doing).
 *
 * No lockout weapon: a pair that signed in successfully is "known" for 30 to 60 days (marked in
 * 30-day buckets, read from the current and the previous one), and a known pair is exempt from
 * the per-account and per-address limits — never from its own pair limit, which an attacker
 * cannot fill for it — and its attempts are not counted against them either (which also spares a
 * returning user, most sign-ins, those counters). So a flood of one account from many addresses,
 * or a spray from the user's
 * own shared address (an office, a carrier's NAT), blocks strangers, not the owner on a device
 * they used before. The pair and the address are counted first, the account only for an attempt
 * both let through: an attacker stopped at their own pair limit still fills their own address's
 * count, but adds nothing to the account's, which a newcomer device of the owner still passes.
 *
 * Keys name what they count by an HMAC under the secret (`counterKey`), followed by the window
 * (and the pair's epoch): `credentials:pair:<half of each>:<window>:<epoch>`, `credentials:client:<hmac>:
 * <window>`, `credentials:identifier:<hmac>:<window>` (with `:ok` for the successes offsetting
 * them), `credentials:known:<hmac>:<bucket>`. No account name or address is stored.
 */
import type { ActionContext } from "../../actions/context.js"
import type { ResolvedConfig } from "../../config/resolve.js"
import { CredentialsSignin } from "../../errors.js"
import type { CredentialsConfig } from "../../providers/index.js"
import { clientOf } from "../../security/client-address.js"
import { counterKey, counterStore, type Counters } from "../../security/counter.js"
import { identifierOf, limitsOf } from "./limits.js"

/** How long a pair stays known after its last successful sign-in: at least this, at most twice. */
const KNOWN_PERIOD = 30 * 24 * 60 * 60 * 1000

/**
 * The refusal of an attempt over a limit: a `CredentialsSignin` like a wrong password (the user
 * goes back to the sign-in page, a form action gets it thrown), with `code = "rate_limited"` and
 * the seconds until the window ends.
 */
export class CredentialsRateLimited extends CredentialsSignin {
  override code = "rate_limited"
  /** Seconds until the window that refused this attempt ends: the `Retry-After` header. */
  retryAfter: number

  constructor(retryAfter: number) {
    super("Too many failed sign-in attempts: refused without calling authorize")
    this.retryAfter = retryAfter
  }
}

/** An attempt let through to `authorize`. */
export interface Attempt {
  /** `authorize` accepted it: offsets the attempt and marks the pair known. */
  succeeded(): Promise<void>
}

type Limit = "pair" | "client" | "identifier"

/**
 * Counts an attempt and lets it through, or throws `CredentialsRateLimited` without it reaching
 * `authorize`. Returns `undefined` when nothing is counted (`rateLimit: false`, or neither an
 * account nor a client address to count by).
 */
export async function admitAttempt(
  ctx: ActionContext,
  provider: CredentialsConfig,
  credentials: Record<string, unknown>,
): Promise<Attempt | undefined> {
  const limits = limitsOf(provider)
  if (!limits) return undefined
  const identifier = identifierOf(limits, credentials)
  const client = ctx.clientAddress ? clientOf(ctx.clientAddress) : undefined
  if (identifier === undefined && client === undefined) return undefined

  const store: Counters = counterStore(ctx.config)
  const now = Date.now()
  const window = Math.floor(now / limits.window)
  const end = (window + 1) * limits.window
  const expires = new Date(end)
  // One HMAC per thing counted (JSON: the parts cannot run into each other, and an account name
  // may hold any character); the window and the epoch, which reveal nothing, follow in clear.
  const name = (kind: string, ...parts: string[]) =>
    cachedName(ctx.config, `credentials:${kind}`, JSON.stringify([provider.id, ...parts]))
  // Known names come back at once: no await (most attempts are of recent accounts or clients).
  const namesOf = [
    client !== undefined ? name("client", client) : undefined,
    identifier !== undefined ? name("identifier", identifier) : undefined,
  ]
  const [clientName, accountName] = namesOf.some((n) => n instanceof Promise)
    ? await Promise.all(namesOf)
    : (namesOf as Array<string | undefined>)
  // The pair is named by the two names it joins, which saves a third HMAC on every attempt.
  const pairName =
    clientName && accountName
      ? `credentials:pair:${accountName.slice(-32)}${clientName.slice(-32)}`
      : undefined

  const refuse = (limit: Limit): never => {
    const retryAfter = Math.max(1, Math.ceil((end - Date.now()) / 1000))
    ctx.logger.debug(`credentials rate limit: the per-${limit} limit refused an attempt`, {
      provider: provider.id,
      retryAfter,
    })
    throw new CredentialsRateLimited(retryAfter)
  }
  /** Warns once per limit and window: on the attempt that first goes over. */
  const tripped = (over: number, limit: number) => {
    if (over === limit + 1) ctx.logger.warn("credentials-rate-limited")
  }
  /** Attempts not offset by a success; the offset is read only when the attempts alone are over. */
  const failing = async (attempts: number, limit: number, okKey: string) =>
    attempts > limit ? attempts - ((await store.get(okKey))?.count ?? 0) : attempts

  // A known pair (it signed in before) is exempt from the address and account limits: its
  // attempts count against its own pair limit only. Read first, it also spares a returning user
  // — most sign-ins — the address's and the account's counters.
  const epochKey = pairName && `${pairName}:${window}:epoch`
  const [known, epoch] = await Promise.all([
    pairName ? knownPair(store, pairName, now) : undefined,
    epochKey ? store.get(epochKey) : undefined,
  ])
  const counted = !known?.any

  // The pair (in its current epoch), and, for a pair not known, the client address.
  const pairKey = pairName && `${pairName}:${window}:${epoch?.count ?? 0}`
  const [pairAttempts, clientAttempts] = await Promise.all([
    pairKey ? store.increment(pairKey, expires) : undefined,
    clientName && counted ? store.increment(`${clientName}:${window}`, expires) : undefined,
  ])
  const pairOk = pairKey && `${pairKey}:ok`
  if (pairAttempts !== undefined && pairOk) {
    const count = await failing(pairAttempts, limits.perPair, pairOk)
    if (count > limits.perPair) {
      tripped(count, limits.perPair)
      refuse("pair")
    }
  }
  const clientOk = clientName && counted && `${clientName}:${window}:ok`
  if (clientAttempts !== undefined && clientOk) {
    const count = await failing(clientAttempts, limits.perClient, clientOk)
    if (count > limits.perClient) {
      tripped(count, limits.perClient)
      refuse("client")
    }
  }
  const accountOk = accountName && counted && `${accountName}:${window}:ok`
  if (accountName && accountOk) {
    const attempts = await store.increment(`${accountName}:${window}`, expires)
    const count = await failing(attempts, limits.perIdentifier, accountOk)
    if (count > limits.perIdentifier) {
      tripped(count, limits.perIdentifier)
      refuse("identifier")
    }
  }

  return {
    async succeeded() {
      const marks: Promise<unknown>[] = []
      // The success offsets its own attempt; when failures came before it in this epoch (more
      // attempts than successes), the pair's count starts again: a new epoch. A sign-in with no
      // failure before it, the usual case, adds no key: the store holds a few keys per pair and
      // window, not one per sign-in.
      if (pairOk && epochKey && pairAttempts !== undefined) {
        marks.push(
          store.increment(pairOk, expires).then((successes) => {
            if (pairAttempts > successes) return store.increment(epochKey, expires)
          }),
        )
      }
      if (clientOk) marks.push(store.increment(clientOk, expires))
      if (accountOk) marks.push(store.increment(accountOk, expires))
      // Marked once per 30-day bucket: a pair marked in this bucket already is left as it is.
      if (pairName && !known?.current) marks.push(markKnownPair(store, pairName, now))
      await Promise.all(marks)
    },
  }
}

/**
 * The counter names of recent accounts and addresses, per configuration: the same client or
 * account comes back within minutes (a user retrying, an attacker hammering), and its HMAC need
 * not be computed again. Bounded; emptied when full.
 */
const names = new WeakMap<ResolvedConfig, Map<string, string>>()
const NAMES_KEPT = 4096

function cachedName(
  config: ResolvedConfig,
  prefix: string,
  value: string,
): string | Promise<string> {
  let cache = names.get(config)
  if (!cache) names.set(config, (cache = new Map()))
  const key = `${prefix}\u0000${value}`
  return cache.get(key) ?? computeName(config, cache, key, prefix, value)
}

async function computeName(
  config: ResolvedConfig,
  cache: Map<string, string>,
  key: string,
  prefix: string,
  value: string,
): Promise<string> {
  // 128 bits of the HMAC name a counter well enough, and short keys are cheaper to look up.
  const full = await counterKey(config, prefix, value)
  const computed = full.slice(0, prefix.length + 1 + 32)
  if (cache.size >= NAMES_KEPT) cache.clear()
  cache.set(key, computed)
  return computed
}

/** The key of a pair's "known" mark in the 30-day bucket `bucket`. */
const knownKey = (pairName: string, bucket: number) =>
  `${pairName.replace(/^credentials:pair:/, "credentials:known:")}:${bucket}`

/**
 * Marks the pair known in the current bucket, until the end of the next one: the mark outlives
 * the bucket, so a user who signs in every day never falls out of it.
 */
async function markKnownPair(store: Counters, pairName: string, now: number): Promise<void> {
  const bucket = Math.floor(now / KNOWN_PERIOD)
  await store.increment(knownKey(pairName, bucket), new Date((bucket + 2) * KNOWN_PERIOD))
}

/**
 * Whether the pair signed in successfully in this bucket (`current`) or in this one or the
 * previous one (`any`: it is known).
 */
async function knownPair(
  store: Counters,
  pairName: string,
  now: number,
): Promise<{ current: boolean; any: boolean }> {
  const bucket = Math.floor(now / KNOWN_PERIOD)
  const [current, previous] = await Promise.all(
    [bucket, bucket - 1].map((b) => store.get(knownKey(pairName, b))),
  )
  return { current: current !== null, any: current !== null || previous !== null }
}
