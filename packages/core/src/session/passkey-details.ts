/**
 * What a page shows of one of the user's passkeys: its name, when it was made and last used,
 * whether it is synced, its model and the browser that made it. From the stored passkey; an
 * adapter that keeps only Auth.js's fields (no `updateAuthenticator`) gives the kind alone, and
 * such passkeys cannot be renamed.
 */
import type { AdapterAuthenticator } from "../adapters.js"
import { modelName } from "../flows/webauthn/models.js"
import { DEFAULT_PASSKEY_NAME } from "../flows/webauthn/passkey-fields.js"

/** One passkey of the user, for a page. Dates are ISO 8601 strings, as in the JSON answer. */
export interface PasskeyDetails {
  /** The name the user gave it, or its model's name at registration, or `"Passkey"`. */
  name: string
  /** When it was registered; `null` when the adapter does not store it. */
  createdAt: string | null
  /** When it last signed in; `null`: not since it was registered, or not stored. */
  lastUsedAt: string | null
  /** Synced across the user's devices (a multi-device credential) rather than on one device. */
  synced: boolean
  /** Whether the authenticator reported it backed up. */
  backedUp: boolean
  /** The authenticator model's name, when its AAGUID is one of the common ones. */
  model: string | null
  /** The authenticator model's AAGUID, when it sent one. */
  aaguid: string | null
  /**
   * The browser and system that registered it ("Chrome on macOS"), as its user agent said: a
   * hint, not a fact.
   */
  createdBy: string | null
  /** Whether it may be renamed (the adapter stores Latch's passkey fields). */
  renamable: boolean
}

const iso = (date: Date | null | undefined) => (date ? new Date(date).toISOString() : null)

export function passkeyDetails(
  authenticator: AdapterAuthenticator,
  renamable: boolean,
): PasskeyDetails {
  const aaguid = authenticator.aaguid ?? null
  const model = modelName(aaguid)
  return {
    name: authenticator.name || model || DEFAULT_PASSKEY_NAME,
    createdAt: iso(authenticator.createdAt),
    lastUsedAt: iso(authenticator.lastUsedAt),
    synced: authenticator.credentialDeviceType === "multiDevice",
    backedUp: authenticator.credentialBackedUp === true,
    model,
    aaguid,
    createdBy: authenticator.createdBy ?? null,
    renamable,
  }
}
