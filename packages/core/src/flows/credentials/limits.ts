/**
 * A credentials provider's `rateLimit` option → the limits it stands for, checked once per
 * provider object; and the account an attempt is for (the identifier).
 */
import { InvalidProvider } from "../../errors.js"
import type { CredentialsConfig } from "../../providers/index.js"

export const DEFAULT_WINDOW = 900
export const DEFAULT_PER_PAIR = 5
export const DEFAULT_PER_IDENTIFIER = 20
export const DEFAULT_PER_CLIENT = 50

/** The limits of one provider, every default filled. */
export interface Limits {
  /** The form field naming the account; `undefined`: chosen from the form (`email`, `username`). */
  field: string | undefined
  /** Milliseconds per window. */
  window: number
  perPair: number
  perIdentifier: number
  perClient: number
}

const resolved = new WeakMap<CredentialsConfig, Limits | null>()

function positiveInteger(value: unknown, fallback: number, id: string, name: string): number {
  if (value === undefined) return fallback
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return value
  throw new InvalidProvider(
    `The credentials provider "${id}" has a rateLimit.${name} that is not a positive integer: ${String(value)}.`,
  )
}

/** The first declared field that is not a password: the one that names the account. */
function declaredIdentifier(provider: CredentialsConfig): string | undefined {
  const fields = provider.credentials
  if (typeof fields !== "object" || fields === null) return undefined
  for (const [name, input] of Object.entries(fields)) {
    const type = (input as { type?: unknown } | null)?.type
    if (type !== "password") return name
  }
  return undefined
}

function resolve(provider: CredentialsConfig): Limits | null {
  const option: unknown = provider.rateLimit
  if (option === false) return null
  // `true` reads as "on", the default.
  if (option !== undefined && option !== true && (typeof option !== "object" || option === null)) {
    throw new InvalidProvider(
      `The credentials provider "${provider.id}" has a rateLimit that is neither an object nor false.`,
    )
  }
  const given = (typeof option === "object" ? option : {}) as Record<string, unknown>
  const id = provider.id
  const field = given.identifier
  if (field !== undefined && (typeof field !== "string" || field === "")) {
    throw new InvalidProvider(
      `The credentials provider "${id}" has a rateLimit.identifier that is not a field name.`,
    )
  }
  return {
    field: field ?? declaredIdentifier(provider),
    window: positiveInteger(given.window, DEFAULT_WINDOW, id, "window") * 1000,
    perPair: positiveInteger(given.perPair, DEFAULT_PER_PAIR, id, "perPair"),
    perIdentifier: positiveInteger(
      given.perIdentifier,
      DEFAULT_PER_IDENTIFIER,
      id,
      "perIdentifier",
    ),
    perClient: positiveInteger(given.perClient, DEFAULT_PER_CLIENT, id, "perClient"),
  }
}

/**
 * The provider's limits, or `null` when `rateLimit: false`. Throws `InvalidProvider` for an
 * option that is not one (the sign-in then ends on the `Configuration` error page, logged).
 */
export function limitsOf(provider: CredentialsConfig): Limits | null {
  let limits = resolved.get(provider)
  if (limits === undefined) {
    limits = resolve(provider)
    resolved.set(provider, limits)
  }
  return limits
}

/**
 * An account name as it is counted: trimmed, NFKC-normalized (fullwidth and compatibility forms
 * fold to their plain letters) and lowercased, so that `Alice`, ` alice ` and `ａｌｉｃｅ` share
 * one count. `undefined` when nothing is left.
 */
export function normalizeIdentifier(value: string): string | undefined {
  const normalized = value.normalize("NFKC").trim().toLowerCase()
  return normalized === "" ? undefined : normalized
}

/**
 * The account an attempt is for, as posted: the value of the limits' field, else of the form's
 * `email`, else of its `username`; `undefined` when there is none (then only the per-address
 * limit applies). Whatever was posted is read as `authorize` would coerce it (`String(value)`),
 * so a JSON body cannot slip past as `["alice"]`. Counted as `normalizeIdentifier` makes it.
 */
export function postedIdentifier(
  limits: Limits,
  credentials: Record<string, unknown>,
): string | undefined {
  const field =
    limits.field ??
    (["email", "username"] as const).find((name) => {
      const value = credentials[name]
      return value !== undefined && value !== null && value !== ""
    })
  if (field === undefined || !Object.hasOwn(credentials, field)) return undefined
  const value = credentials[field]
  if (value === undefined || value === null) return undefined
  return String(value)
}
