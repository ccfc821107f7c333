/**
 * Sign in with Facebook (Facebook Login).
 *
 * @module providers/facebook
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"
import { fixedEndpoints, withFinish } from "../lib/provider-rules.js"

/**
 * The fields Latch asks the Graph API's `/me` for: `id,name,email,picture`.
 *
 * @see https://developers.facebook.com/docs/graph-api/reference/user
 */
export interface FacebookProfile {
  /** The app-scoped user ID. */
  id: string
  name?: string
  /** Absent when the user has no email address or declined the `email` permission. */
  email?: string
  picture?: {
    data?: { url?: string; width?: number; height?: number; is_silhouette?: boolean }
  }
  [field: string]: unknown
}

/**
 * Adds Facebook sign-in.
 *
 * Create an app with the Facebook Login product in Meta for Developers; add
 * `https://example.com/auth/callback/facebook` to the valid OAuth redirect URIs, then set:
 *
 * - `AUTH_FACEBOOK_ID`: the app ID
 * - `AUTH_FACEBOOK_SECRET`: the app secret
 *
 * The scope is `email public_profile`; the profile is `/me?fields=id,name,email,picture`. The
 * endpoints are unversioned, so the app's default Graph API version applies: give versioned URLs
 * (`https://www.facebook.com/v23.0/dialog/oauth`…) to pin one.
 *
 * @example
 * ```ts
 * import Facebook from "@latch/core/providers/facebook"
 *
 * export const config = { providers: [Facebook] }
 * ```
 */
export default function Facebook<P extends FacebookProfile = FacebookProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  const { authorization, ...rest } = options
  const provider: OAuthConfig<P> = {
    id: "facebook",
    name: "Facebook",
    type: "oauth",
    authorization: withDefaults(
      "https://www.facebook.com/dialog/oauth",
      { scope: "email public_profile" },
      authorization,
    ),
    token: "https://graph.facebook.com/oauth/access_token",
    userinfo: "https://graph.facebook.com/me?fields=id,name,email,picture.type(large)",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile: (profile) => ({
      id: profile.id,
      name: profile.name ?? null,
      email: profile.email ?? null,
      image: profile.picture?.data?.url ?? null,
    }),
    style: { brandColor: "#1877f2", text: "#ffffff" },
    ...rest,
  }
  return withFinish(provider, fixedEndpoints())
}
