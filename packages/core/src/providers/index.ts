/**
 * Provider types. Each provider is a plain configuration object (or a factory returning one);
 * the code that runs a provider's flow lives in `flows/`, not here.
 *
 * @module providers
 */
import type { CredentialsProviderId } from "../types/credentials.js"
import type { EmailProviderId, Provider } from "../types/provider-config.js"
import type { WebAuthnConfig, WebAuthnProviderType } from "../types/webauthn.js"
import type Credentials from "./credentials.js"
import type Email from "./email.js"
import type { OAuthConfig, OAuthProviderId } from "./oauth.js"

export type * from "./oauth.js"

export type {
  CommonProviderOptions,
  CredentialInput,
  ProviderType,
} from "../types/provider-common.js"
export type {
  CredentialsConfig,
  CredentialsProviderId,
  CredentialsRateLimit,
} from "../types/credentials.js"
export type {
  AppProvider,
  EmailProviderId,
  OAuthProviderConfig,
  OtherProviderConfig,
  Provider,
  ProviderConfig,
  ProviderId,
} from "../types/provider-config.js"

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

export type {
  EmailConfig,
  EmailProviderSendVerificationRequestParams,
  EmailProviderType,
  EmailRateLimit,
  EmailUserConfig,
  SendVerificationRequestParams,
} from "../types/email.js"
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
  WebAuthnRequest,
  WebAuthnUserConfig,
  WebAuthnUserInfo,
} from "../types/webauthn.js"
