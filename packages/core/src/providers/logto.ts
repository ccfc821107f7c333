/**
 * Sign in with Logto, through OpenID Connect.
 *
 * @module providers/logto
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of a Logto ID token (and of its userinfo endpoint).
 *
 * @see https://docs.logto.io/references/openid-connect/id-token-claims
 */
export interface LogtoProfile {
  /** The user's ID in the tenant. */
  sub: string
  name?: string | null
  /** The user's Logto username. */
  username?: string | null
  picture?: string | null
  email?: string | null
  email_verified?: boolean
  phone_number?: string | null
  phone_number_verified?: boolean
  address?: Record<string, unknown>
  custom_data?: Record<string, unknown>
  identities?: Record<string, unknown>
  sso_identities?: Record<string, unknown>[]
  organizations?: string[]
  organization_data?: Record<string, unknown>[]
  organization_roles?: string[]
  roles?: string[]
  [claim: string]: unknown
}

/**
 * Adds Logto sign-in.
 *
 * In the Logto Console, create a "Traditional web" application with the redirect URI
 * `https://example.com/auth/callback/logto`, then set:
 *
 * - `AUTH_LOGTO_ID`: the app ID
 * - `AUTH_LOGTO_SECRET`: the app secret
 * - `AUTH_LOGTO_ISSUER`: the tenant's issuer, `https://<tenant-id>.logto.app/oidc` (or
 *   `https://<your-domain>/oidc` for a custom domain or a self-hosted Logto)
 *
 * The scopes are `offline_access openid email profile`; the name falls back to the Logto
 * `username` when the user has no `name`.
 *
 * @example
 * ```ts
 * import Logto from "@latch/core/providers/logto"
 *
 * export const config = { providers: [Logto] }
 * ```
 */
const Logto = oidcProvider<LogtoProfile>({
  id: "logto",
  name: "Logto",
  params: { scope: "offline_access openid email profile" },
  profile: (profile) => ({
    id: profile.sub,
    name: profile.name ?? profile.username ?? null,
    email: profile.email ?? null,
    image: profile.picture ?? null,
  }),
  style: { brandColor: "#5d34f2", text: "#ffffff" },
})

export default Logto
