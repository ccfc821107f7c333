/**
 * Sign in with Azure AD B2C, through OpenID Connect.
 *
 * @module providers/azure-ad-b2c
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of an Azure AD B2C ID token, as the user flow's "Application claims" release them.
 *
 * @see https://learn.microsoft.com/azure/active-directory-b2c/tokens-overview#claims
 */
export interface AzureADB2CProfile {
  /** The subject: the user's object ID unless the user flow says otherwise. */
  sub: string
  /** The user's object ID ("User's Object ID" claim). */
  oid?: string
  iss?: string
  aud?: string
  exp?: number
  nbf?: number
  iat?: number
  auth_time?: number
  ver?: string
  /** The user flow (policy) that issued the token. */
  tfp?: string
  acr?: string
  /** The display name. */
  name?: string
  given_name?: string
  family_name?: string
  /** The email addresses ("Email Addresses" claim); B2C sends an array. */
  emails?: string[]
  /** The identity provider the user signed in with (`idp`), for social accounts. */
  idp?: string
  country?: string
  postalCode?: string
  preferred_username?: string
  [claim: string]: unknown
}

/**
 * Adds Azure AD B2C sign-in.
 *
 * In the B2C tenant, register an application (Web, redirect URI
 * `https://example.com/auth/callback/azure-ad-b2c`) with a client secret, and create a user flow
 * that returns Email Addresses, Display Name and User's Object ID. Under the user flow's
 * Properties → Token compatibility settings, set the issuer (`iss`) claim to the form that names
 * the user flow, then set:
 *
 * - `AUTH_AZURE_AD_B2C_ID`: the application (client) ID
 * - `AUTH_AZURE_AD_B2C_SECRET`: the client secret
 * - `AUTH_AZURE_AD_B2C_ISSUER`: the user flow's issuer,
 *   `https://<tenant>.b2clogin.com/tfp/<tenant ID>/<user flow>/v2.0/` (the `issuer` of the user
 *   flow's metadata document; a custom domain replaces `<tenant>.b2clogin.com`)
 *
 * The endpoints come from the discovery document under that issuer, which names the same issuer;
 * the other issuer form (`…/<tenant ID>/v2.0/`, without the user flow) has no discovery document
 * of its own and cannot be used. The email is the first of `emails`.
 *
 * @example
 * ```ts
 * import AzureADB2C from "@latch/core/providers/azure-ad-b2c"
 *
 * export const config = { providers: [AzureADB2C] }
 * ```
 */
const AzureADB2C = oidcProvider<AzureADB2CProfile>({
  id: "azure-ad-b2c",
  name: "Azure AD B2C",
  profile: (profile) => ({
    id: profile.sub,
    name: profile.name ?? null,
    email: profile.emails?.[0] ?? (typeof profile.email === "string" ? profile.email : null),
    image: null,
  }),
  style: { brandColor: "#0072c6", text: "#ffffff" },
})

export default AzureADB2C
