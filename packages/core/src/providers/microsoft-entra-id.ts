/**
 * Sign in with Microsoft Entra ID (formerly Azure AD): work and school accounts, and personal
 * Microsoft accounts.
 *
 * @module providers/microsoft-entra-id
 */
import type {
  OAuthConfig,
  OAuthProviderConfig,
  OAuthUserConfig,
  OIDCConfig,
  ProviderFetch,
} from "./index.js"
import { withDefaults } from "../lib/endpoint.js"
import { audienceOf, tenantIssuer, type Audience } from "../lib/microsoft-tenants.js"
import {
  finishProvider,
  sameURL,
  signInRules,
  withFinish,
  withSignInRules,
  type FinishProvider,
  type SignInRules,
} from "../lib/provider-rules.js"

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
   * school account), `"consumers"` (personal Microsoft accounts) or `"common"` (both). A tenant
   * ID or `"consumers"` is enforced on every sign-in (the ID token's `iss` and `tid`).
   * @default the tenant of `issuer` (or AUTH_MICROSOFT_ENTRA_ID_ISSUER), else "common"
   */
  tenantId?: string
  /**
   * Also fetch the user's photo from Microsoft Graph, at this size, into `image` as a `data:` URL
   * (it then travels in the session: keep it small). Adds the `User.Read` scope.
   */
  profilePhotoSize?: EntraPhotoSize
}

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
async function photo(graph: string, token: string, size: EntraPhotoSize, fetch: ProviderFetch) {
  const response = await fetch(`${graph}/v1.0/me/photos/${size}x${size}/$value`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  if (!response.ok) return null
  const type = response.headers.get("content-type") ?? "image/jpeg"
  return `data:${type};base64,${base64(new Uint8Array(await response.arrayBuffer()))}`
}

/** `GET /me` of Microsoft Graph. */
async function graphUser(graph: string, accessToken: string, fetch: ProviderFetch) {
  const response = await fetch(`${graph}/v1.0/me`, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
  })
  if (!response.ok) throw new Error(`Microsoft Graph answered ${response.status} to GET /me`)
  return (await response.json()) as Record<string, unknown>
}

/**
 * The check of every sign-in to one tenant: the ID token's `iss` is the tenant's (oauth4webapi
 * compared it with the discovered issuer already) and its `tid` is the tenant's ID, as
 * Microsoft asks of apps that restrict sign-ins to tenants.
 *
 * @see https://learn.microsoft.com/entra/identity-platform/id-token-claims-reference#payload-claims
 */
function tenantRules(issuer: string, tenant: string): SignInRules {
  return {
    check({ claims }) {
      if (!claims) return "no validated ID token says which tenant the user signed in to"
      if (typeof claims.iss !== "string" || !sameURL(claims.iss, issuer)) {
        return `the ID token was issued by ${JSON.stringify(String(claims.iss))}, not ${issuer}`
      }
      const tid = typeof claims.tid === "string" ? claims.tid.toLowerCase() : undefined
      if (tid !== tenant)
        return `the ID token's tenant (tid) is ${JSON.stringify(String(claims.tid))}, not ${tenant}`
      return undefined
    },
  }
}

type EntraConfig<P extends MicrosoftEntraIDProfile> = OAuthConfig<P> | OIDCConfig<P>

/** The provider for an audience; the options other than these two are spread over it. */
function build<P extends MicrosoftEntraIDProfile>(
  options: MicrosoftEntraIDOptions<P>,
  audience: Audience | undefined,
): EntraConfig<P> {
  const { tenantId: _tenantId, issuer: _issuer, profilePhotoSize, authorization, ...rest } = options
  const common = {
    id: "microsoft-entra-id",
    name: "Microsoft Entra ID",
    client: { token_endpoint_auth_method: "client_secret_post" as const },
    // The subject, as `@auth/core` stores it: accounts linked before a move keep matching.
    profile: (profile: P) => ({
      id: profile.sub ?? profile.oid ?? profile.id,
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

  if (audience?.kind === "any") {
    // The multi-tenant endpoints' discovery document has a templated issuer
    // (`…/{tenantid}/v2.0`) and each ID token names the user's own tenant: no fixed issuer
    // validates them, so these run as OAuth 2.0, with Microsoft Graph's /me as the profile. The
    // ID token is still asked for, for its subject (the user's id): it comes straight from the
    // token endpoint over TLS to this confidential client (OpenID Connect Core §3.1.3.7).
    const { login, graph, tenant } = audience
    return {
      ...common,
      type: "oauth",
      authorization: withDefaults(
        `${login}/${tenant}/oauth2/v2.0/authorize`,
        { scope: "openid User.Read" },
        authorization,
      ),
      token: `${login}/${tenant}/oauth2/v2.0/token`,
      userinfo: {
        url: `${graph}/v1.0/me`,
        async request({ tokens, fetch }) {
          const accessToken = String(tokens.access_token)
          const user: MicrosoftEntraIDProfile = await graphUser(graph, accessToken, fetch)
          const claims = tokens.id_token ? claimsOf(String(tokens.id_token)) : {}
          if (typeof claims.sub === "string") user.sub = claims.sub
          if (typeof claims.oid === "string") user.oid = claims.oid
          if (typeof claims.tid === "string") user.tid = claims.tid
          if (profilePhotoSize) {
            user.picture = await photo(graph, accessToken, profilePhotoSize, fetch)
          }
          return user
        },
      },
      ...rest,
    }
  }

  const scope = profilePhotoSize ? "openid profile email User.Read" : "openid profile email"
  const consumers = audience?.kind === "tenant" && audience.consumers ? audience.login : undefined
  const graph = audience?.kind === "tenant" ? audience.graph : "https://graph.microsoft.com"
  return {
    ...common,
    type: "oidc",
    issuer:
      audience?.kind === "tenant"
        ? tenantIssuer(audience)
        : audience?.kind === "issuer"
          ? audience.issuer
          : undefined,
    // Personal accounts sign in on the `consumers` endpoints; the keys and issuer are the
    // personal-accounts tenant's.
    authorization: withDefaults(
      consumers ? `${consumers}/consumers/oauth2/v2.0/authorize` : undefined,
      { scope },
      authorization,
    ),
    ...(consumers ? { token: `${consumers}/consumers/oauth2/v2.0/token` } : {}),
    ...(profilePhotoSize
      ? {
          // The photo needs a Graph call: the profile is then the ID token's claims (already
          // validated by the flow) and the photo.
          idToken: false,
          userinfo: {
            url: `${graph}/v1.0/me`,
            async request({ tokens, fetch }) {
              const claims = tokens.id_token ? claimsOf(String(tokens.id_token)) : {}
              const token = String(tokens.access_token)
              return { ...claims, picture: await photo(graph, token, profilePhotoSize, fetch) }
            },
          },
        }
      : {}),
    ...rest,
  }
}

/** The keys the provider settles itself, never carried over from the object it is given. */
const settled = new Set<PropertyKey>(["issuer", finishProvider, signInRules])

/**
 * The finishing step: the audience is decided once the issuer is known, from the options, from
 * the object (`setEnvDefaults`) or from AUTH_MICROSOFT_ENTRA_ID_ISSUER, and enforced; whatever
 * was changed on the object since the factory built it is kept.
 */
function finish<P extends MicrosoftEntraIDProfile>(
  options: MicrosoftEntraIDOptions<P>,
  built: EntraConfig<P>,
): FinishProvider {
  return (provider, context) => {
    const { envIssuer, envIssuerName } = context
    // The object's issuer is the options' (or one set on it since); when the options could not
    // be honoured the factory left it unset, and the options say it again.
    const issuer = provider.issuer ?? options.issuer
    if (envIssuer !== undefined && issuer !== undefined && !sameURL(envIssuer, issuer)) {
      context.fail(
        `uses the issuer ${issuer}, but ${envIssuerName} is ${envIssuer}: remove the variable or make the two agree`,
      )
    }
    const audience = audienceOf(options.tenantId, issuer ?? envIssuer)
    if (typeof audience === "string") return context.fail(audience)
    const rebuilt: Record<PropertyKey, unknown> = { ...build(options, audience) }
    const given = provider as unknown as Record<PropertyKey, unknown>
    const original = built as unknown as Record<PropertyKey, unknown>
    for (const key of Reflect.ownKeys(given)) {
      if (!settled.has(key) && given[key] !== original[key]) rebuilt[key] = given[key]
    }
    const result = rebuilt as unknown as OAuthProviderConfig
    return audience.kind === "tenant"
      ? withSignInRules(result, tenantRules(tenantIssuer(audience), audience.tenant))
      : result
  }
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
 * - `AUTH_MICROSOFT_ENTRA_ID_ISSUER` (optional): who may sign in, as an issuer:
 *   `https://login.microsoftonline.com/<tenant ID>/v2.0` for one organization, or `…/common/v2.0`,
 *   `…/organizations/v2.0`, `…/consumers/v2.0`
 *
 * The audience comes from that issuer, from the `issuer` option, or from `tenantId`; when more
 * than one is given they must agree, or the configuration is refused:
 *
 * - a tenant ID (the directory's GUID; a domain name is refused, since ID tokens never name it) —
 *   OpenID Connect with the issuer `https://login.microsoftonline.com/<tenant>/v2.0`. Every
 *   sign-in is checked: the ID token's `iss` must be that issuer and its `tid` that tenant, so
 *   users of other tenants are refused (`AccessDenied`) even if they reach the callback.
 * - `"consumers"` — the same, against the personal-accounts tenant.
 * - `"common"` (the default) or `"organizations"` — anyone with a Microsoft account (or with a
 *   work or school account). Their discovery document has a templated issuer (`…/{tenantid}/v2.0`)
 *   and each ID token names the user's own tenant, so these run as OAuth 2.0 with the scope
 *   `openid User.Read`: the profile is Microsoft Graph's `GET /me` with the ID token's `sub`,
 *   `oid` and `tid` (the ID token is read for them, not used to restrict who signs in). To
 *   accept some organizations only, add one provider per tenant (each with its own `id`) rather
 *   than filtering in a callback.
 *
 * The national clouds (`login.microsoftonline.us`, `login.partner.microsoftonline.cn`) are
 * recognised in issuers, with their Microsoft Graph. An issuer on another host (Azure AD B2C, a
 * custom domain) is used as it is, its `iss` checked; `tenantId` cannot be combined with it.
 *
 * The user's `id` (the account's `providerAccountId`) is the ID token's subject `sub`, as
 * `@auth/core` stores it, so accounts linked under Auth.js keep matching; `sub` is pairwise (it
 * differs between applications). The object ID stays in the profile as `oid` (Graph's `id`) for
 * a `profile` function of your own; without an ID token the id falls back to it. Microsoft does not verify the email addresses of Entra accounts (any tenant
 * admin can set them): never enable `allowDangerousEmailAccountLinking` here.
 *
 * @example
 * ```ts
 * import MicrosoftEntraID from "@latch/core/providers/microsoft-entra-id"
 *
 * // The audience from AUTH_MICROSOFT_ENTRA_ID_ISSUER, else any Microsoft account:
 * export const config = { providers: [MicrosoftEntraID] }
 *
 * // One organization, with a 64×64 photo:
 * MicrosoftEntraID({ tenantId: "4a1c…-…", profilePhotoSize: 64 })
 * ```
 */
export default function MicrosoftEntraID<
  P extends MicrosoftEntraIDProfile = MicrosoftEntraIDProfile,
>(options: MicrosoftEntraIDOptions<P> = {}): OAuthConfig<P> | OIDCConfig<P> {
  // Decided here from the options alone; the finishing step decides again once the
  // environment is known (the factory is usually called without options).
  const audience = audienceOf(options.tenantId, options.issuer)
  const built = build(options, typeof audience === "string" ? undefined : audience)
  // The finishing step compares with a copy: a change made to the returned object (a wrapped
  // `profile`…) must show as a change.
  return withFinish(built, finish(options, { ...built }))
}
