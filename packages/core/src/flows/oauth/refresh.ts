/**
 * The refresh token grant (RFC 6749 §6): a stored refresh token → new tokens. What to do with
 * them, and how each refresh token is spent only once, is `session/refresh.ts`'s business.
 */
import * as oauth from "oauth4webapi"
import type { OAuthProviderConfig } from "../../providers/index.js"
import type { TokenSet } from "../../types.js"
import { setIdTokenAside } from "./callback.js"
import { authorizationServerOf } from "./discovery.js"
import { clientOf, httpOptions } from "./http.js"

/**
 * A refresh that failed. `refused`: the server said the refresh token is no good
 * (`invalid_grant`: expired, revoked, or already spent) — asking again cannot help. Anything
 * else (no answer, a 5xx, a malformed answer) may pass: the next read tries again.
 */
export class RefreshFailure extends Error {
  constructor(
    message: string,
    readonly refused: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = "RefreshFailure"
  }
}

/**
 * Spends `refreshToken` at the provider's token endpoint and returns the new token set, with
 * `expires_at`. A server that issues no new refresh token leaves the old one in use (RFC 6749
 * §6), so it is carried over. An ID token in the answer is dropped.
 *
 * @throws RefreshFailure
 */
export async function refreshGrant(
  provider: OAuthProviderConfig,
  refreshToken: string,
): Promise<TokenSet> {
  let body: oauth.TokenEndpointResponse
  try {
    const server = await authorizationServerOf(provider)
    const { client, auth } = clientOf(provider)
    const response = await oauth.refreshTokenGrantRequest(
      server,
      client,
      auth,
      refreshToken,
      httpOptions(provider, server.token_endpoint),
    )
    // A refreshed ID token is not kept: the session's identity is the sign-in's, and nothing
    // here would rely on the new one (it is not validated, so as not to fail a refresh on it).
    const { response: withoutIdToken } = await setIdTokenAside(response)
    body = await oauth.processRefreshTokenResponse(server, client, withoutIdToken)
  } catch (error) {
    const refused = error instanceof oauth.ResponseBodyError && error.error === "invalid_grant"
    throw new RefreshFailure(
      refused
        ? `"${provider.id}" refused the refresh token (invalid_grant)`
        : `Refreshing the tokens of "${provider.id}" failed`,
      refused,
      { cause: error },
    )
  }
  const tokens: TokenSet = { ...body, refresh_token: body.refresh_token ?? refreshToken }
  if (typeof body.token_type === "string") {
    ;(tokens as Record<string, unknown>).token_type = body.token_type.toLowerCase()
  }
  if (typeof body.expires_in === "number") {
    tokens.expires_at = Math.floor(Date.now() / 1000) + body.expires_in
  }
  return tokens
}
