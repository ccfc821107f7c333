/** The provider's profile → the user and the account (RFC 6749 §5.1 token fields kept). */
import type { Identity } from "../../session/establish.js"
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

/** Token endpoint fields stored on the account; nothing else of the response is kept. */
const tokenFields = [
  "access_token",
  "expires_in",
  "refresh_token",
  "scope",
  "id_token",
  "authorization_details",
] as const

/** The account of a sign-in: provider, type, id at the provider and the tokens. */
export function accountOf(
  provider: OAuthProviderConfig,
  providerAccountId: string,
  tokens: TokenSet,
): Account {
  const account: Account = { provider: provider.id, type: provider.type, providerAccountId }
  for (const field of tokenFields) {
    if (tokens[field] !== undefined) (account as Record<string, unknown>)[field] = tokens[field]
  }
  // RFC 6749 §7.1: the token type is case-insensitive; stored lowercased.
  if (typeof tokens.token_type === "string")
    account.token_type = tokens.token_type.toLowerCase() as Lowercase<string>
  // Seconds since the epoch, so that a refresh can be decided without knowing when it was issued.
  if (typeof tokens.expires_in === "number") {
    account.expires_at = Math.floor(Date.now() / 1000) + tokens.expires_in
  }
  return account
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
  return { user: { ...user, id }, account: accountOf(provider, id, tokens), profile }
}
