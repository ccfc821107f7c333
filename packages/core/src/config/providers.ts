/** Providers as given (objects or factories) → one normalized list, built once per config. */
import { InvalidProvider, MissingAuthorize } from "../errors.js"
import type { CredentialsConfig, Provider, ProviderConfig } from "../providers/index.js"

/** A provider as the flows see it: a configuration object with `id`, `name` and `type`. */
export type InternalProvider = ProviderConfig

/** Whether the provider signs in with a form checked by `authorize`. */
export function isCredentialsProvider(provider: InternalProvider): provider is CredentialsConfig {
  return provider.type === "credentials"
}

/** The kinds of provider this version can run. */
const supportedTypes = new Set(["credentials"])

/**
 * Calls factories, checks ids and types, and indexes providers by id. Throws the configuration
 * error that names the faulty provider.
 */
export function normalizeProviders(
  providers: readonly Provider[] | undefined,
): Map<string, InternalProvider> {
  const byId = new Map<string, InternalProvider>()
  if (providers !== undefined && !Array.isArray(providers)) {
    throw new InvalidProvider('"providers" must be an array')
  }
  for (const [index, entry] of (providers ?? []).entries()) {
    const provider = typeof entry === "function" ? entry() : entry
    const where = `"providers[${index}]"`
    if (typeof provider !== "object" || provider === null) {
      throw new InvalidProvider(`${where} must be a provider object or factory`)
    }
    if (typeof provider.id !== "string" || provider.id === "" || provider.id.includes("/")) {
      throw new InvalidProvider(`${where}.id must be a non-empty string without "/"`)
    }
    if (byId.has(provider.id)) {
      throw new InvalidProvider(
        `${where}.id "${provider.id}" is used by two providers; ids must be unique`,
      )
    }
    if (!supportedTypes.has(provider.type)) {
      throw new InvalidProvider(
        `${where} ("${provider.id}") has type "${String(provider.type)}", which this version of @latch/core does not run`,
      )
    }
    if (isCredentialsProvider(provider) && typeof provider.authorize !== "function") {
      throw new MissingAuthorize(
        `${where} ("${provider.id}") is a credentials provider without an "authorize" function`,
      )
    }
    byId.set(provider.id, {
      ...provider,
      name: typeof provider.name === "string" ? provider.name : provider.id,
    })
  }
  return byId
}
