/**
 * The shapes the built-in providers share, written once: a provider module is its profile type,
 * its documentation and a call to `oauthProvider` or `oidcProvider` with its data (endpoints,
 * default parameters, style) and at most a small `profile` function.
 *
 * What differs between providers is data here too:
 * - `finish`: what the provider's issuer may be (`fixedEndpoints`, `issuerFromEnv`), or endpoints
 *   computed from an instance's base URL (`hostedAt`), or the client id sent under another name
 *   (`clientIdAs`), composed with `finishing`;
 * - `conform`: a server's non-standard JSON answer rewritten into the standard one before it is
 *   parsed (a missing `token_type`, tokens wrapped in a `data` member…), through the provider's
 *   `fetch`, so that the flow itself stays the standard one;
 * - `profileFrom`: a profile API that is not a plain bearer `GET` (a `POST`, the token in the
 *   query, extra headers), described rather than coded.
 */
import { customFetch } from "../markers.js"
import type {
  OAuth2Config,
  OAuthConfig,
  OAuthEndpoint,
  OAuthProviderButtonStyles,
  OAuthUserConfig,
  OIDCConfig,
  ProviderFetch,
} from "../providers/index.js"
import type { UserinfoEndpointHandler } from "../providers/oauth.js"
import type { Awaitable, TokenSet, User } from "../types.js"
import { userFromClaims } from "./claims.js"
import { withDefaults } from "./endpoint.js"
import { fixedEndpoints, issuerFromEnv, withFinish, type FinishProvider } from "./provider-rules.js"

type Endpoint = OAuth2Config["token"]

/** Rewrites a JSON answer of the provider. */
export type Conform = (body: Record<string, unknown>) => Record<string, unknown>

/** The data of a built-in provider. */
export interface ProviderShape<Base> {
  id: string
  name: string
  /** The authorization endpoint; none for an OpenID provider that has it from discovery. */
  authorization?: string
  /** The default parameters of the authorization request (`scope`…). */
  params?: Record<string, string>
  token?: Endpoint
  userinfo?: OAuth2Config["userinfo"]
  /** The provider's own issuer, when it has one fixed issuer. */
  issuer?: string
  wellKnown?: string
  /** Maps the provider's profile to the user. @default `userFromClaims` for OpenID providers */
  profile?: (profile: Base, tokens: TokenSet) => Awaitable<User>
  style: OAuthProviderButtonStyles
  client?: OAuth2Config["client"]
  checks?: OAuth2Config["checks"]
  /** OpenID providers: whether the profile is the ID token's claims. @default true */
  idToken?: boolean
  /**
   * What the issuer may be, run once the options and `AUTH_<ID>_*` variables are known.
   * @default `fixedEndpoints(issuer)` for a provider with fixed endpoints, `issuerFromEnv` for an
   * OpenID provider found by discovery
   */
  finish?: FinishProvider
  /** Rewrites the JSON answers of the token (and other POST) requests. */
  conform?: Conform
  /** Rewrites the JSON answers of the GET requests (the userinfo endpoint's). */
  conformGet?: Conform
}

/** Builds a provider from its shape and the user's options (which win, `params` merged). */
function build<Base>(
  shape: ProviderShape<Base>,
  type: "oauth" | "oidc",
  options: OAuthUserConfig<any>,
): OAuthConfig<any> {
  const { authorization, ...rest } = options
  const scope: Record<string, string> = type === "oidc" ? { scope: "openid profile email" } : {}
  const provider: Record<string | symbol, unknown> = {
    id: shape.id,
    name: shape.name,
    type,
    authorization: withDefaults(shape.authorization, { ...scope, ...shape.params }, authorization),
    profile: shape.profile ?? userFromClaims,
    style: shape.style,
  }
  const optional = ["token", "userinfo", "issuer", "wellKnown", "client", "checks"] as const
  for (const key of optional) if (shape[key] !== undefined) provider[key] = shape[key]
  if (type === "oidc" && shape.idToken !== undefined) provider.idToken = shape.idToken
  Object.assign(provider, rest, { options })
  if (shape.conform || shape.conformGet) {
    const inner = (options as { [customFetch]?: ProviderFetch })[customFetch] ?? fetch
    provider[customFetch] = conformingFetch(inner, shape.conform, shape.conformGet)
  }
  const finish =
    shape.finish ??
    (shape.authorization !== undefined ? fixedEndpoints(shape.issuer) : issuerFromEnv)
  return withFinish(provider as unknown as OAuthConfig<any>, finish)
}

/** A plain OAuth 2.0 provider's factory. */
export function oauthProvider<Base extends object>(shape: ProviderShape<Base>) {
  return <P extends Base = Base>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> =>
    build(shape, "oauth", options) as OAuth2Config<P>
}

/** An OpenID Connect provider's factory: scope `openid profile email` unless `params` says. */
export function oidcProvider<Base extends object>(shape: ProviderShape<Base>) {
  return <P extends Base = Base>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> =>
    build(shape, "oidc", options) as OIDCConfig<P>
}

/** The finishing steps in order, each given the provider the one before returned. */
export function finishing(...steps: FinishProvider[]): FinishProvider {
  return (provider, context) => steps.reduce((current, step) => step(current, context), provider)
}

/** The user's endpoint where they gave one, else the shape's (the `params` are merged). */
function endpointAt(own: OAuthEndpoint | undefined, url: string, params = {}): OAuthEndpoint {
  return withDefaults(url, params, own)
}

/**
 * The finishing step of a provider that runs on instances of its own (Mastodon, Nextcloud, a
 * self-hosted SSO server): its endpoints are under the instance's URL, taken from the `issuer`
 * option or `AUTH_<ID>_ISSUER`, and the provider is refused at start-up without one.
 * Endpoints the user gave are kept.
 */
export function hostedAt(
  what: string,
  endpoints: (base: string) => { authorization: string; token: string; userinfo?: string },
  params: Record<string, string> = {},
): FinishProvider {
  return (provider, context) => {
    const issuer = provider.issuer ?? context.envIssuer
    if (!issuer) {
      return context.fail(`needs ${what}: set ${context.envIssuerName} or the issuer option`)
    }
    const urls = endpoints(issuer.replace(/\/+$/, ""))
    const own = provider.options as OAuthUserConfig | undefined
    return {
      ...provider,
      issuer,
      authorization: endpointAt(own?.authorization, urls.authorization, params),
      token: own?.token ?? urls.token,
      ...(urls.userinfo ? { userinfo: own?.userinfo ?? urls.userinfo } : {}),
    }
  }
}

/**
 * The finishing step of a provider whose authorization request names the client under another
 * parameter than `client_id` (TikTok's `client_key`, WeChat's `appid`).
 */
export function clientIdAs(param: string): FinishProvider {
  return (provider) => {
    const endpoint = provider.authorization
    const url = typeof endpoint === "string" ? endpoint : endpoint?.url
    const params = typeof endpoint === "object" ? endpoint.params : undefined
    return {
      ...provider,
      authorization: { url, params: { ...params, [param]: provider.clientId } },
    }
  }
}

/**
 * A `fetch` that rewrites JSON object answers: `post` those of POST requests (the token
 * endpoint's), `get` those of GET requests. Other answers pass as they are.
 */
export function conformingFetch(
  inner: ProviderFetch,
  post: Conform | undefined,
  get: Conform | undefined,
): ProviderFetch {
  return async (input, init) => {
    const response = await inner(input, init)
    const method = init?.method ?? "GET"
    const rewrite = method.toUpperCase() === "POST" ? post : get
    const type = response.headers.get("content-type") ?? ""
    if (!rewrite || !/json|javascript|text\/plain/.test(type)) return response
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => undefined)
    if (typeof body !== "object" || body === null || Array.isArray(body)) return response
    const headers = new Headers(response.headers)
    headers.delete("content-length")
    headers.delete("content-encoding")
    headers.set("content-type", "application/json")
    return new Response(JSON.stringify(rewrite(body as Record<string, unknown>)), {
      status: response.status,
      statusText: response.statusText,
      headers,
    })
  }
}

/** How a profile API is called, for `profileFrom`. */
export interface ProfileRequest {
  /** The URL, or the URL for these tokens (an id from the token response in the path…). */
  url: string | ((tokens: TokenSet) => string)
  /** @default "GET" */
  method?: "GET" | "POST"
  /**
   * How the access token is sent: a bearer `Authorization` header, a query parameter, or an
   * `Authorization` header with another scheme. @default "bearer"
   */
  auth?: "bearer" | { query: string } | { scheme: string }
  /** Query parameters added to the URL (fields to return, an API version…). */
  query?: Record<string, string> | ((tokens: TokenSet) => Record<string, string>)
  headers?: Record<string, string>
  /** A JSON body, for a `POST`. */
  body?: unknown
}

/**
 * A userinfo endpoint that calls a profile API as its documentation says: the answer must be a
 * JSON object (the profile callback picks from it); any other answer fails the sign-in.
 */
export function profileFrom(spec: ProfileRequest): UserinfoEndpointHandler {
  const fixed = typeof spec.url === "string" ? spec.url : undefined
  return {
    ...(fixed ? { url: fixed } : {}),
    async request({ tokens, fetch }) {
      const url = new URL(typeof spec.url === "function" ? spec.url(tokens) : spec.url)
      const query = typeof spec.query === "function" ? spec.query(tokens) : spec.query
      for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value)
      const headers = new Headers({ accept: "application/json", ...spec.headers })
      const token = String(tokens.access_token ?? "")
      const auth = spec.auth ?? "bearer"
      if (auth === "bearer") headers.set("authorization", `Bearer ${token}`)
      else if ("query" in auth) url.searchParams.set(auth.query, token)
      else headers.set("authorization", `${auth.scheme} ${token}`)
      const init: RequestInit = { method: spec.method ?? "GET", headers }
      if (spec.body !== undefined) {
        headers.set("content-type", "application/json")
        init.body = JSON.stringify(spec.body)
      }
      const response = await fetch(url.href, init)
      if (!response.ok)
        throw new Error(`The profile API ${url.origin}${url.pathname} answered ${response.status}`)
      const profile: unknown = await response.json().catch(() => undefined)
      if (typeof profile !== "object" || profile === null || Array.isArray(profile)) {
        throw new Error(`The profile API ${url.origin}${url.pathname} did not answer a JSON object`)
      }
      return profile as Record<string, unknown>
    },
  }
}
