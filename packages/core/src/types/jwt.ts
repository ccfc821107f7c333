/** The session token's claims, and the options and parameters of its encoding. */
import type { Awaitable } from "./common.js"
import type { LoggerInstance } from "../lib/logger.js"

/** The claims Latch puts in a session token by default (exported as `DefaultJWT`). */
export interface JWTFields extends Record<string, unknown> {
  name?: string | null
  email?: string | null
  picture?: string | null
  sub?: string
  iat?: number
  exp?: number
  jti?: string
  /**
   * The tokens of the provider signed in with, when it has `refresh` on: what Latch refreshes.
   * Read the access token with `getAccessToken`.
   */
  oauth?: ProviderTokens
  /** `"RefreshTokenError"` once the provider refused the refresh token: sign in again. */
  error?: string
}

/** A provider's tokens, as a session keeps them for refreshing. */
export interface ProviderTokens {
  provider: string
  providerAccountId: string
  access_token?: string
  refresh_token?: string
  /** When the access token expires, in seconds since the epoch. */
  expires_at?: number
  token_type?: string
  scope?: string
}

/** The session token; augment it to type your own claims. */
export interface JWT extends Record<string, unknown>, JWTFields {}

/** Parameters of `encode`. */
export interface JWTEncodeParams<Payload = JWT> {
  /** The claims to encrypt. */
  token?: Payload
  /** The salt of the key derivation: the session cookie's name. */
  salt: string
  /** The secret, or secrets newest first (the first encrypts). */
  secret: string | string[]
  /** Lifetime in seconds. @default 2592000 (30 days) */
  maxAge?: number
}

/** Parameters of `decode`. */
export interface JWTDecodeParams {
  /** The compact JWE. */
  token?: string
  /** The salt of the key derivation: the session cookie's name. */
  salt: string
  /** The secret, or secrets newest first: each is tried. */
  secret: string | string[]
}

/** JWT options of the configuration. */
export interface JWTOptions {
  /** Lifetime of the token in seconds. @default session.maxAge */
  maxAge: number
  /** Replaces Latch's encryption. */
  encode: (params: JWTEncodeParams) => Awaitable<string>
  /** Replaces Latch's decryption; return `null` for a token you do not accept. */
  decode: (params: JWTDecodeParams) => Awaitable<JWT | null>
}

/** Parameters of `getToken`; with `raw: true` it returns the encrypted token as it is. */
export interface GetTokenParams<R extends boolean = false> {
  /** The request, or anything with its headers. */
  req: Request | { headers: Headers | Record<string, string | string[] | undefined> }
  /** @default process.env.AUTH_SECRET */
  secret?: string | string[]
  /** @default the name of the cookie the token was found in */
  salt?: string
  /** Look only for the `__Secure-` cookie (`true`) or only the plain one (`false`). @default both */
  secureCookie?: boolean
  /** A custom session cookie name. */
  cookieName?: string
  /** Return the encrypted token as it is. */
  raw?: R
  /** A custom decoder, as in `jwt.decode`. */
  decode?: JWTOptions["decode"]
  /**
   * Where `getToken` reports, with `debug`, where it looked, where it found a token, and why a
   * token present could not be read. `console` works too. @default silent
   */
  logger?: LoggerInstance | Console
}
