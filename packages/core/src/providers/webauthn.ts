/**
 * Sign in with WebAuthn credentials (passkeys and security keys). Experimental: enable it with
 * `experimental: { enableWebAuthn: true }`. `Passkey` (`@latch/core/providers/passkey`) is this
 * provider with the settings passkeys need; most apps want that one.
 *
 * WebAuthn needs `@simplewebauthn/server` installed next to `@latch/core`, and an adapter with
 * `getAuthenticator`, `createAuthenticator`, `listAuthenticatorsByUserId` and
 * `updateAuthenticatorCounter` (besides the user and account methods). Each credential is stored
 * as an `Authenticator` and linked to its user as an account of type `"webauthn"` whose
 * `providerAccountId` is the credential id.
 *
 * ```ts
 * import WebAuthn from "@latch/core/providers/webauthn"
 *
 * WebAuthn({ relyingParty: { name: "Example" } })
 * ```
 *
 * @module providers/webauthn
 */
import type { SemverString } from "../types/common.js"
import type {
  SimpleWebAuthnMethods,
  WebAuthnConfig,
  WebAuthnUserConfig,
} from "../types/webauthn.js"
import { defaultGetUserInfo } from "../flows/webauthn/user-info.js"
import {
  simpleWebAuthnHelpersLoader,
  simpleWebAuthnLoader,
  type SimpleWebAuthnHelpersLoader,
  type SimpleWebAuthnLoader,
} from "../flows/webauthn/loader.js"

export type {
  GetUserInfo,
  RelayingParty,
  RelyingParty,
  SimpleWebAuthnMethods,
  WebAuthnAttestationPolicy,
  WebAuthnConfig,
  WebAuthnMetadataEntry,
  WebAuthnMetadataStatement,
  WebAuthnProviderType,
  WebAuthnRateLimit,
  WebAuthnRelyingPartyOptions,
  WebAuthnRequest,
  WebAuthnUserConfig,
  WebAuthnUserInfo,
  WebAuthnUserInfoOptions,
} from "../types/webauthn.js"

/** How long the browser waits for the user by default, in milliseconds: 5 minutes. */
export const DEFAULT_WEBAUTHN_TIMEOUT = 5 * 60 * 1000

/**
 * The `@simplewebauthn/browser` version a WebAuthn provider names by default. Latch's built-in
 * sign-in page loads no script from elsewhere (its passkey script is inline), so the version is
 * informative only; `@latch/sveltekit/webauthn` uses the `@simplewebauthn/browser` you install.
 */
export const DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION: SemverString = "v9.0.1"

export { defaultGetUserInfo }

/**
 * `@simplewebauthn/server`, named here, in the module of the provider that needs it, and nowhere
 * in the rest of core: an app that imports no WebAuthn provider has no import of the package in
 * its bundle (a Worker bundle would otherwise keep it as an unresolved module, which miniflare
 * refuses to load, or carry 1.3 MB it never runs), and an app that imports one gets it resolved
 * by its bundler with no configuration. A dynamic `import()`, so that on Node.js the package is
 * loaded by the first passkey ceremony, never by a session check or a password sign-in.
 */
const loadSimpleWebAuthn: SimpleWebAuthnLoader = () =>
  import("@simplewebauthn/server") as Promise<Partial<SimpleWebAuthnMethods>>

/** Its helpers, loaded only by a registration under an attestation policy. */
const loadSimpleWebAuthnHelpers: SimpleWebAuthnHelpersLoader = () =>
  import("@simplewebauthn/server/helpers") as Promise<never>

/**
 * A WebAuthn provider (`id: "webauthn"`). Its defaults suit passkeys too; `Passkey()` only
 * renames it.
 *
 * @example
 * ```ts
 * import WebAuthn from "@latch/core/providers/webauthn"
 *
 * export const config = {
 *   adapter,
 *   experimental: { enableWebAuthn: true },
 *   providers: [WebAuthn({ relyingParty: { name: "Example" } })],
 * }
 * ```
 */
export default function WebAuthn(options: WebAuthnUserConfig = {}): WebAuthnConfig {
  const { relayingParty, relyingParty, ...rest } = options
  return {
    id: "webauthn",
    name: "WebAuthn",
    enableConditionalUI: true,
    supportedAlgorithmIDs: [-8, -7, -257],
    userVerification: "required",
    residentKey: "required",
    timeout: DEFAULT_WEBAUTHN_TIMEOUT,
    simpleWebAuthnBrowserVersion: DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION,
    formFields: {
      email: { label: "Email", type: "email", required: true, autocomplete: "username webauthn" },
    },
    getUserInfo: defaultGetUserInfo,
    ...rest,
    relyingParty: relyingParty ?? relayingParty,
    type: "webauthn",
    options,
    [simpleWebAuthnLoader]: loadSimpleWebAuthn,
    [simpleWebAuthnHelpersLoader]: loadSimpleWebAuthnHelpers,
  } as WebAuthnConfig
}
