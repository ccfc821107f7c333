/**
 * Sign in with Vipps MobilePay (Vipps Login), through OpenID Connect.
 *
 * @module providers/vipps
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/** A postal address, as Vipps's userinfo endpoint gives it. */
interface VippsAddress {
  address_type?: string
  country?: string
  formatted?: string
  postal_code?: string
  region?: string
  street_address?: string
}

/**
 * The user, as Vipps's userinfo endpoint returns it for the consented scopes.
 *
 * @see https://developer.vippsmobilepay.com/docs/APIs/login-api/api-guide/user-info
 */
export interface VippsProfile {
  /** The user's ID for your merchant (a UUID). */
  sub: string
  sid?: string
  /** With the `name` scope. */
  name?: string
  given_name?: string
  family_name?: string
  /** With the `email` scope. */
  email?: string
  email_verified?: boolean
  /** With the `phoneNumber` scope. */
  phone_number?: string
  /** With the `birthDate` scope. */
  birthdate?: string
  /** With the `address` scope. */
  address?: VippsAddress
  other_addresses?: VippsAddress[]
  /** With the `nin` scope (national identity number). */
  nin?: string
  /** With the `accounts` scope. */
  accounts?: { account_name?: string; account_number?: number | string; bank_name?: string }[]
  delegatedConsents?: Record<string, unknown>
  [claim: string]: unknown
}

/**
 * Adds Vipps sign-in.
 *
 * In the Vipps MobilePay business portal, activate Login for a sales unit and register the
 * redirect URI `https://example.com/auth/callback/vipps`, then set:
 *
 * - `AUTH_VIPPS_ID`: the client ID
 * - `AUTH_VIPPS_SECRET`: the client secret
 *
 * The scopes are `openid name email`; the profile is read from the userinfo endpoint. For the
 * test environment pass `issuer: "https://apitest.vipps.no/access-management-1.0/access/"`.
 *
 * @example
 * ```ts
 * import Vipps from "@latch/core/providers/vipps"
 *
 * export const config = { providers: [Vipps] }
 * ```
 */
const Vipps = oidcProvider<VippsProfile>({
  id: "vipps",
  name: "Vipps",
  issuer: "https://api.vipps.no/access-management-1.0/access/",
  params: { scope: "openid name email" },
  idToken: false,
  checks: ["pkce", "state", "nonce"],
  style: { brandColor: "#ff5b24", text: "#ffffff" },
})

export default Vipps
