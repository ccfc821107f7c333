/**
 * Sign in with authentik, through OpenID Connect.
 *
 * @module providers/authentik
 */
import type { OAuthUserConfig, OIDCConfig } from "./index.js"
import { userFromClaims } from "../lib/claims.js"
import { withDefaults } from "../lib/endpoint.js"
import { issuerFromEnv, withFinish, type FinishProvider } from "../lib/provider-rules.js"

/**
 * The claims of an authentik ID token with the default scope mappings (`openid`, `profile`,
 * `email`).
 *
 * @see https://docs.goauthentik.io/docs/add-secure-apps/providers/oauth2/
 */
export interface AuthentikProfile {
  /** The user's identifier, by default a hash of the user's ID. */
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  nickname?: string
  picture?: string
  email?: string
  email_verified?: boolean
  groups?: string[]
  [claim: string]: unknown
}

function withSlash(issuer: string): string {
  return issuer.endsWith("/") ? issuer : `${issuer}/`
}

/** The issuer from the options or AUTH_AUTHENTIK_ISSUER, with its slash either way. */
const finish: FinishProvider = (provider, context) =>
  issuerFromEnv(
    { ...provider, issuer: provider.issuer && withSlash(provider.issuer) },
    { ...context, envIssuer: context.envIssuer && withSlash(context.envIssuer) },
  )

/**
 * Adds authentik sign-in.
 *
 * Create an OAuth2/OpenID provider (client type "Confidential", redirect URI
 * `https://example.com/auth/callback/authentik`) and an application using it, then set:
 *
 * - `AUTH_AUTHENTIK_ID`: the client ID
 * - `AUTH_AUTHENTIK_SECRET`: the client secret
 * - `AUTH_AUTHENTIK_ISSUER`: the provider's issuer, with its trailing slash, e.g.
 *   `https://authentik.example.com/application/o/my-app/`
 *
 * The issuer must match the one authentik announces exactly: with the trailing slash, which is
 * added when it lacks one, in code or in the variable.
 *
 * @example
 * ```ts
 * import Authentik from "@latch/core/providers/authentik"
 *
 * export const config = { providers: [Authentik] }
 * ```
 */
export default function Authentik<P extends AuthentikProfile = AuthentikProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const { authorization, ...rest } = options
  if (rest.issuer) rest.issuer = withSlash(rest.issuer)
  const provider: OIDCConfig<P> = {
    id: "authentik",
    name: "Authentik",
    type: "oidc",
    authorization: withDefaults(undefined, { scope: "openid profile email" }, authorization),
    profile: userFromClaims,
    style: { brandColor: "#fd4b2d", text: "#ffffff" },
    ...rest,
  }
  return withFinish(provider, finish)
}
