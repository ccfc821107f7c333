/** Any provider's configuration, and what `providers` may hold. */
import type { CredentialsConfig, CredentialsProviderId } from "./credentials.js"
import type { EmailConfig } from "./email.js"
import type { CommonProviderOptions } from "./provider-common.js"
import type { Profile } from "./resources.js"
import type { WebAuthnConfig, WebAuthnProviderType } from "./webauthn.js"
import type { OAuth2Config, OAuthConfig, OAuthProviderId, OIDCConfig } from "../providers/oauth.js"

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

/** A provider with the URLs that start its sign-in and receive its callback. */
export interface AppProvider extends CommonProviderOptions {
  signinUrl: string
  callbackUrl: string
}

/** The id of a provider: a built-in one's, or any of your own. */
export type ProviderId =
  CredentialsProviderId | EmailProviderId | OAuthProviderId | WebAuthnProviderType | (string & {})
