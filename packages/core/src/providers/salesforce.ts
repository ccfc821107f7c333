/**
 * Sign in with Salesforce, through OpenID Connect.
 *
 * @module providers/salesforce
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The user, as Salesforce's userinfo endpoint returns it.
 *
 * @see https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_userinfo_endpoint.htm
 */
export interface SalesforceProfile {
  /** The user's identity URL, `https://login.salesforce.com/id/<org ID>/<user ID>`. */
  sub: string
  user_id?: string
  organization_id?: string
  /** The Salesforce username (an email-like login). */
  preferred_username?: string
  /** The community nickname. */
  nickname?: string
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  zoneinfo?: string
  locale?: string
  /** The URL of the user's full-size photo (it needs the access token to be read). */
  picture?: string
  photos?: { picture?: string; thumbnail?: string }
  profile?: string
  user_type?: string
  language?: string
  active?: boolean
  updated_at?: string
  [claim: string]: unknown
}

/**
 * Adds Salesforce sign-in.
 *
 * In Setup, create an External Client App (or Connected App) with OAuth enabled, the callback
 * URL `https://example.com/auth/callback/salesforce` and the scopes `openid`, `profile` and
 * `email`, then set:
 *
 * - `AUTH_SALESFORCE_ID`: the consumer key
 * - `AUTH_SALESFORCE_SECRET`: the consumer secret
 *
 * The profile is read from the userinfo endpoint. A sandbox or a My Domain login is another
 * issuer: pass `issuer: "https://test.salesforce.com"` (or your My Domain URL).
 *
 * @example
 * ```ts
 * import Salesforce from "@latch/core/providers/salesforce"
 *
 * export const config = { providers: [Salesforce] }
 * ```
 */
const Salesforce = oidcProvider<SalesforceProfile>({
  id: "salesforce",
  name: "Salesforce",
  issuer: "https://login.salesforce.com",
  idToken: false,
  checks: ["pkce", "state", "nonce"],
  style: { brandColor: "#00a1e0", text: "#ffffff" },
})

export default Salesforce
