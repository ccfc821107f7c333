/**
 * Sign in with an account on a Nextcloud server.
 *
 * @module providers/nextcloud
 */
import { finishing, hostedAt, oauthProvider, profileFrom } from "../lib/provider-shapes.js"

/**
 * The user, as the OCS Provisioning API's `GET /ocs/v1.php/cloud/users/{userid}` returns it
 * (the `ocs.data` of its answer).
 *
 * @see https://docs.nextcloud.com/server/latest/admin_manual/configuration_user/instruction_set_for_users.html
 */
export interface NextcloudProfile {
  /** The user's id (the login name). */
  id: string
  email: string | null
  displayname: string
  phone: string
  address: string
  website: string
  twitter: string
  fediverse: string
  organisation: string
  role: string
  headline: string
  biography: string
  groups: string[]
  language: string
  locale: string
  enabled: boolean
  storageLocation: string
  [field: string]: unknown
}

/** The OCS envelope `{ ocs: { meta, data } }` → its `data`. */
function ocsData(body: Record<string, unknown>): Record<string, unknown> {
  const ocs = body.ocs as { data?: unknown } | undefined
  const data = ocs?.data
  return data && typeof data === "object" && !Array.isArray(data)
    ? (data as Record<string, unknown>)
    : body
}

/**
 * Adds sign-in with a Nextcloud server.
 *
 * As an administrator, under Administration settings → Security → OAuth 2.0 clients, add a
 * client with the redirection URI `https://example.com/auth/callback/nextcloud`, then set:
 *
 * - `AUTH_NEXTCLOUD_ID`: the client identifier
 * - `AUTH_NEXTCLOUD_SECRET`: the secret
 * - `AUTH_NEXTCLOUD_ISSUER`: the server's URL, e.g. `https://cloud.example.com` (with its path,
 *   if Nextcloud is under one), or the `issuer` option
 *
 * The endpoints are the server's `/apps/oauth2/authorize` and `/apps/oauth2/api/v1/token` (the
 * client in the token request's body), whose answer names the user in `user_id`. The profile is
 * that user in the OCS Provisioning API, which requires the `OCS-APIRequest: true` header.
 * The profile has no picture URL (avatars are served at `/avatar/<id>/<size>` on the server).
 *
 * @example
 * ```ts
 * import Nextcloud from "@latch/core/providers/nextcloud"
 *
 * export const config = { providers: [Nextcloud] }
 * ```
 */
const Nextcloud = oauthProvider<NextcloudProfile>({
  id: "nextcloud",
  name: "Nextcloud",
  client: { token_endpoint_auth_method: "client_secret_post" },
  conformGet: ocsData,
  finish: finishing(
    hostedAt("the Nextcloud server's URL", (base) => ({
      authorization: `${base}/apps/oauth2/authorize`,
      token: `${base}/apps/oauth2/api/v1/token`,
    })),
    (provider) => {
      const base = String(provider.issuer).replace(/\/+$/, "")
      return {
        ...provider,
        userinfo:
          provider.options?.userinfo ??
          profileFrom({
            url: (tokens) =>
              `${base}/ocs/v1.php/cloud/users/${encodeURIComponent(String(tokens.user_id))}`,
            query: { format: "json" },
            headers: { "OCS-APIRequest": "true" },
          }),
      }
    },
  ),
  profile: (profile) => ({
    id: String(profile.id),
    name: profile.displayname || null,
    email: profile.email ?? null,
    image: null,
  }),
  style: { brandColor: "#0082c9", text: "#ffffff" },
})

export default Nextcloud
