/**
 * Sign in with Foursquare (Swarm) accounts.
 *
 * @module providers/foursquare
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"
import type { OAuth2Config, OAuthUserConfig } from "./index.js"

/** A Foursquare user, as the v2 API describes it. */
export interface FoursquareUser {
  /** The user's id, a string of digits. */
  id: string
  firstName: string
  lastName?: string
  gender?: string
  /** The photo's URL is `prefix` + a size (`original`, `100x100`…) + `suffix`. */
  photo: { prefix: string; suffix: string }
  contact?: { email?: string; phone?: string; [field: string]: unknown }
  homeCity?: string
  canonicalUrl?: string
  [field: string]: unknown
}

/**
 * The answer of `GET /v2/users/self`: the user inside `response`, next to `meta`.
 *
 * @see https://docs.foursquare.com/developer/reference/personalization-apis-authentication
 */
export interface FoursquareProfile {
  meta: { code: number; requestId?: string }
  response: { user: FoursquareUser }
  [field: string]: unknown
}

/**
 * Foursquare's options: `apiVersion`, the `v` parameter (YYYYMMDD) every API call carries, the
 * date up to which the application is prepared for API changes. @default "20230131"
 */
export type FoursquareOptions<P> = OAuthUserConfig<P> & { apiVersion?: string }

const shape = (apiVersion: string) =>
  oauthProvider<FoursquareProfile>({
    id: "foursquare",
    name: "Foursquare",
    authorization: "https://foursquare.com/oauth2/authenticate",
    token: "https://foursquare.com/oauth2/access_token",
    userinfo: profileFrom({
      url: "https://api.foursquare.com/v2/users/self",
      auth: { query: "oauth_token" },
      query: { v: apiVersion },
    }),
    client: { token_endpoint_auth_method: "client_secret_post" },
    conform: (body) =>
      body.access_token !== undefined && body.token_type === undefined
        ? { ...body, token_type: "bearer" }
        : body,
    profile: ({ response: { user } }) => ({
      id: user.id,
      name: [user.firstName, user.lastName].filter(Boolean).join(" ") || null,
      email: user.contact?.email ?? null,
      image: user.photo ? `${user.photo.prefix}original${user.photo.suffix}` : null,
    }),
    style: { brandColor: "#f94877", text: "#ffffff" },
  })

/**
 * Adds Foursquare sign-in.
 *
 * Create an app in the Foursquare developer console with the redirect URL
 * `https://example.com/auth/callback/foursquare`, then set:
 *
 * - `AUTH_FOURSQUARE_ID`: the client ID
 * - `AUTH_FOURSQUARE_SECRET`: the client secret
 *
 * The token request sends the id and secret as parameters, and its answer is `{ access_token }`
 * alone: the token type (bearer) is added before it is read. The profile is
 * `GET https://api.foursquare.com/v2/users/self`, with the token in the `oauth_token` query
 * parameter and the API version in `v` (the `apiVersion` option).
 *
 * @example
 * ```ts
 * import Foursquare from "@latch/core/providers/foursquare"
 *
 * export const config = { providers: [Foursquare({ apiVersion: "20240101" })] }
 * ```
 */
export default function Foursquare<P extends FoursquareProfile = FoursquareProfile>(
  options: FoursquareOptions<P> = {},
): OAuth2Config<P> {
  const { apiVersion = "20230131", ...rest } = options
  return shape(apiVersion)<P>(rest)
}
