/**
 * The checks of an OAuth sign-in, each a pair: `create` when the flow starts (the secret half
 * goes into a sealed, 15-minute cookie) and `use` when it comes back (the cookie is read and
 * deleted, whatever the outcome).
 *
 * - PKCE (RFC 7636, S256): the token request proves it comes from whoever started the flow.
 * - state (RFC 6749 §10.12): the callback belongs to this browser's sign-in.
 * - nonce (OpenID Connect Core §3.1.2.1): the ID token was issued for this sign-in.
 */
import * as oauth from "oauth4webapi"
import type { ActionContext } from "../../actions/context.js"
import { sealCookie, unsealCookie } from "../../cookies/seal.js"
import { InvalidCheck } from "../../errors.js"
import type { OAuthCheck, OAuthProviderConfig } from "../../providers/index.js"

/** The checks a provider uses: its own, or PKCE + state (+ nonce for OpenID Connect). */
export function checksOf(provider: OAuthProviderConfig): Set<OAuthCheck> {
  if (provider.checks) return new Set(provider.checks)
  return new Set(provider.type === "oidc" ? ["pkce", "state", "nonce"] : ["pkce", "state"])
}

export const pkce = {
  async create(ctx: ActionContext): Promise<string> {
    const verifier = oauth.generateRandomCodeVerifier()
    await sealCookie(ctx, "pkceCodeVerifier", verifier)
    return oauth.calculatePKCECodeChallenge(verifier)
  },
  async use(ctx: ActionContext): Promise<string> {
    const verifier = await unsealCookie(ctx, "pkceCodeVerifier")
    if (!verifier) throw new InvalidCheck("The PKCE code_verifier cookie is missing or expired")
    return verifier
  },
}

export const state = {
  /** `value` is what goes to the server: random, or a sealed payload for a redirect proxy. */
  async create(ctx: ActionContext, value: string = oauth.generateRandomState()): Promise<string> {
    await sealCookie(ctx, "state", value)
    return value
  },
  async use(ctx: ActionContext): Promise<string> {
    const value = await unsealCookie(ctx, "state")
    if (!value) throw new InvalidCheck("The state cookie is missing or expired")
    return value
  },
}

export const nonce = {
  async create(ctx: ActionContext): Promise<string> {
    const value = oauth.generateRandomNonce()
    await sealCookie(ctx, "nonce", value)
    return value
  },
  async use(ctx: ActionContext): Promise<string> {
    const value = await unsealCookie(ctx, "nonce")
    if (!value) throw new InvalidCheck("The nonce cookie is missing or expired")
    return value
  },
}

/** Deletes every check cookie the browser sent: a callback ends the flow, whatever happens. */
export function clearChecks(ctx: ActionContext): void {
  for (const cookie of ["state", "pkceCodeVerifier", "nonce"] as const) {
    const { name, options } = ctx.cookieOptions[cookie]
    if (ctx.cookies.get(name) !== undefined) ctx.cookies.delete(name, options)
  }
}
