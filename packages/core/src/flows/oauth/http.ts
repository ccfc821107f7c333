/**
 * How Latch talks to an OAuth server: the provider's own `fetch` when it has one, a timeout on
 * every call (a hanging provider becomes an error page, not a hung request), and plain http
 * only for loopback hosts (a local OpenID Provider in development and tests).
 */
import * as oauth from "oauth4webapi"
import { customFetch } from "../../markers.js"
import type { OAuthProviderConfig } from "../../providers/index.js"

/** Seconds before a call to a provider is abandoned. */
export const DEFAULT_TIMEOUT = 10

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"])

/** Whether a URL may be used without TLS: only on this machine. */
export function isLoopback(url: string | URL): boolean {
  try {
    return loopbackHosts.has(new URL(url).hostname)
  } catch {
    return false
  }
}

/** The options every oauth4webapi request of this provider gets. */
export function httpOptions(provider: OAuthProviderConfig, url: string | URL | undefined) {
  const timeout = (provider.timeout ?? DEFAULT_TIMEOUT) * 1000
  const fetchFn = provider[customFetch]
  return {
    signal: () => AbortSignal.timeout(timeout),
    // oauth4webapi's options type is narrower than fetch's; the call is the same.
    ...(fetchFn ? { [oauth.customFetch]: fetchFn as never } : {}),
    ...(url !== undefined && isLoopback(url) ? { [oauth.allowInsecureRequests]: true } : {}),
  }
}

/** The URL of an endpoint given as a string or `{ url }`. */
export function endpointUrl(endpoint: OAuthProviderConfig["authorization"]): string | undefined {
  if (endpoint === undefined) return undefined
  return typeof endpoint === "string" ? endpoint : endpoint.url
}

/** The parameters of an endpoint given as `{ params }` (and those in its URL's query). */
export function endpointParams(
  endpoint: OAuthProviderConfig["authorization"],
): Record<string, string> {
  const params: Record<string, string> = {}
  const url = endpointUrl(endpoint)
  if (url) for (const [key, value] of new URL(url).searchParams) params[key] = value
  if (typeof endpoint === "object") {
    for (const [key, value] of Object.entries(endpoint.params ?? {})) {
      if (value !== undefined) params[key] = String(value)
    }
  }
  return params
}

/** The client metadata and authentication method. */
export function clientOf(provider: OAuthProviderConfig): {
  client: oauth.Client
  auth: oauth.ClientAuth
} {
  const method = provider.client?.token_endpoint_auth_method ?? "client_secret_basic"
  const client: oauth.Client = {
    ...provider.client,
    client_id: provider.clientId!,
    token_endpoint_auth_method: method,
  }
  const secret = provider.clientSecret ?? ""
  const auth =
    method === "none"
      ? oauth.None()
      : method === "client_secret_post"
        ? oauth.ClientSecretPost(secret)
        : oauth.ClientSecretBasic(secret)
  return { client, auth }
}
