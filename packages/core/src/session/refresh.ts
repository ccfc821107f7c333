/**
 * Keeping a provider's access token fresh (a provider with `refresh` on): when a session is read
 * and the token expires within the margin, the stored refresh token is spent — once.
 *
 * Once, whatever the concurrency. With refresh token rotation (RFC 9700 §4.14) a refresh token
 * works a single time and a second use may revoke the whole grant, so spending it twice signs
 * the user out. So:
 *
 * - In this process, one refresh per refresh token: concurrent reads share the one in flight,
 *   and its result stays known for a minute to requests that still carry the old token (their
 *   cookie was read before the new one was set).
 * - Across instances, for tokens stored on the account (database sessions), a lease in the
 *   counter store (the adapter's `incrementCounter`): the instance whose increment returns 1
 *   refreshes and writes the account; the others wait for the account to change and use what it
 *   holds. The lease is keyed by the refresh token and the expiry it renews, so each generation
 *   of tokens is refreshed once; if its holder dies, or its refresh fails in a way that may pass,
 *   the lease runs out and the next read takes it.
 * - JWT sessions keep the tokens in the cookie, which no other instance can see: the rule holds
 *   within an instance only (see the README).
 *
 * A refused refresh token (`invalid_grant`) is dropped and the session marked with
 * `error: "RefreshTokenError"`; any other failure leaves everything as it was, and the next read
 * tries again. The user is never signed out by a refresh.
 */
import type { ActionContext } from "../actions/context.js"
import type { Adapter, AdapterAccount } from "../adapters.js"
import { DEFAULT_TIMEOUT } from "../flows/oauth/http.js"
import { RefreshFailure, refreshGrant } from "../flows/oauth/refresh.js"
import type { ProviderTokens } from "../jwt.js"
import type { OAuthProviderConfig } from "../providers/index.js"
import { counterKey, counters } from "../security/counter.js"
import type { Account, TokenSet } from "../types.js"
import { callAdapter } from "./adapter-call.js"
import { emitEvent } from "./events.js"
import { REFRESH_ADAPTER_METHODS, refreshingProvider, tokenFields } from "./refresh-config.js"

type Context = Pick<ActionContext, "config" | "logger">

/**
 * Seconds an instance may hold the right to refresh one generation of tokens: longer than its
 * refresh can take (a discovery and a token request, each bounded by the provider's timeout),
 * so that no other instance takes over a refresh still running. A refresh that failed in a way
 * that may pass is tried again once its lease has run out.
 */
function leaseOf(provider: OAuthProviderConfig): number {
  return (provider.timeout ?? DEFAULT_TIMEOUT) * 2 + 5
}
/** How long a refresh's result stays known to requests carrying the spent token (ms). */
const REMEMBERED = 60_000
/** How often an instance waiting on another's refresh looks at the account (ms). */
const POLL = 100

type RefreshingAdapter = Adapter & Required<Pick<Adapter, (typeof REFRESH_ADAPTER_METHODS)[number]>>

const nowSeconds = () => Math.floor(Date.now() / 1000)

/** Whether tokens expiring at `expiresAt` are due for a refresh. No expiry: never. */
function isDue(expiresAt: unknown, margin: number): boolean {
  return typeof expiresAt === "number" && expiresAt - nowSeconds() <= margin
}

function hasExpired(expiresAt: unknown): boolean {
  return typeof expiresAt === "number" && expiresAt <= nowSeconds()
}

/** Refreshes in flight or just done, by lease key: this process's share of "once". */
const flights = new Map<string, { at: number; result: Promise<TokenSet> }>()

function once(key: string, run: () => Promise<TokenSet>): Promise<TokenSet> {
  const now = Date.now()
  if (flights.size > 256) {
    for (const [name, flight] of flights) if (now - flight.at > REMEMBERED) flights.delete(name)
  }
  const known = flights.get(key)
  if (known && now - known.at <= REMEMBERED) return known.result
  const result = run()
  flights.set(key, { at: now, result })
  // A failure that may pass is forgotten at once, so that the next read tries again; a refusal
  // is remembered like a success (asking again would be refused again).
  result.catch((error: unknown) => {
    if (!(error instanceof RefreshFailure && error.refused)) flights.delete(key)
  })
  return result
}

/** The key of one generation of one account's tokens: what the lease and `once` are about. */
function generationKey(
  ctx: Context,
  provider: string,
  providerAccountId: string,
  refreshToken: string,
  expiresAt: unknown,
): Promise<string> {
  return counterKey(
    ctx.config,
    "oauth:refresh",
    `${provider}\u0000${providerAccountId}\u0000${refreshToken}\u0000${String(expiresAt)}`,
  )
}

/** Reports a refresh, and logs a failure (not the tokens). */
async function report(
  ctx: Context,
  provider: string,
  providerAccountId: string,
  userId: string | undefined,
  error?: unknown,
): Promise<void> {
  if (error instanceof RefreshFailure) {
    if (error.refused) ctx.logger.debug("refresh token refused", { provider })
    else ctx.logger.error(error)
  }
  await emitEvent(ctx, "refreshToken", {
    provider,
    providerAccountId,
    ...(userId === undefined ? {} : { userId }),
    ...(error instanceof Error
      ? { error, refused: error instanceof RefreshFailure && error.refused }
      : {}),
  })
}

/** What a JWT session's read gets from a refresh. */
export interface JWTRefresh {
  /** The token to carry on with. */
  token: Record<string, unknown>
  /** With new tokens: the account for the `jwt` callback's `trigger: "refresh"`. */
  account?: Account
}

/**
 * A JWT session's tokens, refreshed when due; `undefined` when nothing changes (not due, no
 * tokens kept, or a failure that may pass).
 */
export async function refreshJWT(
  ctx: Context,
  token: Record<string, unknown> & { oauth?: ProviderTokens; sub?: string },
): Promise<JWTRefresh | undefined> {
  const held = token.oauth
  if (!held || typeof held !== "object") return undefined
  const found = refreshingProvider(ctx.config, held.provider)
  if (!found || !isDue(held.expires_at, found.margin)) return undefined
  const { provider } = found
  if (!held.refresh_token) {
    // Nothing to refresh with: once expired, the session says so.
    return hasExpired(held.expires_at) && token.error !== "RefreshTokenError"
      ? { token: { ...token, error: "RefreshTokenError" } }
      : undefined
  }
  const refreshToken = held.refresh_token
  const key = await generationKey(
    ctx,
    provider.id,
    held.providerAccountId,
    refreshToken,
    held.expires_at,
  )
  try {
    const tokens = await once(key, async () => {
      try {
        const fresh = await refreshGrant(provider, refreshToken)
        await report(ctx, provider.id, held.providerAccountId, token.sub)
        return fresh
      } catch (error) {
        await report(ctx, provider.id, held.providerAccountId, token.sub, error)
        throw error
      }
    })
    const oauth: ProviderTokens = { ...held, ...tokenFields(tokens) }
    const { error: _error, ...rest } = token
    return {
      token: { ...rest, oauth },
      account: {
        type: provider.type,
        ...oauth,
        token_type: oauth.token_type?.toLowerCase(),
      } as Account,
    }
  } catch (error) {
    if (!(error instanceof RefreshFailure)) {
      // Not the provider's answer (the counter store, a bug): the session carries on as it was.
      ctx.logger.error(error instanceof Error ? error : new Error(String(error)))
      return undefined
    }
    if (!error.refused) return undefined
    const { refresh_token: _spent, ...kept } = held
    return { token: { ...token, oauth: kept, error: "RefreshTokenError" } }
  }
}

/** The result of refreshing a database session's accounts. */
export interface AccountsRefresh {
  /** The user's accounts with refresh on, as they now are. */
  accounts: AdapterAccount[]
  /** Set when an account's refresh token was refused (or its token expired with none). */
  error?: "RefreshTokenError"
}

/**
 * A database session's user: the accounts of providers with `refresh` on, each refreshed when
 * due. Read with the session, so only when such a provider is configured.
 */
export async function refreshAccounts(ctx: Context, userId: string): Promise<AccountsRefresh> {
  const ids = [...ctx.config.providers.keys()].filter((id) => refreshingProvider(ctx.config, id))
  if (ids.length === 0) return { accounts: [] }
  const adapter = ctx.config.adapter as RefreshingAdapter
  let all: AdapterAccount[]
  try {
    all = await callAdapter("listAccountsByUserId", () => adapter.listAccountsByUserId(userId))
  } catch (error) {
    // The session itself was read: it carries on, its tokens as they were.
    ctx.logger.error(error instanceof Error ? error : new Error(String(error)))
    return { accounts: [] }
  }
  const accounts = all.filter((account) => ids.includes(account.provider))
  let refused = false
  const current = await Promise.all(
    accounts.map(async (account): Promise<AdapterAccount> => {
      const { margin, provider } = refreshingProvider(ctx.config, account.provider)!
      if (!isDue(account.expires_at, margin)) return account
      if (!account.refresh_token) {
        refused ||= hasExpired(account.expires_at)
        return account
      }
      const refreshToken = account.refresh_token
      const key = await generationKey(
        ctx,
        account.provider,
        account.providerAccountId,
        refreshToken,
        account.expires_at,
      )
      try {
        const tokens = await once(key, () =>
          leased(ctx, adapter, key, provider, account, refreshToken, userId),
        )
        return { ...account, ...tokenFields(tokens) } as AdapterAccount
      } catch (error) {
        if (!(error instanceof RefreshFailure)) {
          // The database or the counter store failed: the session carries on as it was.
          ctx.logger.error(error instanceof Error ? error : new Error(String(error)))
          return account
        }
        if (!error.refused) return account
        refused = true
        const { refresh_token: _spent, ...kept } = account
        return kept as AdapterAccount
      }
    }),
  )
  return refused ? { accounts: current, error: "RefreshTokenError" } : { accounts: current }
}

/**
 * Refreshes a stored account's tokens under the lease: this instance refreshes and writes the
 * account, or waits for the instance that does.
 */
async function leased(
  ctx: Context,
  adapter: RefreshingAdapter,
  key: string,
  provider: OAuthProviderConfig,
  account: AdapterAccount,
  refreshToken: string,
  userId: string,
): Promise<TokenSet> {
  const { providerAccountId } = account
  const lease = new Date(Date.now() + leaseOf(provider) * 1000)
  const ours = (await counters(ctx.config)(`${key}:lease`, lease)) === 1
  if (!ours) return waitForRefresh(adapter, provider, account)
  let tokens: TokenSet
  try {
    tokens = await refreshGrant(provider, refreshToken)
  } catch (error) {
    if (error instanceof RefreshFailure && error.refused) {
      // A refused token is dead: dropped, so that no read spends it again.
      await callAdapter("updateAccount", () =>
        adapter.updateAccount({
          provider: provider.id,
          providerAccountId,
          refresh_token: null as never,
        }),
      )
    }
    await report(ctx, provider.id, providerAccountId, userId, error)
    throw error
  }
  const fields = tokenFields(tokens)
  await callAdapter("updateAccount", () =>
    adapter.updateAccount({
      provider: provider.id,
      providerAccountId,
      ...fields,
      token_type: fields.token_type?.toLowerCase(),
    }),
  )
  await report(ctx, provider.id, providerAccountId, userId)
  return tokens
}

/**
 * Another instance holds the lease: the account's tokens change when it is done (or its refresh
 * token disappears, when the provider refused it). A lease that runs out unchanged is a failure
 * that may pass: the next read takes the lease.
 */
async function waitForRefresh(
  adapter: RefreshingAdapter,
  provider: OAuthProviderConfig,
  before: AdapterAccount,
): Promise<TokenSet> {
  const deadline = Date.now() + leaseOf(provider) * 1000
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL))
    const now = await callAdapter("getAccount", () =>
      adapter.getAccount(before.providerAccountId, provider.id),
    )
    if (!now) throw new RefreshFailure(`The "${provider.id}" account is gone`, true)
    if (now.refresh_token === before.refresh_token && now.expires_at === before.expires_at) continue
    if (!now.refresh_token) {
      throw new RefreshFailure(`"${provider.id}" refused the refresh token (invalid_grant)`, true)
    }
    return now as TokenSet
  }
  throw new RefreshFailure(`Another instance's refresh of "${provider.id}" did not finish`, false)
}
