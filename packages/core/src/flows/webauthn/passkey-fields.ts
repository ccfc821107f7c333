/**
 * Latch's own fields of a stored passkey (its name, when it was made and last used, its model,
 * the browser that made it): made at registration, checked when the user renames it, and given
 * only to an adapter that stores them — one with `updateAuthenticator`. An adapter written for
 * Auth.js gets exactly Auth.js's fields, so that its insert never meets a column it lacks.
 */
import type { Adapter, AdapterAuthenticator } from "../../adapters.js"
import { AccountError } from "../../errors.js"
import { describeUserAgent } from "../../session/device.js"
import { modelName, storedAaguid } from "./models.js"

/** The longest name a passkey may have, in characters (code points). */
export const MAX_PASSKEY_NAME = 64

/** What a passkey is called when nothing better is known. */
export const DEFAULT_PASSKEY_NAME = "Passkey"

/** The fields an adapter with `updateAuthenticator` stores beside Auth.js's. */
const LATCH_FIELDS = [
  "name",
  "createdAt",
  "lastUsedAt",
  "aaguid",
  "createdBy",
  "secondFactor",
] as const satisfies readonly (keyof AdapterAuthenticator)[]

type LatchFields = Pick<AdapterAuthenticator, (typeof LATCH_FIELDS)[number]>

/** Whether the adapter stores Latch's passkey fields. */
export function storesPasskeyFields(adapter: Adapter | undefined): boolean {
  return typeof adapter?.updateAuthenticator === "function"
}

/** The passkey as the adapter is to receive it: without Latch's fields unless it stores them. */
export function authenticatorFor(
  adapter: Adapter,
  authenticator: AdapterAuthenticator,
): AdapterAuthenticator {
  if (storesPasskeyFields(adapter)) return authenticator
  const bare: Record<string, unknown> = { ...authenticator }
  for (const field of LATCH_FIELDS) delete bare[field]
  return bare as unknown as AdapterAuthenticator
}

/** A new passkey's fields: named after its model when known, made now, by this browser. */
export function newPasskeyFields(
  aaguid: string | null | undefined,
  userAgent: string | null,
): Required<LatchFields> {
  const stored = storedAaguid(aaguid)
  return {
    name: modelName(stored) ?? DEFAULT_PASSKEY_NAME,
    createdAt: new Date(),
    lastUsedAt: null,
    aaguid: stored,
    createdBy: describeUserAgent(userAgent),
    secondFactor: false,
  }
}

/**
 * Line breaks, other control characters, and the bidirectional overrides and isolates that would
 * make a name read differently from what it is ("\u202Egnp.exe"); joiners inside emoji stay.
 */
const REFUSED = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u

/** A name the user typed, trimmed; `AccountError("invalid_name")` when it cannot be one. */
export function passkeyName(input: unknown): string {
  const name = typeof input === "string" ? input.trim() : ""
  if (name === "")
    throw new AccountError("a passkey's name cannot be empty", { code: "invalid_name" })
  if ([...name].length > MAX_PASSKEY_NAME)
    throw new AccountError(`a passkey's name has at most ${MAX_PASSKEY_NAME} characters`, {
      code: "invalid_name",
    })
  if (REFUSED.test(name))
    throw new AccountError("a passkey's name cannot hold control characters", {
      code: "invalid_name",
    })
  return name
}
