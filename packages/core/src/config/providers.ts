/** Providers as given (objects or factories) → one normalized list, built once per config. */
import { InvalidEndpoints, InvalidProvider, MissingAuthorize } from "../errors.js"
import type { EmailConfig } from "../providers/email.js"
import {
  passwordSettings,
  type PasswordConfig,
  type PasswordSettings,
} from "../providers/password.js"
import type { WebAuthnConfig } from "../providers/webauthn.js"
import { attestationPolicy } from "../flows/webauthn/attestation-policy.js"
import type {
  CredentialsConfig,
  OAuthProviderConfig,
  Provider,
  ProviderConfig,
} from "../providers/index.js"
import type { Env } from "./env.js"
import type { EmailFinishContext } from "../lib/email-api.js"
import { codeOptionProblem } from "../flows/email/code-options.js"
import {
  finishProvider,
  issuerFromEnv,
  type FinishContext,
  type RuledProvider,
} from "../lib/provider-rules.js"

/** A provider as the flows see it: a configuration object with `id`, `name` and `type`. */
export type InternalProvider = ProviderConfig

/** Whether the provider signs in with a form checked by `authorize`. */
export function isCredentialsProvider(provider: InternalProvider): provider is CredentialsConfig {
  return provider.type === "credentials"
}

/** Whether the provider signs in through an OAuth 2.0 or OpenID Connect server. */
export function isOAuthProvider(provider: InternalProvider): provider is OAuthProviderConfig {
  return provider.type === "oauth" || provider.type === "oidc"
}

/** Whether the provider signs in with a link sent by email. */
export function isEmailProvider(provider: InternalProvider): provider is EmailConfig {
  return provider.type === "email"
}

/** Whether the provider signs in with a WebAuthn credential (a passkey). */
export function isWebAuthnProvider(provider: InternalProvider): provider is WebAuthnConfig {
  return provider.type === "webauthn"
}

/** The first Password provider of the configuration and its settings, if it has one. */
export function passwordProviderOf(
  providers: ReadonlyMap<string, InternalProvider>,
): { provider: PasswordConfig; settings: PasswordSettings } | undefined {
  for (const provider of providers.values()) {
    const settings = (provider as Partial<PasswordConfig>)[passwordSettings]
    if (settings) return { provider: provider as PasswordConfig, settings }
  }
  return undefined
}

/** The kinds of provider this version can run. */
const supportedTypes = new Set(["credentials", "oauth", "oidc", "email", "webauthn"])

/** Checks the options of a WebAuthn provider that a request would otherwise trip over. */
function normalizeWebAuthn(provider: WebAuthnConfig, where: string): WebAuthnConfig {
  const fail = (message: string) => {
    throw new InvalidProvider(`${where} ("${provider.id}") ${message}`)
  }
  if (typeof provider.getUserInfo !== "function") fail("needs a getUserInfo function")
  if (typeof provider.formFields !== "object" || provider.formFields === null) {
    fail("needs formFields (an object of form fields)")
  }
  const algorithms = provider.supportedAlgorithmIDs
  if (
    !Array.isArray(algorithms) ||
    algorithms.length === 0 ||
    !algorithms.every(Number.isInteger)
  ) {
    fail("needs supportedAlgorithmIDs: a non-empty list of COSE algorithm numbers")
  }
  if (!(typeof provider.timeout === "number" && provider.timeout > 0)) {
    fail("needs a positive timeout in milliseconds")
  }
  const rp = provider.relyingParty
  if (rp?.id !== undefined && (typeof rp.id !== "string" || rp.id === "" || rp.id.includes("/"))) {
    fail('has a relyingParty.id that is not a domain name (e.g. "example.com")')
  }
  const origins = rp?.origin === undefined ? [] : [rp.origin].flat()
  if (!origins.every(isURL)) fail("has a relyingParty.origin that is not an http(s) origin")
  try {
    attestationPolicy(provider)
  } catch (error) {
    fail((error as Error).message)
  }
  return provider
}

type EmailFinish = (provider: EmailConfig, context: EmailFinishContext) => EmailConfig

/**
 * `finishEmailProvider` of `lib/email-api.ts`, named here by its registered key so that the
 * configuration does not load the mail API code.
 */
const finishEmailProvider = Symbol.for("latch.finish-email-provider")

/**
 * Fills an email provider's server and sender from the environment, and its API key from
 * `AUTH_<ID>_KEY` (as for every email provider in Auth.js); checks it can send, and lets a
 * built-in mail API provider check what it needs (`finishEmailProvider`).
 */
function normalizeEmail(provider: EmailConfig, where: string, env: Env): EmailConfig {
  const envPrefix = `AUTH_${envName(provider.id)}`
  const apiKey = provider.apiKey || env[`${envPrefix}_KEY`]
  const filled: EmailConfig = {
    ...provider,
    server: provider.server ?? env.AUTH_EMAIL_SERVER,
    from: provider.from ?? env.AUTH_EMAIL_FROM,
    ...(apiKey ? { apiKey } : {}),
  }
  if (typeof filled.sendVerificationRequest !== "function") {
    throw new InvalidProvider(
      `${where} ("${provider.id}") is an email provider without a "sendVerificationRequest" function`,
    )
  }
  const maxAge = filled.maxAge
  if (
    maxAge !== undefined &&
    !(typeof maxAge === "number" && maxAge > 0 && Number.isFinite(maxAge))
  ) {
    throw new InvalidProvider(
      `${where}.maxAge of "${provider.id}" must be a positive number of seconds`,
    )
  }
  const codeProblem = codeOptionProblem(filled.code)
  if (codeProblem) throw new InvalidProvider(`${where}.code of "${provider.id}": ${codeProblem}`)
  const finish = (filled as { [finishEmailProvider]?: EmailFinish })[finishEmailProvider]
  if (!finish) return filled
  return finish(filled, {
    env,
    envPrefix,
    fail(message) {
      throw new InvalidProvider(`${where} ("${provider.id}") ${message}`)
    },
  })
}

/** The provider id as it appears in variable names: `microsoft-entra-id` → `MICROSOFT_ENTRA_ID`. */
function envName(id: string): string {
  return id.toUpperCase().replace(/-/g, "_")
}

function isURL(value: unknown): boolean {
  if (typeof value !== "string") return false
  try {
    const { protocol } = new URL(value)
    return protocol === "https:" || protocol === "http:"
  } catch {
    return false
  }
}

/** The client authentication methods the token request knows (`http.ts` `clientOf`). */
const authMethods = new Set(["client_secret_basic", "client_secret_post", "none"])

/**
 * Fills an OAuth provider's client id, secret and issuer from the environment, lets a built-in
 * provider settle what its options and variables mean (or refuse them), and checks the result.
 */
function normalizeOAuth(
  provider: OAuthProviderConfig,
  where: string,
  env: Env,
): OAuthProviderConfig {
  const name = envName(provider.id)
  const envIssuerName = `AUTH_${name}_ISSUER`
  const context: FinishContext = {
    envIssuer: env[envIssuerName] || undefined,
    envIssuerName,
    fail(message) {
      throw new InvalidProvider(`${where} ("${provider.id}") ${message}`)
    },
  }
  const withClient: OAuthProviderConfig = {
    ...provider,
    clientId: provider.clientId ?? env[`AUTH_${name}_ID`],
    clientSecret: provider.clientSecret ?? env[`AUTH_${name}_SECRET`],
  }
  // A variable that narrows who signs in is used or refused, never ignored: the provider's own
  // step decides what its issuer may be; any other provider takes AUTH_<ID>_ISSUER as its issuer.
  const finish = (provider as RuledProvider)[finishProvider]
  const filled = finish ? finish(withClient, context) : issuerFromEnv(withClient, context)
  if (!filled.clientId) {
    throw new InvalidProvider(`${where} ("${provider.id}") has no clientId: set AUTH_${name}_ID`)
  }
  const method = filled.client?.token_endpoint_auth_method ?? "client_secret_basic"
  if (!authMethods.has(method)) {
    throw new InvalidProvider(
      `${where} ("${provider.id}") has client.token_endpoint_auth_method "${String(method)}", which this version does not support: use client_secret_basic, client_secret_post or none`,
    )
  }
  if (method !== "none" && !filled.clientSecret) {
    throw new InvalidProvider(
      `${where} ("${provider.id}") has no clientSecret: set AUTH_${name}_SECRET, or client.token_endpoint_auth_method "none" for a public client`,
    )
  }
  const endpoint = (value: OAuthProviderConfig["authorization"]) =>
    typeof value === "string" ? value : value?.url
  for (const key of ["authorization", "token", "userinfo"] as const) {
    const url = endpoint(filled[key])
    if (url !== undefined && !isURL(url)) {
      throw new InvalidEndpoints(`${where}.${key} of "${provider.id}" is not an http(s) URL`)
    }
  }
  if (filled.issuer !== undefined && !isURL(filled.issuer)) {
    throw new InvalidEndpoints(`${where}.issuer of "${provider.id}" is not an http(s) URL`)
  }
  const hasEndpoints = endpoint(filled.authorization) && endpoint(filled.token)
  if (!filled.issuer && !hasEndpoints) {
    throw new InvalidEndpoints(
      `${where} ("${provider.id}") needs an issuer (AUTH_${name}_ISSUER) or authorization and token endpoints`,
    )
  }
  return filled
}

/**
 * Calls factories, checks ids and types, and indexes providers by id. Throws the configuration
 * error that names the faulty provider.
 */
export function normalizeProviders(
  providers: readonly Provider[] | undefined,
  env: Env = {},
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
    const named = {
      ...provider,
      name: typeof provider.name === "string" ? provider.name : provider.id,
    }
    byId.set(
      provider.id,
      isOAuthProvider(named)
        ? normalizeOAuth(named, where, env)
        : isEmailProvider(named)
          ? normalizeEmail(named, where, env)
          : isWebAuthnProvider(named)
            ? normalizeWebAuthn(named, where)
            : named,
    )
  }
  return byId
}
