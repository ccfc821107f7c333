/**
 * Provider types. Each provider is a plain configuration object (or a factory returning one);
 * the code that runs a provider's flow lives in `flows/`, not here.
 *
 * @module providers
 */
import type { Awaitable, Profile, User } from "../types.js"
import type Credentials from "./credentials.js"
import type { CredentialsRateLimit } from "./credentials.js"
import type Email from "./email.js"
import type { EmailConfig } from "./email.js"
import type { OAuth2Config, OAuthConfig, OAuthProviderId, OIDCConfig } from "./oauth.js"
import type { WebAuthnConfig, WebAuthnProviderType } from "./webauthn.js"

export type * from "./oauth.js"

/** The kinds of provider. */
export type ProviderType = "oidc" | "oauth" | "email" | "credentials" | WebAuthnProviderType

/** What every provider has. */
export interface CommonProviderOptions {
  /** Unique among the configured providers; appears in URLs (`/auth/signin/<id>`). */
  id: string
  /** Shown on the sign-in page. */
  name: string
  type: ProviderType
}

/** One field of the credentials form on the built-in sign-in page. */
export interface CredentialInput {
  /** The field's label. @default the field's key */
  label?: string
  /** The input's `type` attribute. @default "text" */
  type?: string
  placeholder?: string
  autocomplete?: string
  required?: boolean
  [attribute: string]: unknown
}

/**
 * A credentials provider: the user proves who they are with a form (a password, a one-time
 * code…), and `authorize` decides.
 */
export interface CredentialsConfig<
  Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>,
> extends CommonProviderOptions {
  type: "credentials"
  /** The form fields, shown on the built-in sign-in page and read from the POST body. */
  credentials: Fields
  /**
   * Returns the user, or `null` to refuse. Throw `CredentialsSignin` (or a subclass with a
   * `code`) to refuse with a code the sign-in page shows. Any other error is the server's fault
   * and sends the user to the error page.
   */
  authorize: (
    credentials: Partial<Record<keyof Fields, unknown>>,
    request: Request,
  ) => Awaitable<User | null>
  /**
   * Brute-force protection (Latch; not in Auth.js): failed attempts are counted per account and
   * client address, per account and per client address, and `authorize` is not called over a
   * limit (`code=rate_limited`). `false` turns it off.
   * @default { window: 900, perPair: 5, perIdentifier: 20, perClient: 50 }
   */
  rateLimit?: CredentialsRateLimit | false
}

/** The id of the credentials provider. */
export type CredentialsProviderId = "credentials"

/** Either kind of OAuth provider (the same as `OAuthConfig`). */
export type OAuthProviderConfig<P = Profile> = OAuthConfig<P>

/** A provider configuration of a type this version does not run (refused with a clear error). */
export interface OtherProviderConfig extends CommonProviderOptions {
  [option: string]: unknown
}

/** Any provider configuration. */
export type ProviderConfig =
  | CredentialsConfig<any>
  | OAuth2Config<any>
  | OIDCConfig<any>
  | EmailConfig
  | WebAuthnConfig
  | OtherProviderConfig

/** The options a provider was created with, kept on the provider. */
interface InternalProviderOptions {
  options?: Record<string, unknown>
}

/**
 * A provider in `providers`: a configuration object, or a factory called without options
 * (`providers: [GitHub]`).
 */
export type Provider<P extends Profile = any> = (
  | ((OIDCConfig<P> | OAuth2Config<P> | ProviderConfig) & InternalProviderOptions)
  | ((...args: any) => (OIDCConfig<P> | OAuth2Config<P> | ProviderConfig) & InternalProviderOptions)
) &
  InternalProviderOptions

/** The ids of the built-in email providers (Auth.js's union, which also lists `passkey`). */
export type EmailProviderId =
  | "email"
  | "forwardemail"
  | "mailgun"
  | "nodemailer"
  | "passkey"
  | "postmark"
  | "resend"
  | "sendgrid"

/** The factory of every built-in provider, by id. */
export type BuiltInProviders = Record<
  OAuthProviderId,
  (config: Partial<OAuthConfig<any>>) => OAuthConfig<any>
> &
  Record<CredentialsProviderId, typeof Credentials> &
  Record<EmailProviderId, typeof Email> &
  Record<WebAuthnProviderType, (config: Partial<WebAuthnConfig>) => WebAuthnConfig>

/** What `providers` may hold: providers, or what the built-in factories return. */
export type AppProviders = Array<Provider | ReturnType<BuiltInProviders[keyof BuiltInProviders]>>

/** A provider with the URLs that start its sign-in and receive its callback. */
export interface AppProvider extends CommonProviderOptions {
  signinUrl: string
  callbackUrl: string
}

/** The id of a provider: a built-in one's, or any of your own. */
export type ProviderId =
  CredentialsProviderId | EmailProviderId | OAuthProviderId | WebAuthnProviderType | (string & {})

export type { CredentialsRateLimit } from "./credentials.js"
export type {
  EmailConfig,
  EmailProviderSendVerificationRequestParams,
  EmailProviderType,
  EmailRateLimit,
  EmailUserConfig,
  SendVerificationRequestParams,
} from "./email.js"
export type {
  GetUserInfo,
  RelayingParty,
  RelyingParty,
  SimpleWebAuthnMethods,
  WebAuthnConfig,
  WebAuthnProviderType,
  WebAuthnRequest,
  WebAuthnUserConfig,
  WebAuthnUserInfo,
} from "./webauthn.js"
