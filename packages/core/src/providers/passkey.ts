/**
 * Sign in with a passkey: a discoverable WebAuthn credential, verified with the user's PIN or
 * biometrics, often synced between their devices. Experimental: enable it with
 * `experimental: { enableWebAuthn: true }`, and install `@simplewebauthn/server` (and
 * `@simplewebauthn/browser` for the client).
 *
 * A signed-in user adds a passkey to their account; anyone signs in with theirs, without typing
 * anything (the browser offers the passkeys it has for the site). A visitor who is not signed in
 * creates an account with a passkey only once their address is proven: `signUp: true` mails
 * them a code first (passkey-first sign-up; or see `getUserInfo` for addresses your app has
 * verified by its own means).
 *
 * @module providers/passkey
 */
import WebAuthn, { type WebAuthnConfig, type WebAuthnUserConfig } from "./webauthn.js"

export type {
  GetUserInfo,
  RelayingParty,
  RelyingParty,
  WebAuthnAttestationPolicy,
  WebAuthnConfig,
  WebAuthnMetadataEntry,
  WebAuthnMetadataStatement,
  WebAuthnRateLimit,
  WebAuthnRequest,
  WebAuthnUserConfig,
  WebAuthnUserInfo,
} from "./webauthn.js"

/**
 * The passkey provider (`id: "passkey"`): discoverable credentials with user verification
 * required.
 *
 * @example
 * ```ts
 * import Passkey from "@latch/core/providers/passkey"
 *
 * export const config = {
 *   adapter: PostgresAdapter(pool),
 *   experimental: { enableWebAuthn: true },
 *   providers: [Passkey({ relyingParty: { name: "Example" } })],
 * }
 * ```
 */
export default function Passkey(options: WebAuthnUserConfig = {}): WebAuthnConfig {
  return WebAuthn({
    id: "passkey",
    name: "Passkey",
    residentKey: "required",
    userVerification: "required",
    ...options,
  })
}
