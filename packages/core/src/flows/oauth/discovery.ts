/**
 * The authorization server's metadata: discovered from the issuer (OpenID Connect Discovery,
 * RFC 8414) once per issuer and cached for an hour, with the provider's explicit endpoints
 * taking precedence; or, without an issuer, made from the explicit endpoints alone.
 */
import * as oauth from "oauth4webapi"
import { InvalidEndpoints } from "../../errors.js"
import { customFetch } from "../../markers.js"
import type { OAuthProviderConfig } from "../../providers/index.js"
import { endpointUrl, httpOptions } from "./http.js"

/** How long discovered metadata is reused. */
const DISCOVERY_TTL = 60 * 60 * 1000

const discovered = new Map<string, { at: number; server: Promise<oauth.AuthorizationServer> }>()

async function discover(
  provider: OAuthProviderConfig,
  issuer: string,
): Promise<oauth.AuthorizationServer> {
  const issuerURL = new URL(issuer)
  const wellKnown = provider.wellKnown
  const options = httpOptions(provider, issuer)
  const fetchFn = provider[customFetch] ?? fetch
  const response = wellKnown
    ? await fetchFn(wellKnown, {
        headers: { accept: "application/json" },
        signal: options.signal(),
      })
    : await oauth.discoveryRequest(issuerURL, { ...options, algorithm: "oidc" })
  return oauth.processDiscoveryResponse(issuerURL, response)
}

/** The metadata of the provider's issuer, from the cache when fresh. */
function discovery(
  provider: OAuthProviderConfig,
  issuer: string,
): Promise<oauth.AuthorizationServer> {
  const key = `${issuer}\u0000${provider.wellKnown ?? ""}`
  const cached = discovered.get(key)
  if (cached && Date.now() - cached.at < DISCOVERY_TTL) return cached.server
  const server = discover(provider, issuer)
  discovered.set(key, { at: Date.now(), server })
  // A failed discovery is retried on the next sign-in, not cached.
  server.catch(() => discovered.delete(key))
  return server
}

/** The provider's authorization server metadata. */
export async function authorizationServerOf(
  provider: OAuthProviderConfig,
): Promise<oauth.AuthorizationServer> {
  const explicit = {
    authorization_endpoint: endpointUrl(provider.authorization),
    token_endpoint: endpointUrl(provider.token),
    userinfo_endpoint: endpointUrl(provider.userinfo),
  }
  if (
    provider.issuer &&
    (provider.type === "oidc" || !explicit.authorization_endpoint || !explicit.token_endpoint)
  ) {
    const server = await discovery(provider, provider.issuer)
    const merged: oauth.AuthorizationServer = { ...server }
    for (const [key, value] of Object.entries(explicit))
      if (value) (merged as Record<string, unknown>)[key] = value
    return merged
  }
  if (!explicit.authorization_endpoint || !explicit.token_endpoint) {
    throw new InvalidEndpoints(
      `Provider "${provider.id}" needs an issuer, or authorization and token endpoints`,
    )
  }
  return {
    issuer: provider.issuer ?? new URL(explicit.authorization_endpoint).origin,
    authorization_endpoint: explicit.authorization_endpoint,
    token_endpoint: explicit.token_endpoint,
    userinfo_endpoint: explicit.userinfo_endpoint,
  }
}
