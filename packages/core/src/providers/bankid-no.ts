/**
 * Sign in with BankID Norge (the OpenID Connect Provider from BankID).
 *
 * @module providers/bankid-no
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The user, as the userinfo endpoint returns it (a signed JWT), with the ID token's claims.
 *
 * @see https://confluence.bankidnorge.no/confluence/pdoidcl/technical-documentation/core-concepts/id-token
 * @see https://confluence.bankidnorge.no/confluence/pdoidcl/technical-documentation/api/userinfo
 */
export interface BankIDNorwayProfile {
  /** The user's id at the OIDC Provider (stable for the person). */
  sub: string
  iss?: string
  aud?: string
  exp?: number
  iat?: number
  auth_time?: number
  /** The level of assurance, e.g. `urn:bankid:bid;LOA=4`. */
  acr?: string
  /** The identity provider option used: `BID` (netcentric), `BIM` (mobile) or `BIS` (app). */
  amr?: "BID" | "BIM" | "BIS" | string
  /** The serial number of the user's BankID certificate (personal identifier from BankID). */
  bankid_altsub?: string
  /** The national identity number, for eligible clients with the `nnin_altsub` scope. */
  nnin_altsub?: string
  /** "Last name, first name", from the certificate. */
  name?: string
  given_name?: string
  family_name?: string
  birthdate?: string
  email?: string
  updated_at?: number
  [claim: string]: unknown
}

/**
 * Adds BankID Norge sign-in.
 *
 * Request an OIDC client from BankID (through a BankID partner) with the redirect URI
 * `https://example.com/auth/callback/bankid-no`, then set:
 *
 * - `AUTH_BANKID_NO_ID`: the client ID
 * - `AUTH_BANKID_NO_SECRET`: the client secret
 *
 * The issuer is BankID's production realm, `https://auth.bankid.no/auth/realms/prod`; for the
 * test environment give the `issuer` option (`https://auth.current.bankid.no/auth/realms/current`).
 * The client authenticates with `client_secret_post`; the sign-in asks for the BankID app
 * (`login_hint=BIS`) in Norwegian (`ui_locales=no`), with PKCE, state and nonce. The profile is
 * the userinfo endpoint's answer, which BankID signs (RS256): a plain JSON answer is refused.
 *
 * @example
 * ```ts
 * import BankIDNorway from "@latch/core/providers/bankid-no"
 *
 * export const config = { providers: [BankIDNorway] }
 * ```
 */
const BankIDNorway = oidcProvider<BankIDNorwayProfile>({
  id: "bankid-no",
  name: "BankID Norge",
  issuer: "https://auth.bankid.no/auth/realms/prod",
  params: { ui_locales: "no", login_hint: "BIS" },
  client: {
    token_endpoint_auth_method: "client_secret_post",
    userinfo_signed_response_alg: "RS256",
  },
  checks: ["pkce", "state", "nonce"],
  idToken: false,
  profile: (profile) => ({
    id: profile.sub,
    name: profile.name ?? null,
    email: profile.email ?? null,
    image: null,
  }),
  style: { brandColor: "#39134c", text: "#ffffff" },
})

export default BankIDNorway
