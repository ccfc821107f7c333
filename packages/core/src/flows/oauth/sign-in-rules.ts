/**
 * A provider's sign-in rules (see `lib/provider-rules.ts`) at both ends of the flow:
 *
 * - at the start, the parameters that narrow who signs in (Google's `hd`, Slack's `team`…) keep
 *   their configured values whatever the sign-in request asks for: the request's query is the
 *   user's to write;
 * - at the end, once the ID token is validated, the provider's check runs on its claims, before
 *   the app's `profile` callback, which cannot skip it. A parameter sent to the provider is only
 *   a hint to its sign-in page; the claims in a token it signed are what it vouches for.
 */
import * as oauth from "oauth4webapi"
import { AccessDenied } from "../../errors.js"
import { signInRules, type RuledProvider } from "../../lib/provider-rules.js"
import type { OAuthProviderConfig } from "../../providers/index.js"
import type { Profile, TokenSet } from "../../types.js"

/**
 * Puts back what a sign-in request changed of the locked parameters: `merged` holds the
 * configured parameters with the request's query over them; `configured` the former alone.
 */
export function keepLockedParams(
  provider: OAuthProviderConfig,
  configured: Record<string, string>,
  merged: Record<string, string>,
): void {
  const rules = (provider as RuledProvider)[signInRules]
  if (!rules) return
  for (const name of rules.lockedParams ?? []) {
    if (configured[name] !== undefined) merged[name] = configured[name]
  }
  const { lockedScope } = rules
  if (lockedScope && configured.scope !== undefined && merged.scope !== undefined) {
    const asked = merged.scope.split(" ").filter(Boolean)
    const kept = configured.scope.split(" ").filter((v) => lockedScope(v) && !asked.includes(v))
    merged.scope = [...asked, ...kept].join(" ")
  }
}

/** The claims oauth4webapi validated for this token response, if it carried an ID token. */
function validatedClaims(tokens: TokenSet): Record<string, unknown> | undefined {
  // Only the object the token response was processed into is known to oauth4webapi; any other
  // (a copy) has no validated claims, and the check then sees none rather than unchecked ones.
  try {
    return oauth.getValidatedIdTokenClaims(tokens as oauth.TokenEndpointResponse)
  } catch {
    return undefined
  }
}

/** Refuses the sign-in when the provider's check says so. */
export function enforceSignInRules(
  provider: OAuthProviderConfig,
  profile: Profile,
  tokens: TokenSet,
): void {
  const check = (provider as RuledProvider)[signInRules]?.check
  if (!check) return
  const reason = check({ claims: validatedClaims(tokens), profile })
  if (reason !== undefined) {
    throw new AccessDenied(`"${provider.id}" refused the sign-in: ${reason}`)
  }
}
