/**
 * Where a WebAuthn provider keeps the loader of `@simplewebauthn/server` (see
 * `providers/webauthn.ts` for why the import lives there). A registered symbol: a provider object
 * made by another copy of this package (two bundles of one app) still carries a loader found
 * here.
 */
import type { SimpleWebAuthnMethods } from "../../types/webauthn.js"

/** Loads `@simplewebauthn/server` (or anything with its four functions). */
export type SimpleWebAuthnLoader = () => Promise<Partial<SimpleWebAuthnMethods>>

export const simpleWebAuthnLoader: unique symbol = Symbol.for("latch.simplewebauthn") as never

/**
 * The lower-level functions of `@simplewebauthn/server/helpers` an attestation policy uses:
 * pure functions, unlike the package's `MetadataService` and `SettingsService`, which keep one
 * set of statements and roots for the whole process.
 */
export interface SimpleWebAuthnHelpers {
  decodeAttestationObject: (attestationObject: Uint8Array) => {
    get(key: "fmt"): string
    get(key: "authData"): Uint8Array
    get(key: "attStmt"): { get(key: "x5c"): Uint8Array[] | undefined; readonly size: number }
  }
  validateCertificatePath: (certificates: string[], roots: string[]) => Promise<boolean>
}

/** Loads `@simplewebauthn/server/helpers`. */
export type SimpleWebAuthnHelpersLoader = () => Promise<Partial<SimpleWebAuthnHelpers>>

export const simpleWebAuthnHelpersLoader: unique symbol = Symbol.for(
  "latch.simplewebauthn-helpers",
) as never
