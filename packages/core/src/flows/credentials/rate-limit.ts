/**
 * Brute-force protection of credentials sign-in, after OWASP's Authentication Cheat Sheet:
 * failed attempts are throttled, and no one can lock an account's owner out.
 *
 * Three limits, in fixed windows aligned to the clock (so that a refusal can say exactly when
 * the next window starts: `Retry-After`):
 *
 * - per pair (account, client address), default 5: one client guessing one account's password.
 *   A successful sign-in of the pair starts its count again.
 * - per client address, default 50: one client trying many accounts (password spraying).
 * - per account (identifier), default 20: many clients guessing one account.
 *
 * A client address here is `ctx.client`, as for every per-client limit: an IPv4 address, or an
 * IPv6 address's /64.
 *
 * What is counted is attempts, before `authorize` runs, each with one atomic increment; a
 * success then offsets its own attempt (its `:ok` counter), and a pair's success also the
 * failures before it (the store can only count up, so "starting again" is offsetting them all).
 * Counting before rather than after is what makes the limits hold against concurrency: were the
 * count checked and the failure recorded after `authorize`, an attacker sending a thousand
 * attempts at once would see all of them pass the check before the first failure is written. So
 * a limit also bounds the attempts in flight at once, a successful one included (more than
 * `perPair` sign-ins of one account from one address at the very same moment is no user's
 * doing).
 *
 * No lockout weapon: a pair that signed in successfully is "known" for 30 to 60 days (marked in
 * 30-day buckets, read from the current and the previous one), and a known pair is exempt from
 * the per-account and per-address limits — never from its own pair limit, which an attacker
 * cannot fill for it — and its attempts are not counted against them either (which also spares a
 * returning user, most sign-ins, those counters). So a flood of one account from many addresses,
 * or a spray from the user's own shared address (an office, a carrier's NAT), blocks strangers,
 * not the owner on a device they used before. The pair and the address are counted first, the
 * account only for an attempt both let through: an attacker stopped at their own pair limit
 * still fills their own address's count, but adds nothing to the account's, which a newcomer
 * device of the owner still passes.
 *
 * The steps are generators over the counter store (`runSteps`): on the memory store they run
 * without a promise (a sign-in's counter work is then a few `Map` lookups), on a remote store in
 * as few round trips as their dependencies allow. What the process remembers stays true whatever
 * any other instance does, so it is shared by none and trusted by all: an account's or address's
 * counter name (an HMAC: the same secret gives the same name), that a pair is known (a mark is
 * never taken back before it expires), and the last count of successes seen per counter (counts
 * only grow within a window: attempts over the limit by fewer than that are not over it, and
 * need no read). A returning user's sign-in is then two counter operations: its pair's attempt,
 * and its success.
 *
 * Keys name what they count by an HMAC under the secret (`counterKey`), followed by the window:
 * `credentials:pair:<half of each>:<window>`, `credentials:client:<hmac>:<window>`,
 * `credentials:identifier:<hmac>:<window>` (each with `:ok` for the successes offsetting it),
 * `credentials:known:<half of each>:<bucket>`. No account name or address is stored.
 *
 * The two-factor code step counts its codes with the same machinery (`admitCounted`) under a
 * scope of its own: `two-factor:*` keys, the user's id as the account, its own limits and
 * refusal (flows/two-factor/verify.ts).
 */
import type { ActionContext } from "../../actions/context.js"
import type { ResolvedConfig } from "../../config/resolved.js"
import { CredentialsSignin } from "../../errors.js"
import type { CredentialsConfig } from "../../providers/index.js"
import { counterKey, counterStore, runSteps, type CounterSteps } from "../../security/counter.js"
import { type Limits, limitsOf, normalizeIdentifier, postedIdentifier } from "./limits.js"

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
  succeeded(): void | Promise<void>
}

type Limit = "pair" | "client" | "identifier"

/** Why an attempt is refused. */
export interface Refusal {
  /** The limit it went over. */
  limit: Limit
  /** Seconds until that limit's window ends. */
  retryAfter: number
  /** Whether it is the attempt that first went over that limit in its window. */
  first: boolean
}

/**
 * What one limiter counts, apart from every other: a credentials provider's sign-ins, or the
 * two-factor code step. Its keys start with `prefix`, and the HMACs that name its accounts and
 * clients cover `id` (a provider's id).
 */
export interface Scope {
  prefix: string
  id: string
  limits: Pick<Limits, "window" | "perPair" | "perClient" | "perIdentifier">
  /** The account as counted, from the value given; `undefined`: none. @default normalizeIdentifier */
  identifier?: (value: string) => string | undefined
  /** Throws the refusal of an attempt over a limit. */
  refuse(ctx: ActionContext, refusal: Refusal): never
}

/**
 * Counts an attempt and lets it through, or refuses it with `CredentialsRateLimited` without it
 * reaching `authorize` (thrown, or the promise rejected). `undefined` when nothing is counted
 * (`rateLimit: false`, or neither an account nor a client address to count by). Synchronous when
 * everything it needs is at hand (the memory store, an account and an address seen recently).
 */
export function admitAttempt(
  ctx: ActionContext,
  provider: CredentialsConfig,
  credentials: Record<string, unknown>,
): Attempt | undefined | Promise<Attempt | undefined> {
  const limits = limitsOf(provider)
  if (!limits) return undefined
  const scope: Scope = {
    prefix: "credentials",
    id: provider.id,
    limits,
    refuse: (ctx, refusal) => refuseCredentials(ctx, provider.id, refusal),
  }
  return admitCounted(ctx, scope, postedIdentifier(limits, credentials))
}

/**
 * Counts an attempt of `scope` for `account` (`undefined`: none) from the request's client, and
 * lets it through or refuses it (`scope.refuse`). With `pairOnly`, an attempt that has a pair
 * (an account and a client) is counted against the pair limit alone, never against the client's
 * or the account's: for what is too unlikely to be guessed for those to matter, and must stay a
 * way in while strangers fill them (a two-factor recovery code). The pair is the same as without
 * it: one count, one "known" mark. `undefined` when there is nothing to count by.
 */
export function admitCounted(
  ctx: ActionContext,
  scope: Scope,
  account: string | undefined,
  options: { pairOnly?: boolean } = {},
): Attempt | undefined | Promise<Attempt | undefined> {
  const names = subjectsOf(ctx.config, scope)
  const named =
    account === undefined ? null : subject(ctx.config, scope, "identifier", names.accounts, account)
  const client = ctx.client ? subject(ctx.config, scope, "client", names.clients, ctx.client) : null
  const pairOnly = options.pairOnly === true
  if (named instanceof Promise || client instanceof Promise) {
    return Promise.all([named, client]).then(([a, c]) => admit(ctx, scope, a, c, pairOnly))
  }
  return admit(ctx, scope, named, client, pairOnly)
}

/** `admitCounted` once the account and the address are named. */
function admit(
  ctx: ActionContext,
  scope: Scope,
  account: Subject | null,
  client: Subject | null,
  pairOnly: boolean,
): Attempt | Promise<Attempt> | undefined {
  if (!account && !client) return undefined
  const store = counterStore(ctx.config)
  const counted = runSteps(store, countAttempt(ctx, scope, account, client, pairOnly))
  const attemptOf = (success: Success): Attempt => ({
    succeeded: () => runSteps(store, recordSuccess(success)),
  })
  return counted instanceof Promise ? counted.then(attemptOf) : attemptOf(counted)
}

/**
 * What is counted under a name in the current window: its keys, made once per window, and the
 * highest count of its successes this process has seen in it.
 */
interface Tally {
  name: string
  window?: number
  key?: string
  okKey?: string
  okSeen?: number
}

/** An account or an address as it is counted. */
interface Subject extends Tally {
  /** Of an account: the pair it forms with each address (the address's subject). */
  pairs?: Map<Subject, Pair>
}

/** An (account, address) pair. */
interface Pair extends Tally {
  /** The latest 30-day bucket the pair was seen marked known in (or marked in) by this process. */
  known?: number
}

/** A tally in a window: its keys there, made (and its successes seen forgotten) at a new one. */
type Current = Tally & { window: number; key: string; okKey: string; okSeen: number }

function inWindow(tally: Tally, window: number): Current {
  if (tally.window !== window) {
    tally.window = window
    tally.key = `${tally.name}:${window}`
    tally.okKey = `${tally.key}:ok`
    tally.okSeen = 0
  }
  return tally as Current
}

/** The pair of `account` and `client`, made once (the pair is named by the two names it joins). */
function pairOf(account: Subject, client: Subject, prefix: string): Pair {
  account.pairs ??= new Map()
  let pair = account.pairs.get(client)
  if (!pair) {
    if (account.pairs.size >= PAIRS_KEPT) account.pairs.clear()
    pair = { name: `${prefix}:pair:${account.name.slice(-32)}${client.name.slice(-32)}` }
    account.pairs.set(client, pair)
  }
  return pair
}

/** One limit an attempt is counted against. */
interface Check {
  limit: Limit
  tally: Current
  max: number
  /** The attempts counted, this one included. */
  count: number
}

/** What a success of the attempt must update. */
interface Success {
  now: number
  window: number
  expires: number
  /** What the attempt was counted under (the pair first when there is one). */
  checks: Check[]
  pair?: Pair
}

/** The steps of counting one attempt: throws the scope's refusal over a limit. */
function* countAttempt(
  ctx: ActionContext,
  scope: Scope,
  account: Subject | null,
  client: Subject | null,
  pairOnly: boolean,
): CounterSteps<Success> {
  const { limits } = scope
  const now = Date.now()
  const window = Math.floor(now / limits.window)
  const end = (window + 1) * limits.window
  const check = (limit: Limit, tally: Tally, max: number): Check => ({
    limit,
    tally: inWindow(tally, window),
    max,
    count: 0,
  })

  // A known pair (it signed in before) is exempt from the address and account limits: its
  // attempts count against its own pair limit only. Read first (once per process and bucket),
  // it also spares a returning user — most sign-ins — the address's and the account's counters.
  let known = false
  const first: Check[] = []
  const pair = account && client ? pairOf(account, client, scope.prefix) : undefined
  if (pair) {
    const bucket = Math.floor(now / KNOWN_PERIOD)
    if (!(pair.known! >= bucket - 1)) {
      const [current = 0, previous = 0] = yield [
        { key: knownKey(pair, bucket) },
        { key: knownKey(pair, bucket - 1) },
      ]
      if (current > 0) pair.known = bucket
      else if (previous > 0) pair.known = bucket - 1
    }
    known = pair.known! >= bucket - 1
    first.push(check("pair", pair, limits.perPair))
  }
  // Counted together: the pair, and the address unless the pair is known. Then the account:
  // only for an attempt the pair and the address let through. A pair-only attempt that has a
  // pair counts there alone.
  const wider = !known && !(pairOnly && pair)
  if (client && wider) first.push(check("client", client, limits.perClient))
  const last = account && wider ? [check("identifier", account, limits.perIdentifier)] : []
  for (const checks of [first, last]) {
    if (checks.length === 0) continue
    const counts = yield checks.map(({ tally }) => ({ key: tally.key, expires: end }))
    // Over the limit by the successes seen so far, the successes are read: they may be more.
    const over = checks.filter(
      (c, index) => (c.count = counts[index] ?? 0) - c.tally.okSeen > c.max,
    )
    if (over.length === 0) continue
    const successes = yield over.map(({ tally }) => ({ key: tally.okKey }))
    over.forEach((c, index) => {
      const failing = c.count - seen(c.tally, window, successes[index] ?? 0)
      if (failing > c.max) refuse(ctx, scope, c, failing, end)
    })
  }
  return { now, window, expires: end, checks: [...first, ...last], pair }
}

/** Records `count` as seen of the tally's successes in `window`; returns the highest seen. */
function seen(tally: Tally, window: number, count: number): number {
  if (tally.window === window && count > tally.okSeen!) tally.okSeen = count
  return count
}

/** Refuses an attempt `failing` over the limit of `check`, whose window ends at `end`. */
function refuse(
  ctx: ActionContext,
  scope: Scope,
  check: Check,
  failing: number,
  end: number,
): never {
  const retryAfter = Math.max(1, Math.ceil((end - Date.now()) / 1000))
  return scope.refuse(ctx, { limit: check.limit, retryAfter, first: failing === check.max + 1 })
}

/** A credentials sign-in's refusal: `CredentialsRateLimited`. */
function refuseCredentials(ctx: ActionContext, providerId: string, refusal: Refusal): never {
  // Warned once per limit and window: on the attempt that first goes over.
  if (refusal.first) ctx.logger.warn("credentials-rate-limited")
  ctx.logger.debug(`credentials rate limit: the per-${refusal.limit} limit refused an attempt`, {
    provider: providerId,
    retryAfter: refusal.retryAfter,
  })
  throw new CredentialsRateLimited(refusal.retryAfter)
}

/**
 * The steps of a success: it offsets its own attempt under each limit it was counted against,
 * and marks the pair known (once per 30-day bucket, until the end of the next one: the mark
 * outlives its bucket, so a user who signs in every day never falls out of it). When failures of
 * the pair came before it (more attempts than successes), they are offset too: the pair's count
 * starts again. No key is added per sign-in: the store holds a few keys per pair and window.
 */
function* recordSuccess(success: Success): CounterSteps<void> {
  const { checks, pair, expires, window } = success
  const ops = checks.map(({ tally }) => ({ key: tally.okKey, expires }))
  const bucket = Math.floor(success.now / KNOWN_PERIOD)
  if (pair && pair.known !== bucket) {
    ops.push({ key: knownKey(pair, bucket), expires: (bucket + 2) * KNOWN_PERIOD })
  }
  const counts = yield ops
  checks.forEach((c, index) => seen(c.tally, window, counts[index] ?? 0))
  if (!pair) return
  pair.known = bucket
  // The pair's failures before this success (fewer than its limit: the attempt was let through).
  const { tally, count } = checks[0]!
  const failures = count - (counts[0] ?? 0)
  if (failures > 0) {
    const offsets = yield Array.from({ length: failures }, () => ({ key: tally.okKey, expires }))
    seen(tally, window, Math.max(...offsets))
  }
}

/** The key of a pair's "known" mark in the 30-day bucket `bucket`. */
const knownKey = (pair: Pair, bucket: number) =>
  `${pair.name.replace(":pair:", ":known:")}:${bucket}`

/**
 * The accounts and addresses seen recently, per secret and provider, by the value as posted (an
 * account) or by `ctx.client` (an address): the same client or account comes back within
 * minutes (a user retrying, an attacker hammering), and it need not be normalized and its HMAC
 * computed again — also when the configuration object is built per request. `null`: nothing to
 * count. Each map is bounded, and emptied when full.
 */
interface Subjects {
  accounts: Map<string, Subject | null>
  clients: Map<string, Subject | null>
}

const subjects = new Map<string, Map<string, Subjects>>()
const SUBJECTS_KEPT = 4096
const PAIRS_KEPT = 256

function subjectsOf(config: ResolvedConfig, scope: Scope): Subjects {
  const secret = config.secrets[0] ?? ""
  let bySecret = subjects.get(secret)
  if (!bySecret) {
    if (subjects.size >= 16) subjects.clear()
    subjects.set(secret, (bySecret = new Map()))
  }
  const name = `${scope.prefix}\u0000${scope.id}`
  let ofScope = bySecret.get(name)
  if (!ofScope) {
    if (bySecret.size >= 64) bySecret.clear()
    ofScope = { accounts: new Map(), clients: new Map() }
    bySecret.set(name, ofScope)
  }
  return ofScope
}

type Kind = "client" | "identifier"

/**
 * The subject of `value` (of the kind the cache holds: a posted account name or a client), from
 * the cache or named now.
 */
function subject(
  config: ResolvedConfig,
  scope: Scope,
  kind: Kind,
  cache: Map<string, Subject | null>,
  value: string,
): Subject | null | Promise<Subject | null> {
  const found = cache.get(value)
  if (found !== undefined) return found
  return nameSubject(config, scope, kind, cache, value)
}

async function nameSubject(
  config: ResolvedConfig,
  scope: Scope,
  kind: Kind,
  cache: Map<string, Subject | null>,
  value: string,
): Promise<Subject | null> {
  const counted = kind === "client" ? value : (scope.identifier ?? normalizeIdentifier)(value)
  let named: Subject | null = null
  if (counted !== undefined) {
    // One HMAC per thing counted (JSON: the parts cannot run into each other, and an account
    // name may hold any character); 128 bits of it name a counter well enough.
    const prefix = `${scope.prefix}:${kind}`
    const full = await counterKey(config, prefix, JSON.stringify([scope.id, counted]))
    named = { name: full.slice(0, prefix.length + 1 + 32) }
  }
  if (cache.size >= SUBJECTS_KEPT) cache.clear()
  cache.set(value, named)
  return named
}
