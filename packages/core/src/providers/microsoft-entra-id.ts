/**
 * Sign in with Microsoft Entra ID (formerly Azure AD): work and school accounts, and personal
 * Microsoft accounts.
 *
 * @module providers/microsoft-entra-id
 */
import type { OAuthConfig, OAuthUserConfig, OIDCConfig, ProviderFetch } from "./index.js"
import { withDefaults } from "../lib/endpoint.js"

/**
 * What the profile holds: the ID token's claims for a single tenant, or the Microsoft Graph user
 * (`GET /v1.0/me`) for the multi-tenant `common` and `organizations` audiences.
 *
 * @see https://learn.microsoft.com/entra/identity-platform/id-token-claims-reference
 * @see https://learn.microsoft.com/graph/api/resources/user
 */
export interface MicrosoftEntraIDProfile {
  /** ID token: the subject, pairwise (different for each application). */
  sub?: string
  /** ID token: the user's object ID in the tenant (needs the `profile` scope). */
  oid?: string
  /** ID token: the tenant ID. */
  tid?: string
  /** ID token: the display name. */
  name?: string
  /** ID token: the sign-in name, usually an email address; mutable. */
  preferred_username?: string
  /** ID token: an email address, when the account has one (scope `email`). */
  email?: string
  /** Graph: the user's object ID. */
  id?: string
  /** Graph: the display name. */
  displayName?: string | null
  givenName?: string | null
  surname?: string | null
  /** Graph: the primary SMTP address, if any. */
  mail?: string | null
  /** Graph: the user principal name, in email form. */
  userPrincipalName?: string | null
  jobTitle?: string | null
  preferredLanguage?: string | null
  /** The profile photo as a `data:` URL, when `profilePhotoSize` is set and the user has one. */
  picture?: string | null
  [claim: string]: unknown
}

/** The sizes of the photo Microsoft Graph serves. */
export type EntraPhotoSize = 48 | 64 | 96 | 120 | 240 | 360 | 432 | 504 | 648

/** Options of `MicrosoftEntraID()`. */
export interface MicrosoftEntraIDOptions<
  P extends MicrosoftEntraIDProfile,
> extends OAuthUserConfig<P> {
  /**
   * Who may sign in: a tenant ID (a GUID, for one organization), `"organizations"` (any work or
   * school account), `"consumers"` (personal Microsoft accounts) or `"common"` (both).
   * @default "common"
   */
  tenantId?: string
  /**
   * Also fetch the user's photo from Microsoft Graph, at this size, into `image` as a `data:` URL
   * (it then travels in the session: keep it small). Adds the `User.Read` scope.
   */
  profilePhotoSize?: EntraPhotoSize
}

const LOGIN = "https://login.microsoftonline.com"
const GRAPH = "https://graph.microsoft.com/v1.0"
/** The tenant every personal Microsoft account belongs to. */
const CONSUMERS_TENANT = "9188040d-6c67-4c5b-b112-36a304b66dad"

/** `bytes` in base64, without `Buffer` (which edge runtimes lack). */
function base64(bytes: Uint8Array): string {
  let binary = ""
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  }
  return btoa(binary)
}

/** The payload of a JWT the flow has already validated. */
function claimsOf(jwt: string): Record<string, unknown> {
  const part = jwt.split(".")[1] ?? ""
  const padded = part.replace(/-/g, "+").replace(/_/g, "/")
  const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0))
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>
}

/** The user's photo as a `data:` URL; `null` when they have none or Graph refuses. */
async function photo(accessToken: string, size: EntraPhotoSize, fetch: ProviderFetch) {
  const response = await fetch(`${GRAPH}/me/photos/${size}x${size}/$value`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  })
  if (!response.ok) return null
  const type = response.headers.get("content-type") ?? "image/jpeg"
  return `data:${type};base64,${base64(new Uint8Array(await response.arrayBuffer()))}`
}

/** `GET /me` of Microsoft Graph. */
async function graphUser(accessToken: string, fetch: ProviderFetch) {
  const response = await fetch(`${GRAPH}/me`, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
  })
  if (!response.ok) throw new Error(`Microsoft Graph answered ${response.status} to GET /me`)
  return (await response.json()) as Record<string, unknown>
}

/**
 * Adds Microsoft Entra ID sign-in.
 *
 * Register an application (Microsoft Entra admin center → App registrations) with a "Web"
 * platform redirect URI `https://example.com/auth/callback/microsoft-entra-id`, create a client
 * secret, then set:
 *
 * - `AUTH_MICROSOFT_ENTRA_ID_ID`: the application (client) ID
 * - `AUTH_MICROSOFT_ENTRA_ID_SECRET`: the client secret's value
 *
 * and choose the audience with `tenantId` (in code: it decides the protocol, so it cannot come
 * from `AUTH_MICROSOFT_ENTRA_ID_ISSUER`):
 *
 * - a tenant ID (the directory's GUID, not a domain name) — OpenID Connect with the issuer
 *   `https://login.microsoftonline.com/<tenant>/v2.0`; the user comes from the ID token. Passing
 *   `issuer` yourself does the same.
 * - `"consumers"` — OpenID Connect against the personal-accounts tenant.
 * - `"common"` (the default) or `"organizations"` — the multi-tenant endpoints. Their discovery
 *   document has a templated issuer (`…/{tenantid}/v2.0`) and each ID token names the user's own
 *   tenant, so no fixed issuer can validate them: these run as OAuth 2.0 with the `User.Read`
 *   scope (no `openid`: do not add it), and the profile is Microsoft Graph's `GET /me`. Restrict
 *   the tenants you accept in the `signIn` callback if you need to.
 *
 * The user's `id` is the object ID (`oid`, or Graph's `id`), the same in both modes for work and
 * school accounts. Microsoft does not verify the email addresses of Entra accounts (any tenant
 * admin can set them): never enable `allowDangerousEmailAccountLinking` here.
 *
 * @example
 * ```ts
 * import MicrosoftEntraID from "@latch/core/providers/microsoft-entra-id"
 *
 * // Any Microsoft account:
 * export const config = { providers: [MicrosoftEntraID] }
 *
 * // One organization, with a 64×64 photo:
 * MicrosoftEntraID({ tenantId: "4a1c…-…", profilePhotoSize: 64 })
 * ```
 */
export default function MicrosoftEntraID<
  P extends MicrosoftEntraIDProfile = MicrosoftEntraIDProfile,
>(options: MicrosoftEntraIDOptions<P> = {}): OAuthConfig<P> | OIDCConfig<P> {
  const { tenantId = "common", profilePhotoSize, authorization, ...rest } = options
  const tenant = encodeURIComponent(tenantId)
  const common = {
    id: "microsoft-entra-id",
    name: "Microsoft Entra ID",
    client: { token_endpoint_auth_method: "client_secret_post" as const },
    profile: (profile: P) => ({
      id: profile.oid ?? profile.sub ?? profile.id,
      name: profile.name ?? profile.displayName ?? null,
      email:
        profile.email ??
        profile.mail ??
        profile.userPrincipalName ??
        profile.preferred_username ??
        null,
      image: profile.picture ?? null,
    }),
    style: { brandColor: "#0078d4", text: "#ffffff" },
  }
  const multiTenant = (tenantId === "common" || tenantId === "organizations") && !rest.issuer

  if (multiTenant) {
    return {
      ...common,
      type: "oauth",
      authorization: withDefaults(
        `${LOGIN}/${tenant}/oauth2/v2.0/authorize`,
        { scope: "User.Read" },
        authorization,
      ),
      token: `${LOGIN}/${tenant}/oauth2/v2.0/token`,
      userinfo: {
        url: `${GRAPH}/me`,
        async request({ tokens, fetch }) {
          const accessToken = String(tokens.access_token)
          const user = await graphUser(accessToken, fetch)
          if (profilePhotoSize) user.picture = await photo(accessToken, profilePhotoSize, fetch)
          return user
        },
      },
      ...rest,
    }
  }

  const consumers = tenantId === "consumers"
  const scope = profilePhotoSize ? "openid profile email User.Read" : "openid profile email"
  return {
    ...common,
    type: "oidc",
    issuer: `${LOGIN}/${consumers ? CONSUMERS_TENANT : tenant}/v2.0`,
    // Personal accounts sign in on the `consumers` endpoints; the keys and issuer are the
    // personal-accounts tenant's.
    authorization: withDefaults(
      consumers ? `${LOGIN}/consumers/oauth2/v2.0/authorize` : undefined,
      { scope },
      authorization,
    ),
    ...(consumers ? { token: `${LOGIN}/consumers/oauth2/v2.0/token` } : {}),
    ...(profilePhotoSize
      ? {
          // The photo needs a Graph call: the profile is then the ID token's claims (already
          // validated by the flow) and the photo.
          idToken: false,
          userinfo: {
            url: `${GRAPH}/me`,
            async request({ tokens, fetch }) {
              const claims = tokens.id_token ? claimsOf(String(tokens.id_token)) : {}
              const picture = await photo(String(tokens.access_token), profilePhotoSize, fetch)
              return { ...claims, picture }
            },
          },
        }
      : {}),
    ...rest,
  }
}
