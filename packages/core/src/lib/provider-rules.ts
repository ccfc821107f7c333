/**
 * What a built-in provider adds so that its options that narrow who may sign in (a tenant, a
 * hosted domain, a workspace, an organization) are enforced, or refused at start-up:
 *
 * - `finishProvider`: runs once per configuration, when the options and the `AUTH_<ID>_*`
 *   variables are known; it settles the issuer, refuses what it cannot honour, and attaches
 * - `signInRules`: the authorization parameters a sign-in request may not change, and a check of
 *   every sign-in's validated claims, run by the flow before the app's `profile` callback.
 *
 * Both live under symbols, so that options spread over a provider and `profile` callbacks leave
 * them in place, and both are registered symbols, so that a provider built by one copy of
 * `@latch/core` is still checked by another.
 */
import type { OAuthEndpoint, OAuthProviderConfig } from "../providers/index.js"
import type { Profile } from "../types.js"

/** What a provider's finishing step knows besides the provider. */
export interface FinishContext {
  /** `AUTH_<ID>_ISSUER`, when set and not empty. */
  envIssuer: string | undefined
  /** The name of that variable, for messages. */
  envIssuerName: string
  /** Throws the configuration error, naming the provider. */
  fail(message: string): never
}

/** A provider's finishing step: returns the provider to run (a new object), or fails. */
export type FinishProvider = (
  provider: OAuthProviderConfig,
  context: FinishContext,
) => OAuthProviderConfig

/** What a sign-in is checked against; the claims are those of the validated ID token. */
export interface SignInFacts {
  claims: Record<string, unknown> | undefined
  profile: Profile
}

/** The rules every sign-in with a provider follows. */
export interface SignInRules {
  /** Authorization parameters the sign-in request cannot replace (they narrow who signs in). */
  lockedParams?: readonly string[]
  /** Values of the configured `scope` the sign-in request cannot drop. */
  lockedScope?: (value: string) => boolean
  /** Why the sign-in is refused, or `undefined` to let it through. */
  check?: (facts: SignInFacts) => string | undefined
}

export const finishProvider: unique symbol = Symbol.for("latch.finish-provider") as never
export const signInRules: unique symbol = Symbol.for("latch.sign-in-rules") as never

/** A provider with its rules, as the flows read it. */
export type RuledProvider = OAuthProviderConfig & {
  [finishProvider]?: FinishProvider
  [signInRules]?: SignInRules
}

/** Attaches a finishing step to a provider (in place; for factories building a new object). */
export function withFinish<T extends object>(provider: T, finish: FinishProvider): T {
  return Object.assign(provider, { [finishProvider]: finish })
}

/** A copy of the provider with these sign-in rules. */
export function withSignInRules(
  provider: OAuthProviderConfig,
  rules: SignInRules | undefined,
): OAuthProviderConfig {
  return rules ? Object.assign({ ...provider }, { [signInRules]: rules }) : provider
}

/** Whether two URLs are the same once parsed (`https://a.example` and `https://a.example/`). */
export function sameURL(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href
  } catch {
    return a === b
  }
}

/**
 * The issuer of a provider that takes it from its options or `AUTH_<ID>_ISSUER`: the variable
 * fills a missing one, and is refused when it names another, since it would be ignored.
 */
export function issuerFromEnv(
  provider: OAuthProviderConfig,
  context: FinishContext,
): OAuthProviderConfig {
  const { envIssuer, envIssuerName } = context
  if (envIssuer === undefined) return provider
  if (provider.issuer === undefined) return { ...provider, issuer: envIssuer }
  if (sameURL(provider.issuer, envIssuer)) return provider
  return context.fail(
    `uses the issuer ${provider.issuer}, but ${envIssuerName} is ${envIssuer}: remove the variable or make the two agree`,
  )
}

/**
 * The finishing step of a provider that signs in at fixed endpoints (no discovery): an issuer,
 * in code or in `AUTH_<ID>_ISSUER`, would not move the sign-in anywhere, so one that is not the
 * provider's own is refused rather than ignored.
 */
export function fixedEndpoints(own?: string, hint = ""): FinishProvider {
  return (provider, context) => {
    const where = endpointURL(provider.authorization) ?? "its own endpoints"
    const refuse = (source: string, value: string) =>
      context.fail(
        `cannot use ${source} (${value}): it signs in at ${where} whatever the issuer${own ? `, and its own issuer is ${own}` : ""}. Remove it${hint ? `; ${hint}` : ""}.`,
      )
    const { envIssuer } = context
    const ours = (issuer: string) => own !== undefined && sameURL(issuer, own)
    if (envIssuer !== undefined && !ours(envIssuer)) refuse(context.envIssuerName, envIssuer)
    if (provider.issuer !== undefined && !ours(provider.issuer)) {
      refuse("the issuer option", provider.issuer)
    }
    return envIssuer !== undefined && provider.issuer === undefined
      ? { ...provider, issuer: envIssuer }
      : provider
  }
}

/** The URL of an endpoint given as a string or `{ url }`. */
function endpointURL(endpoint: OAuthEndpoint | undefined): string | undefined {
  return typeof endpoint === "string" ? endpoint : endpoint?.url
}

/** A parameter of the authorization endpoint as configured (its URL's query, then `params`). */
export function configuredParam(provider: OAuthProviderConfig, name: string): string | undefined {
  const endpoint = provider.authorization
  const fromParams = typeof endpoint === "object" ? endpoint.params?.[name] : undefined
  if (fromParams !== undefined) return String(fromParams)
  const url = endpointURL(endpoint)
  if (!url) return undefined
  try {
    return new URL(url).searchParams.get(name) ?? undefined
  } catch {
    return undefined
  }
}

/**
 * The finishing step of a provider with an authorization parameter that narrows who may sign in
 * (Google's `hd`, Slack's `team`…) and a claim that says whether the user is inside: when the
 * parameter is configured, the sign-in request cannot change it, and `check` refuses whoever
 * the claims place outside it. `before` settles the issuer first.
 */
export function narrowingParam(
  param: string,
  check: (value: string, facts: SignInFacts) => string | undefined,
  before: FinishProvider = issuerFromEnv,
): FinishProvider {
  return (provider, context) => {
    const finished = before(provider, context)
    const value = configuredParam(finished, param)
    if (value === undefined) return finished
    return withSignInRules(finished, {
      lockedParams: [param],
      check: (facts) => check(value, facts),
    })
  }
}
