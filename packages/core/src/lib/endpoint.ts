/** Merging a provider's default endpoint with the one a user gives. */
import type { OAuthEndpoint } from "../providers/index.js"

/**
 * The user's endpoint over the default: a string replaces it; an object keeps the default URL
 * (none for discovered endpoints) unless it names one, and its `params` are merged over the
 * default parameters.
 */
export function withDefaults(
  url: string | undefined,
  params: Record<string, string>,
  own: OAuthEndpoint | undefined,
): OAuthEndpoint {
  if (typeof own === "string") return own
  const merged = { ...params, ...own?.params }
  const endpointUrl = own?.url ?? url
  // Without a URL the endpoint comes from discovery; only the parameters are set.
  return endpointUrl === undefined ? { params: merged } : { url: endpointUrl, params: merged }
}
