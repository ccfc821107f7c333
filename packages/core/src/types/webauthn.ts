/** The configuration of a WebAuthn provider (passkeys), and what its functions receive. */
import type { Adapter } from "./adapter.js"
import type { Awaitable, SemverString } from "./common.js"
import type {
  CommonProviderOptions,
  CredentialInput,
  WebAuthnProviderType,
} from "./provider-common.js"
import type { User } from "./resources.js"

export type { WebAuthnProviderType } from "./provider-common.js"

/**
 * The relying party: who the credentials are for. `id` is a registrable domain (credentials
 * work on it and its subdomains), `origin` the origin(s) the browser must report.
 */
export interface RelyingParty {
  /** @default the hostname of the site's origin */
  id: string
  /** Shown by the browser and the authenticator. @default the host of the site's origin */
  name: string
  /** @default the site's origin */
  origin: string | string[]
}

/** The relying party, under the spelling `@auth/core` uses. */
export type RelayingParty = RelyingParty

/** What `getUserInfo` and `getRelyingParty` receive about the request. */
export interface WebAuthnRequest {
  /** The request's URL (the `webauthn-options` action). */
  url: URL
  /** The query parameters, e.g. `email`. */
  query: Record<string, string | undefined>
  headers: Headers
  /** The site's trusted origin, e.g. `https://example.com`. */
  origin: string
}

/**
 * The first argument of `getRelyingParty`: the request and the provider. Auth.js passes its
 * options first and the request second; both forms work (`(request) => …` as well as
 * `(options, request) => …`, where `options.url` is on the site's host as in Auth.js).
 */
export interface WebAuthnRelyingPartyOptions extends WebAuthnRequest {
  provider: WebAuthnConfig
}

/** What `getUserInfo` receives about the configuration. */
export interface WebAuthnUserInfoOptions {
  adapter: Adapter
  provider: WebAuthnConfig
}

/**
 * The user a registration is for, when nobody is signed in. `exists: true` when the user is
 * stored already: then only signing in is offered (a passkey is added to an existing account
 * only by its signed-in owner). `exists: false` creates a new account with `user.email`: return
 * it only for an address the visitor has proven to control.
 */
export interface WebAuthnUserInfo {
  user: Partial<User> & { email: string }
  exists: boolean
}

/**
 * Finds out who wants a passkey when nobody is signed in: `{ user, exists: false }` offers the
 * visitor a new account with a passkey. The default answers `null` for everyone, so that
 * anonymous visitors can only sign in with a passkey they have; a signed-in user adds one to
 * their own account.
 *
 * Return a new account only for an address the visitor has **proven** to control (a code your
 * app mailed and checked, say) — never one read from the request as it stands. An account made
 * from a claimed address waits for its owner: when they later sign in by email link (or by OAuth
 * with `allowDangerousEmailAccountLinking`), they land in it, and the passkey of whoever claimed
 * it still opens it. What this function answers also decides whether `webauthn-options` tells a
 * visitor that an address has an account.
 */
export type GetUserInfo = (
  options: WebAuthnUserInfoOptions,
  request: WebAuthnRequest,
) => Awaitable<WebAuthnUserInfo | null>

/**
 * Replacements for `@simplewebauthn/server`'s functions, e.g. to wrap them or to run without
 * the package. Each has the signature of the function of the same name.
 */
export interface SimpleWebAuthnMethods {
  generateRegistrationOptions: (options: any) => Promise<any>
  generateAuthenticationOptions: (options: any) => Promise<any>
  verifyRegistrationResponse: (options: any) => Promise<any>
  verifyAuthenticationResponse: (options: any) => Promise<any>
}

/**
 * How many `webauthn-options` requests a client address may make while nobody is signed in to
 * it, in a window. Over the limit: 429 `WebAuthnRateLimited` with `Retry-After`. Counted only
 * when the integration gives the client's address (`@latch/sveltekit` does).
 */
export interface WebAuthnRateLimit {
  /** The window, in seconds. @default 60 */
  window?: number
  /**
   * Requests per client address per window. Visitors behind one address (an office, a mobile
   * carrier's NAT) share it: raise it if many of your users sign in from one address.
   * @default 60
   */
  perClient?: number
}

/**
 * A FIDO Metadata Service (MDS3) metadata statement: what the maker of an authenticator model
 * publishes about it. Latch reads the fields below; the rest of the statement may stay in the
 * object as downloaded.
 */
export interface WebAuthnMetadataStatement {
  /** The model's AAGUID, e.g. `"ee882879-721c-4913-9775-3dfcce97072a"`. */
  aaguid: string
  /** The model's name, used in log messages. */
  description?: string
  /**
   * How the model attests (`"basic_full"`, `"basic_surrogate"` for self attestation, `"attca"`,
   * `"anonca"`, …). A self attestation is accepted only from a model that lists
   * `"basic_surrogate"`.
   */
  attestationTypes: string[]
  /** The maker's attestation roots: X.509 certificates, DER in standard base64 (not PEM). */
  attestationRootCertificates: string[]
  [field: string]: unknown
}

/**
 * An entry of the MDS3 BLOB's `entries` (its payload, once you have verified and decoded the
 * JWT): a statement with the model's status reports. A model whose latest report says it is
 * compromised or revoked registers nothing.
 */
export interface WebAuthnMetadataEntry {
  aaguid?: string
  metadataStatement: WebAuthnMetadataStatement
  statusReports?: { status: string; effectiveDate?: string; [field: string]: unknown }[]
  [field: string]: unknown
}

/**
 * Which authenticators may register new credentials: off unless set. With a policy, registration
 * asks for `"direct"` attestation and refuses (`WebAuthnVerificationError`, `code=attestation`)
 * an authenticator that sends none, one whose model is not allowed, and, with `metadata`, one
 * whose attestation does not chain to its model's roots. Credentials registered before keep
 * signing in: the policy judges registrations only.
 */
export interface WebAuthnAttestationPolicy {
  /**
   * The authenticator models (AAGUIDs) that may register. Without `metadata` this checks the
   * model the authenticator *claims*: it keeps honest users to the keys you issue, but a
   * software authenticator can claim any model. Add `metadata` for proof.
   */
  aaguids?: string[]
  /**
   * Metadata statements (or MDS3 BLOB entries) you downloaded and parsed: Latch never fetches
   * them. A registration's AAGUID must have a statement here, and its attestation certificate
   * chain must lead to one of that statement's `attestationRootCertificates`.
   */
  metadata?: (WebAuthnMetadataStatement | WebAuthnMetadataEntry)[]
}

/** A WebAuthn provider's configuration. */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: WebAuthnProviderType
  /** Overrides of the relying party's defaults. */
  relyingParty?: Partial<RelyingParty>
  /** Computes the relying party per request (e.g. several domains). Overrides `relyingParty`. */
  getRelyingParty?: (
    options: WebAuthnRelyingPartyOptions,
    request: WebAuthnRequest,
  ) => Awaitable<Partial<RelyingParty>>
  /**
   * Offer passkeys in the browser's autofill (WebAuthn conditional mediation) on the built-in
   * sign-in page. Needs a form field whose `autocomplete` includes `webauthn`. At most one
   * provider may enable it.
   * @default true
   */
  enableConditionalUI: boolean
  /**
   * COSE algorithm identifiers accepted for new credentials, most preferred first.
   * @default [-8, -7, -257] (EdDSA, ES256, RS256)
   */
  supportedAlgorithmIDs: number[]
  /**
   * Whether the authenticator must verify the user (PIN, biometrics) on every use: passkeys
   * replace a password, so by default they must.
   * @default "required"
   */
  userVerification: "required" | "preferred" | "discouraged"
  /**
   * Whether credentials must be discoverable (resident keys). Sign-in offers no list of
   * credentials to anonymous visitors, since that would tell anyone which accounts exist, so
   * the authenticator must find the credential itself.
   * @default "required"
   */
  residentKey: "required" | "preferred" | "discouraged"
  /** How long the browser waits for the user, in milliseconds. @default DEFAULT_WEBAUTHN_TIMEOUT */
  timeout: number
  /**
   * The `@simplewebauthn/browser` version for the sign-in page, or `false`. Accepted for
   * configurations written for `@auth/core`; Latch's page uses its own inline script.
   * @default DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION
   */
  simpleWebAuthnBrowserVersion?: SemverString | false
  /**
   * Which authenticators may register (a company's issued security keys, say). Off by default:
   * any authenticator registers, and none is asked for attestation.
   */
  attestation?: WebAuthnAttestationPolicy
  /** Extra options for `generateRegistrationOptions` (e.g. `attestationType`). */
  registrationOptions?: Record<string, unknown>
  /** Extra options for `generateAuthenticationOptions`. */
  authenticationOptions?: Record<string, unknown>
  /** Extra options for `verifyRegistrationResponse`. */
  verifyRegistrationOptions?: Record<string, unknown>
  /** Extra options for `verifyAuthenticationResponse`. */
  verifyAuthenticationOptions?: Record<string, unknown>
  /** Replacements for `@simplewebauthn/server`'s functions. */
  simpleWebAuthn?: Partial<SimpleWebAuthnMethods>
  /** Fields of the built-in sign-in page's passkey form. @default an email field */
  formFields: Record<string, CredentialInput>
  /**
   * Who wants a passkey, when nobody is signed in. @default nobody: anonymous visitors only sign
   * in; a signed-in user adds a passkey to their account
   */
  getUserInfo: GetUserInfo
  /**
   * The limit on anonymous `webauthn-options` requests that consult a custom `getUserInfo` (the
   * only ones whose answer can tell addresses apart), per client address; `false` for none.
   * @default { window: 60, perClient: 60 }
   */
  rateLimit?: WebAuthnRateLimit | false
  /**
   * Passkey-first sign-up: a visitor who is not signed in gives an address, types the code
   * mailed to it, and creates an account that has only a passkey (`emailVerified` set). Needs
   * a way to send mail (an email provider, or a `Password` provider's `sendMail`) and an adapter
   * with the verification-token methods. An address that has an account gets a mail saying so
   * instead of a code; the page answers the same. @default false
   */
  signUp?: boolean
  /** The options the provider was created with. */
  options?: WebAuthnUserConfig
}

/** Options of `WebAuthn()` and `Passkey()`: every field is optional. */
export type WebAuthnUserConfig = Partial<Omit<WebAuthnConfig, "type" | "options">> & {
  /** The spelling `@auth/core` uses for `relyingParty`; both are read. */
  relayingParty?: Partial<RelyingParty>
}
