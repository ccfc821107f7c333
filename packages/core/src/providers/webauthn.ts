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
import type { Adapter, AdapterUser } from "../adapters.js"
import type { Awaitable, User } from "../types.js"
import type { CommonProviderOptions, CredentialInput } from "./index.js"

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

/** What `getUserInfo` receives about the configuration. */
export interface WebAuthnUserInfoOptions {
  adapter: Adapter
  provider: WebAuthnConfig
}

/**
 * The user a registration is for, when nobody is signed in. `exists: true` when the user is
 * stored already: then only signing in is offered (a passkey is added to an existing account
 * only by its signed-in owner).
 */
export interface WebAuthnUserInfo {
  user: Partial<User> & { email: string }
  exists: boolean
}

/**
 * Finds out who wants a passkey when nobody is signed in. The default reads the `email` query
 * parameter (trimmed, lowercased) and looks it up with `adapter.getUserByEmail`.
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

/** A WebAuthn provider's configuration. */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn"
  /** Overrides of the relying party's defaults. */
  relyingParty?: Partial<RelyingParty>
  /** Computes the relying party per request (e.g. several domains). Overrides `relyingParty`. */
  getRelyingParty?: (request: WebAuthnRequest) => Awaitable<Partial<RelyingParty>>
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
  /** How long the browser waits for the user, in milliseconds. @default 300000 (5 minutes) */
  timeout: number
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
  /** Who wants a passkey, when nobody is signed in. @default the `email` query parameter */
  getUserInfo: GetUserInfo
  /** The options the provider was created with. */
  options?: WebAuthnUserConfig
}

/** Options of `WebAuthn()` and `Passkey()`: every field is optional. */
export type WebAuthnUserConfig = Partial<Omit<WebAuthnConfig, "type" | "options">> & {
  /** The spelling `@auth/core` uses for `relyingParty`; both are read. */
  relayingParty?: Partial<RelyingParty>
}

/** The default `getUserInfo`: the `email` query parameter, looked up in the adapter. */
export const defaultGetUserInfo: GetUserInfo = async ({ adapter }, { query }) => {
  const email = query.email?.trim().toLowerCase()
  if (!email) return null
  const stored: AdapterUser | null = (await adapter.getUserByEmail?.(email)) ?? null
  return stored
    ? { user: stored as User & { email: string }, exists: true }
    : { user: { email }, exists: false }
}

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
    timeout: 5 * 60 * 1000,
    formFields: {
      email: { label: "Email", type: "email", required: true, autocomplete: "username webauthn" },
    },
    getUserInfo: defaultGetUserInfo,
    ...rest,
    relyingParty: relyingParty ?? relayingParty,
    type: "webauthn",
    options,
  }
}
