/**
 * Sign in with Frontegg, through OpenID Connect.
 *
 * @module providers/frontegg
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of a Frontegg ID token.
 *
 * @see https://docs.frontegg.com/docs/admin-portal-profile
 */
export interface FronteggProfile {
  /** The user's id in the environment. */
  sub: string
  name?: string
  email?: string
  email_verified?: boolean
  /** The avatar's URL, under Frontegg's own name. */
  profilePictureUrl?: string
  picture?: string
  /** The user's roles in the signed-in tenant. */
  roles?: string[]
  tenantId?: string
  [claim: string]: unknown
}

/**
 * Adds Frontegg sign-in.
 *
 * In the Frontegg portal, add the redirect URL `https://example.com/auth/callback/frontegg` to the
 * environment's hosted login (Authentication → Login method → Hosted login), then set:
 *
 * - `AUTH_FRONTEGG_ID`: the environment's client ID (Environments → Env settings)
 * - `AUTH_FRONTEGG_SECRET`: the environment's API key
 * - `AUTH_FRONTEGG_ISSUER`: the environment's login domain, `https://<subdomain>.frontegg.com`
 *   (Env settings → Domains), or your custom domain
 *
 * The endpoints (`/oauth/authorize`, `/oauth/token`) and the ID token's keys come from the
 * domain's discovery document. The image is `picture`, else Frontegg's `profilePictureUrl`.
 *
 * @example
 * ```ts
 * import Frontegg from "@latch/core/providers/frontegg"
 *
 * export const config = { providers: [Frontegg] }
 * ```
 */
const Frontegg = oidcProvider<FronteggProfile>({
  id: "frontegg",
  name: "Frontegg",
  profile: (profile) => ({
    id: profile.sub,
    name: profile.name ?? null,
    email: profile.email ?? null,
    image: profile.picture ?? profile.profilePictureUrl ?? null,
  }),
  style: { brandColor: "#000000", text: "#ffffff" },
})

export default Frontegg
