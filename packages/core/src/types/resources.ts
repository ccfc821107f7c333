/** The resources: users, accounts, sessions, profiles, passkeys and provider tokens. */
import type { ProviderType } from "./provider-common.js"

/** One element of an RFC 9396 `authorization_details` array. */
export interface AuthorizationDetails {
  readonly type: string
  readonly locations?: string[]
  readonly actions?: string[]
  readonly datatypes?: string[]
  readonly identifier?: string
  readonly privileges?: string[]
  readonly [parameter: string]: unknown
}

/** A partial OAuth 2.0 / OpenID Connect token endpoint response. */
export interface TokenEndpointResponse {
  readonly access_token?: string
  readonly token_type?: string
  readonly expires_in?: number
  readonly refresh_token?: string
  readonly scope?: string
  readonly id_token?: string
  readonly authorization_details?: AuthorizationDetails[]
  readonly [parameter: string]: unknown
}

/** A token endpoint response plus `expires_at`, in seconds since the epoch. */
export interface TokenSet extends TokenEndpointResponse {
  /** When the access token expires, in seconds since the epoch; computed from `expires_in`. */
  expires_at?: number
}

/**
 * How a user signed in with a provider. For OAuth it carries the token endpoint's fields.
 */
export interface Account extends TokenEndpointResponse {
  /** The provider's id, e.g. `"github"`. */
  provider: string
  /**
   * The user's id at the provider: the profile id for OAuth, the email address for email, the
   * id returned by `authorize` for credentials.
   */
  providerAccountId: string
  /** The kind of provider. */
  type: ProviderType
  /** The id of the user who owns the account. */
  userId?: string
  /** When the access token expires, in seconds since the epoch; computed from `expires_in`. */
  expires_at?: number
  /** Always lowercase, since the value is case-insensitive (RFC 6749 §7.1). */
  token_type?: Lowercase<string>
}

/** A registered passkey (WebAuthn credential). */
export interface Authenticator {
  /** Base64-encoded credential id. */
  credentialID: string
  /** The account the authenticator is connected to. */
  providerAccountId: string
  /** How many times the authenticator has been used. */
  counter: number
  /** Whether the credential is backed up (a synced passkey). */
  credentialBackedUp: boolean
  /** `"singleDevice"` or `"multiDevice"`. */
  credentialDeviceType: string
  /** Base64-encoded public key. */
  credentialPublicKey: string
  /** Transport flags, comma-separated. */
  transports?: string | null
  /** The owning user's id. */
  userId?: string
}

/** The fields of a user that Latch itself reads and writes (exported as `DefaultUser`). */
export interface UserFields {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
}

/**
 * A user, as returned by a provider's `profile` or a credentials `authorize`. Augment it to add
 * fields:
 *
 * @example
 * ```ts
 * declare module "@latch/core/types" {
 *   interface User { role?: string }
 * }
 * ```
 */
export interface User extends UserFields {}

/** The address claim of an OpenID Connect profile. */
export interface ProfileAddress {
  country?: string | null
  formatted?: string | null
  locality?: string | null
  postal_code?: string | null
  region?: string | null
  street_address?: string | null
}

/** The profile returned by an OAuth provider: the OpenID standard claims and anything else. */
export interface Profile {
  sub?: string | null
  id?: string | null
  name?: string | null
  given_name?: string | null
  family_name?: string | null
  middle_name?: string | null
  nickname?: string | null
  preferred_username?: string | null
  profile?: string | null
  picture?: any
  website?: string | null
  email?: string | null
  email_verified?: boolean | null
  gender?: string | null
  birthdate?: string | null
  zoneinfo?: string | null
  locale?: string | null
  phone_number?: string | null
  updated_at?: Date | string | number | null
  address?: ProfileAddress | null
  [claim: string]: unknown
}

/** The fields of the session exposed to the client by default (exported as `DefaultSession`). */
export interface SessionFields {
  user?: User
  /** When the session expires, as an ISO 8601 string. */
  expires: string
  /**
   * `"RefreshTokenError"` when a provider with `refresh` on refused the stored refresh token: the
   * user is still signed in, but their access token cannot be renewed until they sign in again.
   * (Typed `string`, so that an app's own `Session` augmentation may narrow it, as Auth.js's
   * refresh guide does with `error?: "RefreshTokenError"`.)
   */
  error?: string
}

/**
 * The session returned by `GET {basePath}/session`, `getSession()` and `locals.auth()`.
 * Augment it to add fields:
 *
 * @example
 * ```ts
 * declare module "@latch/core/types" {
 *   interface Session { user: { role: string } & DefaultSession["user"] }
 * }
 * ```
 */
export interface Session extends SessionFields {}

/** A provider as shown to clients by the `providers` action. */
export interface PublicProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
}
