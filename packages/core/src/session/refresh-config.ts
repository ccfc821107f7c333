/**
 * Which providers keep their tokens fresh (`refresh`), and with what margin: read on every
 * session read, so kept apart from the refresh itself (`refresh.ts`, loaded only when a refresh
 * may be due).
 */
import { isOAuthProvider } from "../config/providers.js"
import type { ResolvedConfig } from "../config/resolved.js"
import type { AdapterAccount } from "../adapters.js"
import type { ProviderTokens } from "../jwt.js"
import type { OAuthProviderConfig } from "../providers/index.js"
import type { Account, TokenSet } from "../types.js"

/** Seconds before expiry at which a token is refreshed, unless the provider says otherwise. */
export const DEFAULT_REFRESH_MARGIN = 60

/** The account methods a refresh of stored tokens (database sessions) needs. */
export const REFRESH_ADAPTER_METHODS = [
  "listAccountsByUserId",
  "getAccount",
  "updateAccount",
] as const

/** The provider with that id when it refreshes its tokens, with its margin in seconds. */
export function refreshingProvider(
  config: Pick<ResolvedConfig, "providers">,
  id: string | undefined,
): { provider: OAuthProviderConfig; margin: number } | undefined {
  const provider = id === undefined ? undefined : config.providers.get(id)
  if (!provider || !isOAuthProvider(provider) || !provider.refresh) return undefined
  const margin = typeof provider.refresh === "object" ? provider.refresh.margin : undefined
  return {
    provider,
    margin: typeof margin === "number" && margin >= 0 ? margin : DEFAULT_REFRESH_MARGIN,
  }
}

/** Whether any provider of the configuration refreshes its tokens. */
export function anyRefreshingProvider(config: Pick<ResolvedConfig, "providers">): boolean {
  for (const id of config.providers.keys()) if (refreshingProvider(config, id)) return true
  return false
}

/** The fields of a token set a session keeps (no ID token: see `refreshGrant`). */
export function tokenFields(
  tokens: TokenSet | AdapterAccount,
): Omit<ProviderTokens, "provider" | "providerAccountId"> {
  const fields: Omit<ProviderTokens, "provider" | "providerAccountId"> = {}
  if (typeof tokens.access_token === "string") fields.access_token = tokens.access_token
  if (typeof tokens.refresh_token === "string") fields.refresh_token = tokens.refresh_token
  if (typeof tokens.expires_at === "number") fields.expires_at = tokens.expires_at
  if (typeof tokens.token_type === "string") fields.token_type = tokens.token_type
  if (typeof tokens.scope === "string") fields.scope = tokens.scope
  return fields
}

/** What a session keeps of the account it signed in with, for a provider with `refresh` on. */
export function sessionTokensOf(account: Account): ProviderTokens {
  return {
    provider: account.provider,
    providerAccountId: account.providerAccountId,
    ...tokenFields(account as TokenSet),
  }
}
