/**
 * Sign in with ZITADEL, through OpenID Connect.
 *
 * @module providers/zitadel
 */
import type { OAuthUserConfig, OIDCConfig } from "./index.js"
import { userFromClaims } from "../lib/claims.js"
import { withDefaults } from "../lib/endpoint.js"
import {
  configuredParam,
  issuerFromEnv,
  withFinish,
  withSignInRules,
  type FinishProvider,
  type SignInFacts,
} from "../lib/provider-rules.js"

/**
 * The claims of ZITADEL's userinfo endpoint with the `openid profile email` scopes.
 *
 * @see https://zitadel.com/docs/apis/openidoauth/claims
 */
export interface ZitadelProfile {
  /** The user's ID. */
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  nickname?: string
  preferred_username?: string
  picture?: string
  gender?: string
  locale?: string
  updated_at?: number
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  [claim: string]: unknown
}

/** The scopes that restrict the sign-in to one organization, by ID or by primary domain. */
const ORG_ID = "urn:zitadel:iam:org:id:"
const ORG_DOMAIN = "urn:zitadel:iam:org:domain:primary:"
const OWNER = "urn:zitadel:iam:user:resourceowner"

/**
 * The organization scopes stay in every sign-in's scope, and the user's organization (the
 * resource owner claims ZITADEL asserts with them) must be one of theirs.
 *
 * @see https://zitadel.com/docs/apis/openidoauth/scopes
 */
const finish: FinishProvider = (provider, context) => {
  const finished = issuerFromEnv(provider, context)
  const scopes = (configuredParam(finished, "scope") ?? "").split(" ")
  const ids = scopes.filter((s) => s.startsWith(ORG_ID)).map((s) => s.slice(ORG_ID.length))
  const domains = scopes
    .filter((s) => s.startsWith(ORG_DOMAIN))
    .map((s) => s.slice(ORG_DOMAIN.length))
  if (!ids.length && !domains.length) return finished
  const check = ({ claims, profile }: SignInFacts) => {
    const claim = (name: string) => claims?.[`${OWNER}:${name}`] ?? profile[`${OWNER}:${name}`]
    const [id, domain] = [claim("id"), claim("primary_domain")]
    if (ids.length && !ids.includes(String(id))) {
      return `the user belongs to organization ${JSON.stringify(String(id))}, not ${ids.join(" or ")}`
    }
    if (domains.length && !domains.includes(String(domain))) {
      return `the user's organization is ${JSON.stringify(String(domain))}, not ${domains.join(" or ")}`
    }
    return undefined
  }
  return withSignInRules(finished, {
    lockedScope: (value) => value.startsWith(ORG_ID) || value.startsWith(ORG_DOMAIN),
    check,
  })
}

/**
 * Adds ZITADEL sign-in.
 *
 * In a project, create a "Web" application with the authentication method "Code" (client
 * secret) and the redirect URI `https://example.com/auth/callback/zitadel`, then set:
 *
 * - `AUTH_ZITADEL_ID`: the client ID
 * - `AUTH_ZITADEL_SECRET`: the client secret
 * - `AUTH_ZITADEL_ISSUER`: your instance's URL, e.g. `https://my-instance.zitadel.cloud`
 *
 * ZITADEL puts the profile claims in the ID token only when the application's "User Info inside
 * ID Token" option is on, so the profile is read from the userinfo endpoint (`idToken: false`);
 * the ID token is still validated.
 *
 * The scopes `urn:zitadel:iam:org:id:{id}` and `urn:zitadel:iam:org:domain:primary:{domain}`
 * limit who may sign in to the members of one organization: a sign-in request cannot drop them
 * from the scope, and Latch refuses (`AccessDenied`) a user whose
 * `urn:zitadel:iam:user:resourceowner:id` (or `…:primary_domain`) is another organization's.
 *
 * @example
 * ```ts
 * import Zitadel from "@latch/core/providers/zitadel"
 *
 * export const config = { providers: [Zitadel] }
 *
 * // Only the members of one organization:
 * Zitadel({
 *   authorization: { params: { scope: "openid profile email urn:zitadel:iam:org:id:1234567" } },
 * })
 * ```
 */
export default function Zitadel<P extends ZitadelProfile = ZitadelProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const { authorization, ...rest } = options
  const provider: OIDCConfig<P> = {
    id: "zitadel",
    name: "ZITADEL",
    type: "oidc",
    idToken: false,
    authorization: withDefaults(undefined, { scope: "openid profile email" }, authorization),
    profile: userFromClaims,
    style: { brandColor: "#ff6f61", text: "#ffffff" },
    ...rest,
  }
  return withFinish(provider, finish)
}
