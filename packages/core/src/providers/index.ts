/**
 * Provider types. Each provider is a plain configuration object (or a factory returning one);
 * the code that runs a provider's flow lives in `flows/`, not here.
 *
 * @module providers
 */
import type { customFetch } from "../markers.js"
import type { Awaitable, Profile, TokenSet, User } from "../types.js"
import type { EmailConfig } from "./email.js"
import type { WebAuthnConfig } from "./webauthn.js"

/** The kinds of provider. */
export type ProviderType = "oauth" | "oidc" | "email" | "credentials" | "webauthn"

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
}

/** The security checks of an OAuth sign-in (RFC 7636 PKCE, `state`, OpenID Connect `nonce`). */
export type OAuthCheck = "pkce" | "state" | "nonce"

/** An endpoint: a URL, or a URL with parameters added to the request. */
export type OAuthEndpoint = string | { url?: string; params?: Record<string, string | undefined> }

/** What a custom userinfo request receives. */
export interface UserinfoContext {
  tokens: TokenSet
  provider: OAuthProviderConfig<any>
  /** The provider's `fetch`, with its timeout: use it for every call. */
  fetch: ProviderFetch
}

/**
 * The userinfo endpoint, or a function that fetches the profile itself (for providers whose
 * profile needs several calls, such as GitHub's private emails).
 */
export type UserinfoEndpoint =
  | OAuthEndpoint
  | {
      url?: string
      params?: Record<string, string | undefined>
      request: (context: UserinfoContext) => Awaitable<Record<string, any>>
    }

/** How the client authenticates at the token endpoint. */
export type TokenEndpointAuthMethod = "client_secret_basic" | "client_secret_post" | "none"

/** The `fetch` a provider's HTTP calls go through. */
export type ProviderFetch = (input: string, init: RequestInit) => Promise<Response>

/**
 * What users set on an OAuth 2.0 or OpenID Connect provider. Built-in providers fill the
 * endpoints and `profile`; a custom provider gives them itself.
 */
export interface OAuthUserConfig<P extends Record<string, any> = Profile> {
  /** @default AUTH_<ID>_ID */
  clientId?: string
  /** @default AUTH_<ID>_SECRET */
  clientSecret?: string
  /**
   * The issuer: its `/.well-known/openid-configuration` supplies the endpoints (fetched once and
   * cached) and is checked against the `iss` of responses (RFC 9207) and ID tokens.
   * @default AUTH_<ID>_ISSUER for OIDC providers
   */
  issuer?: string
  /** A discovery document URL, when it is not under the issuer. */
  wellKnown?: string
  /** The authorization endpoint and the parameters sent to it (e.g. `scope`). */
  authorization?: OAuthEndpoint
  /** The token endpoint. */
  token?: OAuthEndpoint
  /** The userinfo endpoint; called when there is no ID token, or when `idToken` is false. */
  userinfo?: UserinfoEndpoint
  /**
   * Checks of the callback. @default ["pkce", "state"] for OAuth, ["pkce", "state", "nonce"] for
   * OIDC — stronger than PKCE alone: `state` also ties the callback to the browser that started
   * the sign-in.
   */
  checks?: OAuthCheck[]
  /** Client metadata, e.g. `token_endpoint_auth_method`. @default client_secret_basic */
  client?: { token_endpoint_auth_method?: TokenEndpointAuthMethod; [metadata: string]: unknown }
  /** Maps the provider's profile to the user. @default id from `sub`/`id`, name, email, picture */
  profile?: (profile: P, tokens: TokenSet) => Awaitable<User & { id?: string }>
  /**
   * Sign the user in to an existing account with the same email address. Only for providers
   * that verify email addresses: anyone who can register that address there gets the account.
   * @default false
   */
  allowDangerousEmailAccountLinking?: boolean
  /** Per provider `redirectProxyUrl`. */
  redirectProxyUrl?: string
  /** Seconds before a call to the provider is abandoned. @default 10 */
  timeout?: number
  /** The provider's look on the built-in sign-in page. */
  style?: { brandColor?: string; logo?: string; text?: string }
  /** A `fetch` for every HTTP call made for this provider (tests, proxies). */
  [customFetch]?: ProviderFetch
}

/** An OAuth 2.0 provider. */
export interface OAuthConfig<P extends Record<string, any> = Profile>
  extends CommonProviderOptions, OAuthUserConfig<P> {
  type: "oauth"
}

/** An OpenID Connect provider: an OAuth provider with an issuer and ID tokens. */
export interface OIDCConfig<P extends Record<string, any> = Profile>
  extends CommonProviderOptions, OAuthUserConfig<P> {
  type: "oidc"
  /** Whether the profile comes from the ID token (true) or the userinfo endpoint. @default true */
  idToken?: boolean
}

/** Either kind of OAuth provider. */
export type OAuthProviderConfig<P extends Record<string, any> = Profile> =
  OAuthConfig<P> | OIDCConfig<P>

/** A provider configuration of a type this version does not run (refused with a clear error). */
export interface OtherProviderConfig extends CommonProviderOptions {
  [option: string]: unknown
}

/** Any provider configuration. */
export type ProviderConfig =
  | CredentialsConfig<any>
  | OAuthConfig<any>
  | OIDCConfig<any>
  | EmailConfig
  | WebAuthnConfig
  | OtherProviderConfig

/** A provider in `providers`: a configuration object or a factory called without options. */
export type Provider = ProviderConfig | ((options?: any) => ProviderConfig)

export type {
  EmailConfig,
  EmailRateLimit,
  EmailUserConfig,
  SendVerificationRequestParams,
} from "./email.js"
export type {
  GetUserInfo,
  RelyingParty,
  SimpleWebAuthnMethods,
  WebAuthnConfig,
  WebAuthnRequest,
  WebAuthnUserConfig,
  WebAuthnUserInfo,
} from "./webauthn.js"
