/**
 * Sign in through an Osso server, which brokers SAML single sign-on.
 *
 * @module providers/osso
 */
import { finishing, hostedAt, oauthProvider, profileFrom } from "../lib/provider-shapes.js"

/**
 * The user, as Osso's `GET /oauth/me` returns it.
 *
 * @see https://ossoapp.com/docs/reference/oauth
 */
export interface OssoProfile {
  /** The user's id in Osso. */
  id: string
  email: string
  /** The identity provider the user signed in with (`Okta`, `Azure`…). */
  idp: string
  /** What the authorization request asked for (`domain`, `email`). */
  requested?: { domain?: string | null; email?: string | null }
  [field: string]: unknown
}

/**
 * Adds sign-in through Osso.
 *
 * In the Osso admin, create an OAuth client with the redirect URI
 * `https://example.com/auth/callback/osso`, then set:
 *
 * - `AUTH_OSSO_ID`: the client ID
 * - `AUTH_OSSO_SECRET`: the client secret
 * - `AUTH_OSSO_ISSUER`: the Osso server's URL, e.g. `https://sso.example.com` (or the `issuer`
 *   option)
 *
 * The endpoints are the server's `/oauth/authorize` and `/oauth/token` (the client in the token
 * request's body). Pass `domain` (or `email`) in the sign-in's authorization parameters to go
 * straight to that customer's identity provider. The profile is `GET /oauth/me`, the token in
 * the `access_token` parameter; Osso gives no name.
 *
 * @example
 * ```ts
 * import Osso from "@latch/core/providers/osso"
 *
 * export const config = { providers: [Osso] }
 * ```
 */
const Osso = oauthProvider<OssoProfile>({
  id: "osso",
  name: "Osso",
  client: { token_endpoint_auth_method: "client_secret_post" },
  finish: finishing(
    hostedAt("the Osso server's URL", (base) => ({
      authorization: `${base}/oauth/authorize`,
      token: `${base}/oauth/token`,
    })),
    (provider) => ({
      ...provider,
      userinfo:
        provider.options?.userinfo ??
        profileFrom({
          url: `${String(provider.issuer).replace(/\/+$/, "")}/oauth/me`,
          auth: { query: "access_token" },
        }),
    }),
  ),
  profile: (profile) => ({
    id: String(profile.id),
    name: null,
    email: profile.email ?? null,
    image: null,
  }),
  style: { brandColor: "#5c43e8", text: "#ffffff" },
})

export default Osso
