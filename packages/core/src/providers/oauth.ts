/**
 * The configuration of OAuth 2.0 and OpenID Connect providers: what the built-in providers
 * return, and what a custom provider is written as. Types only; the flow that runs a provider
 * lives in `flows/oauth/`.
 *
 * ```ts
 * import type { OAuthConfig, OAuthUserConfig } from "@latch/core/providers"
 *
 * export default function Acme(options: OAuthUserConfig<AcmeProfile>): OAuthConfig<AcmeProfile> {
 *   return {
 *     id: "acme",
 *     name: "Acme",
 *     type: "oidc",
 *     issuer: "https://id.acme.example",
 *     style: { logo: "/acme.svg", bg: "#fff", text: "#000" },
 *     options,
 *   }
 * }
 * ```
 *
 * @module providers/oauth
 */
import type { customFetch } from "../markers.js"
import type { Awaitable } from "../types/common.js"
import type { CommonProviderOptions } from "../types/provider-common.js"
import type { Profile, TokenSet, User } from "../types/resources.js"

/**
 * The built-in OAuth 2.0 and OpenID Connect providers, by module name (`ory-hydra`'s provider id
 * is `hydra`); the same union as Auth.js's, which also lists `loops`.
 */
export type OAuthProviderId =
  | "42-school"
  | "apple"
  | "asgardeo"
  | "atlassian"
  | "auth0"
  | "authentik"
  | "azure-ad-b2c"
  | "azure-ad"
  | "azure-devops"
  | "bankid-no"
  | "battlenet"
  | "beyondidentity"
  | "bitbucket"
  | "box"
  | "boxyhq-saml"
  | "bungie"
  | "click-up"
  | "cognito"
  | "coinbase"
  | "concept2"
  | "descope"
  | "discord"
  | "dribbble"
  | "dropbox"
  | "duende-identity-server6"
  | "eventbrite"
  | "eveonline"
  | "facebook"
  | "faceit"
  | "figma"
  | "foursquare"
  | "freshbooks"
  | "frontegg"
  | "fusionauth"
  | "github"
  | "gitlab"
  | "google"
  | "hubspot"
  | "huggingface"
  | "identity-server4"
  | "instagram"
  | "kakao"
  | "keycloak"
  | "kinde"
  | "line"
  | "linkedin"
  | "logto"
  | "loops"
  | "mailchimp"
  | "mailru"
  | "mastodon"
  | "mattermost"
  | "medium"
  | "microsoft-entra-id"
  | "naver"
  | "netlify"
  | "netsuite"
  | "nextcloud"
  | "notion"
  | "okta"
  | "onelogin"
  | "ory-hydra"
  | "osso"
  | "osu"
  | "passage"
  | "patreon"
  | "ping-id"
  | "pinterest"
  | "pipedrive"
  | "reddit"
  | "roblox"
  | "salesforce"
  | "simplelogin"
  | "slack"
  | "spotify"
  | "strava"
  | "threads"
  | "tiktok"
  | "todoist"
  | "trakt"
  | "twitch"
  | "twitter"
  | "united-effects"
  | "vipps"
  | "vk"
  | "webex"
  | "wechat"
  | "wikimedia"
  | "wordpress"
  | "workos"
  | "yandex"
  | "zitadel"
  | "zoho"
  | "zoom"

/**
 * The security checks of an OAuth sign-in: RFC 7636 PKCE, `state`, OpenID Connect `nonce`, or
 * `"none"` for a server that supports none of them (then nothing ties the callback to the
 * browser that started the sign-in: use it only when the server leaves no choice).
 */
export type OAuthCheck = "pkce" | "state" | "nonce" | "none"

/** The values of the checks at the callback, as a custom token request receives them. */
export interface OAuthCheckValues {
  /** The PKCE code verifier, with the `"pkce"` check. */
  code_verifier?: string
  /** The expected `state`, with the `"state"` check. */
  state?: string
  /** The expected ID token `nonce`, with the `"nonce"` check. */
  nonce?: string
  [check: string]: unknown
}

/**
 * A check's name or the checks' values: Auth.js uses this one name for both (apps write
 * `checks: ["pkce", "state"] as OAuthChecks[]`).
 */
export type OAuthChecks = OAuthCheck | OAuthCheckValues

/** The endpoints of an OAuth provider. */
export type OAuthEndpointType = "authorization" | "token" | "userinfo"

/** The `fetch` a provider's HTTP calls go through. */
export type ProviderFetch = (input: string, init: RequestInit) => Promise<Response>

/** How the client authenticates at the token endpoint. */
export type TokenEndpointAuthMethod = "client_secret_basic" | "client_secret_post" | "none"

/** Parameters added to an endpoint's request. */
type UrlParams = Record<string, unknown>

/**
 * What a custom `request` of an endpoint receives besides its own context: the provider, and
 * its `fetch` (with the provider's timeout and `customFetch`) for every call it makes.
 */
export interface EndpointRequestContext {
  provider: OAuthConfigInternal<any>
  fetch: ProviderFetch
}

/**
 * An endpoint given as an object: its URL (or none, for an endpoint found by discovery), the
 * parameters added to its request, and optionally a function that makes the request itself.
 */
export interface EndpointHandler<
  Params extends UrlParams = UrlParams,
  Context = object,
  Result = unknown,
> {
  /** The endpoint's URL. @default the issuer's, from discovery */
  url?: string
  /** Parameters added to the request (for `authorization`: to its query, e.g. `scope`). */
  params?: Params
  /**
   * Makes the request itself, for a server that does not follow the standard. Called for
   * `userinfo`; on `token` it is accepted and not called, as in `@auth/core` 0.41.3.
   */
  request?(context: Context & EndpointRequestContext): Awaitable<Result>
  /**
   * Accepted for configurations written for `@auth/core`; Latch does not call it. To rewrite a
   * non-standard response, wrap the provider's `fetch` (`customFetch`).
   */
  conform?(response: Response): Awaitable<Response | undefined>
}

/** The authorization endpoint, as an object: `url` and `params` (e.g. `{ scope }`). */
export type AuthorizationEndpointHandler = EndpointHandler<UrlParams>

/**
 * The token endpoint, as an object. Its `request` (the callback's parameters and the values of
 * the checks → `{ tokens }`) is accepted and not called, as in `@auth/core` 0.41.3.
 */
export type TokenEndpointHandler = EndpointHandler<
  UrlParams,
  { params: Record<string, string | undefined>; checks: OAuthCheckValues },
  { tokens: TokenSet }
>

/** The userinfo endpoint, as an object. A `request` receives the tokens and returns the profile. */
export type UserinfoEndpointHandler = EndpointHandler<
  UrlParams,
  { tokens: TokenSet },
  Profile | Record<string, any>
>

/** What a custom userinfo request receives. */
export type UserinfoContext = { tokens: TokenSet } & EndpointRequestContext

/** An endpoint: a URL, or an object with a URL and parameters. */
export type OAuthEndpoint = string | EndpointHandler<UrlParams, any, any>

/** The userinfo endpoint: a URL, or an object whose `request` may fetch the profile itself. */
export type UserinfoEndpoint = string | UserinfoEndpointHandler

/** Maps the provider's profile to the user. The user's `id` is the account's id at the provider. */
export type ProfileCallback<P> = (profile: P, tokens: TokenSet) => Awaitable<User>

/**
 * Chooses what of the token response is stored on the account (with an adapter) and passed to
 * the `jwt` and `signIn` callbacks as `account`. Return nothing to store the whole token set.
 */
export type AccountCallback = (tokens: TokenSet) => TokenSet | undefined | void

/** The provider's button on the built-in sign-in page. */
export interface OAuthProviderButtonStyles {
  /** An absolute URL (or a path on your site) of the logo shown on the button. */
  logo?: string
  /** The button's text color. */
  text?: string
  /** The button's background color. */
  bg?: string
  /** The button's accent color. */
  brandColor?: string
}

/** An OAuth 2.0 provider. */
export interface OAuth2Config<P = Profile> extends CommonProviderOptions {
  id: string
  name: string
  type: "oauth"
  /**
   * The issuer: its `/.well-known/openid-configuration` supplies the endpoints (fetched once and
   * cached) and is checked against the `iss` of responses (RFC 9207) and ID tokens.
   * @default AUTH_<ID>_ISSUER for OIDC providers
   */
  issuer?: string
  /** A discovery document URL, when it is not under the issuer. */
  wellKnown?: string
  /** Accepted for configurations written for `@auth/core`; Latch does not read it. */
  jwks_endpoint?: string
  /** The authorization endpoint and the parameters sent to it (e.g. `scope`). */
  authorization?: string | AuthorizationEndpointHandler
  /** The token endpoint. */
  token?: string | TokenEndpointHandler
  /**
   * The userinfo endpoint, or a `request` that fetches the profile itself (for providers whose
   * profile needs several calls, such as GitHub's private emails). Called when there is no ID
   * token, or when `idToken` is false.
   */
  userinfo?: string | UserinfoEndpointHandler
  /** Maps the provider's profile to the user. @default id from `sub`/`id`, name, email, picture */
  profile?: ProfileCallback<P>
  /** What of the token response is kept on the account. @default the whole token set */
  account?: AccountCallback
  /**
   * Checks of the callback. @default ["pkce", "state"] — stronger than PKCE alone: `state` also
   * ties the callback to the browser that started the sign-in. (`"nonce"` applies only to a
   * server that returns an ID token.)
   */
  checks?: Array<"pkce" | "state" | "none" | "nonce">
  /** @default AUTH_<ID>_ID */
  clientId?: string
  /** @default AUTH_<ID>_SECRET */
  clientSecret?: string
  /**
   * Client metadata, e.g. `token_endpoint_auth_method` (`client_secret_basic`,
   * `client_secret_post` or `none`; others are refused at start-up).
   * @default { token_endpoint_auth_method: "client_secret_basic" }
   */
  client?: {
    token_endpoint_auth_method?: TokenEndpointAuthMethod | (string & {})
    [metadata: string]: unknown
  }
  /** The provider's button: read by sign-in pages of your own (Latch's page does not use it). */
  style?: OAuthProviderButtonStyles
  /**
   * Sign the user in to an existing account with the same email address. Only for providers
   * that verify email addresses: anyone who can register that address there gets the account.
   * @default false
   */
  allowDangerousEmailAccountLinking?: boolean
  // A plain string rather than `AuthConfig["redirectProxyUrl"]` (the same type): the
  // configuration's type names the providers', so naming it back would make an import cycle.
  /** Per provider `redirectProxyUrl`: the configuration's, for this provider alone. */
  redirectProxyUrl?: string
  /** Seconds before a call to the provider is abandoned. @default 10 */
  timeout?: number
  /**
   * Keep the provider's access token fresh: when a session is read and the token expires within
   * `margin` seconds, Latch spends the stored refresh token (once, however many requests and
   * instances read the session at that moment), stores the new tokens and passes them to the
   * `jwt` callback with `trigger: "refresh"`. Read the token with `getAccessToken`. Off by
   * default: an app that refreshes in its own `jwt` callback would spend the refresh token twice.
   * @default false
   */
  refresh?: boolean | RefreshOptions
  /** A `fetch` for every HTTP call made for this provider (tests, proxies). */
  [customFetch]?: ProviderFetch
  /** The options the provider was created with. */
  options?: OAuthUserConfig<P>
}

/** How a provider's access token is kept fresh. */
export interface RefreshOptions {
  /** Refresh when the access token expires within this many seconds. @default 60 */
  margin?: number
}

/** An OpenID Connect provider: an OAuth provider with an issuer and ID tokens. */
export interface OIDCConfig<P = Profile> extends Omit<OAuth2Config<P>, "type" | "checks"> {
  type: "oidc"
  /** Checks of the callback. @default ["pkce", "state", "nonce"] */
  checks?: Array<"pkce" | "state" | "none" | "nonce">
  /** Whether the profile comes from the ID token (true) or the userinfo endpoint. @default true */
  idToken?: boolean
}

/** An OAuth 2.0 or OpenID Connect provider. */
export type OAuthConfig<P = Profile> = OIDCConfig<P> | OAuth2Config<P>

/** A provider as the flow runs it. */
export type OAuthConfigInternal<P = Profile> = OAuthConfig<P>

/** An OpenID Connect provider as the flow runs it. */
export type OIDCConfigInternal<P = Profile> = OAuthConfigInternal<P> & {
  checks: OIDCConfig<P>["checks"]
  idToken: OIDCConfig<P>["idToken"]
}

/** What users pass to an OAuth provider's factory: every option, none required. */
export type OAuthUserConfig<P = Profile> = Omit<Partial<OAuthConfig<P>>, "options" | "type">

/** What users pass to an OpenID Connect provider's factory: every option, none required. */
export type OIDCUserConfig<P = Profile> = Omit<Partial<OIDCConfig<P>>, "options" | "type">
