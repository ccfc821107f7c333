/** The provider's profile → the user and the account (RFC 6749 §5.1 token fields kept). */
import type { Identity } from "../../session/identity.js"
import { OAuthProfileParseError } from "../../errors.js"
import { userFromClaims, type StandardClaims } from "../../lib/claims.js"
import type { OAuthProviderConfig } from "../../providers/index.js"
import type { Account, Profile, TokenSet, User } from "../../types.js"
import { enforceSignInRules } from "./sign-in-rules.js"

/** The default mapping: the OpenID standard claims, then common non-OIDC fields (GitHub-like). */
function defaultProfile(profile: Profile): User {
  const user = userFromClaims(profile as StandardClaims)
  const id = user.id ?? profile.id
  return {
    id: id === undefined || id === null ? undefined : String(id),
    name: user.name ?? (profile.login as string | undefined) ?? null,
    email: user.email,
    image: user.image ?? (profile.avatar_url as string | undefined) ?? null,
  }
}

/**
 * The token endpoint fields an account keeps by default: Auth.js's default set (`access_token`,
 * `id_token`, `refresh_token`, `expires_at`, `scope`, `token_type`, `session_state`) plus
 * `expires_in` and `authorization_details`; nothing else of the response is kept.
 */
const tokenFields = [
  "access_token",
  "expires_in",
  "refresh_token",
  "scope",
  "id_token",
  "session_state",
  "authorization_details",
] as const

/** The provider's `account(tokens)` callback, when it has one (Auth.js's option). */
type AccountCallback = (tokens: TokenSet) => Record<string, unknown> | undefined | null | void

/** The token set as the `account` callback sees it: every field, plus `expires_at`. */
function withExpiresAt(tokens: TokenSet): TokenSet {
  const full: TokenSet = { ...tokens }
  // RFC 6749 §7.1: the token type is case-insensitive; stored lowercased.
  if (typeof tokens.token_type === "string") {
    ;(full as Record<string, unknown>).token_type = tokens.token_type.toLowerCase()
  }
  // Seconds since the epoch, so that a refresh can be decided without knowing when it was issued.
  if (typeof tokens.expires_in === "number") {
    full.expires_at = Math.floor(Date.now() / 1000) + tokens.expires_in
  }
  return full
}

/** The default account fields of a token set. */
function defaultAccountFields(tokens: TokenSet): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  for (const field of [...tokenFields, "token_type", "expires_at"] as const) {
    if (tokens[field] !== undefined) fields[field] = tokens[field]
  }
  return fields
}

/**
 * The account of a sign-in: provider, type, id at the provider and the tokens — those the
 * provider's `account(tokens)` callback returns (nothing when it returns nothing), else the
 * default fields. Provider, type and id are always Latch's.
 */
export async function accountOf(
  provider: OAuthProviderConfig,
  providerAccountId: string,
  tokens: TokenSet,
): Promise<Account> {
  const full = withExpiresAt(tokens)
  const callback = (provider as { account?: AccountCallback }).account
  let fields: Record<string, unknown>
  if (typeof callback === "function") {
    const chosen = await callback(full)
    fields = chosen && typeof chosen === "object" ? { ...chosen } : {}
  } else {
    fields = defaultAccountFields(full)
  }
  return { ...fields, provider: provider.id, type: provider.type, providerAccountId } as Account
}

/**
 * Checks the sign-in against the provider's rules (a tenant, a hosted domain…), then runs its
 * `profile` and builds the identity.
 */
export async function identityOf(
  provider: OAuthProviderConfig,
  profile: Profile,
  tokens: TokenSet,
): Promise<Identity> {
  enforceSignInRules(provider, profile, tokens)
  let user: User
  try {
    user = provider.profile
      ? await provider.profile(profile as never, tokens)
      : defaultProfile(profile)
  } catch (error) {
    throw new OAuthProfileParseError(`The profile function of "${provider.id}" threw`, {
      cause: error,
    })
  }
  if (!user || user.id === undefined || user.id === null || String(user.id) === "") {
    throw new OAuthProfileParseError(`The profile of "${provider.id}" has no id`)
  }
  const id = String(user.id)
  return { user: { ...user, id }, account: await accountOf(provider, id, tokens), profile }
}
