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
