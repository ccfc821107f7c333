/**
 * Sign in with Spotify.
 *
 * @module providers/spotify
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"
import { fixedEndpoints, withFinish } from "../lib/provider-rules.js"

/** One of the user's profile images. */
export interface SpotifyImage {
  url: string
  height: number | null
  width: number | null
}

/**
 * The current user, as `GET /v1/me` returns it; `email` needs the `user-read-email` scope,
 * `country`, `product` and `explicit_content` need `user-read-private`.
 *
 * @see https://developer.spotify.com/documentation/web-api/reference/get-current-users-profile
 */
export interface SpotifyProfile {
  /** The Spotify user ID. */
  id: string
  display_name: string | null
  /** Unverified: Spotify does not confirm it belongs to the user. */
  email?: string
  images: SpotifyImage[]
  country?: string
  product?: string
  explicit_content?: { filter_enabled: boolean; filter_locked: boolean }
  external_urls: { spotify: string }
  followers: { href: string | null; total: number }
  href: string
  type: "user"
  uri: string
  [field: string]: unknown
}

/**
 * Adds Spotify sign-in.
 *
 * Create an app in the Spotify Developer Dashboard (Web API) with the redirect URI
 * `https://example.com/auth/callback/spotify`, then set:
 *
 * - `AUTH_SPOTIFY_ID`: the client ID
 * - `AUTH_SPOTIFY_SECRET`: the client secret
 *
 * The scope is `user-read-email`; the profile is `GET /v1/me`. Spotify does not verify email
 * addresses: never enable `allowDangerousEmailAccountLinking` here.
 *
 * @example
 * ```ts
 * import Spotify from "@latch/core/providers/spotify"
 *
 * export const config = { providers: [Spotify] }
 *
 * Spotify({ authorization: { params: { scope: "user-read-email user-top-read" } } })
 * ```
 */
export default function Spotify<P extends SpotifyProfile = SpotifyProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  const { authorization, ...rest } = options
  const provider: OAuthConfig<P> = {
    id: "spotify",
    name: "Spotify",
    type: "oauth",
    authorization: withDefaults(
      "https://accounts.spotify.com/authorize",
      { scope: "user-read-email" },
      authorization,
    ),
    token: "https://accounts.spotify.com/api/token",
    userinfo: "https://api.spotify.com/v1/me",
    profile: (profile) => ({
      id: profile.id,
      name: profile.display_name ?? profile.id,
      email: profile.email ?? null,
      image: profile.images?.[0]?.url ?? null,
    }),
    style: { brandColor: "#1db954", text: "#ffffff" },
    ...rest,
  }
  return withFinish(provider, fixedEndpoints())
}
