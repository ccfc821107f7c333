/**
 * Sign in through BoxyHQ SAML Jackson, which runs SAML single sign-on as an OAuth 2.0 flow.
 *
 * @module providers/boxyhq-saml
 */
import { hostedAt, oauthProvider } from "../lib/provider-shapes.js"

/**
 * The user, as Jackson's `GET /api/oauth/userinfo` returns it from the SAML assertion.
 *
 * @see https://boxyhq.com/docs/jackson/sso-flow
 */
export interface BoxyHQSAMLProfile {
  /** The user's id, from the assertion's subject. */
  id: string
  email: string
  firstName?: string
  lastName?: string
  roles?: string[]
  groups?: string[]
  /** The parameters of the authorization request (tenant, product…). */
  requested?: Record<string, unknown>
  /** Every attribute of the assertion. */
  raw?: Record<string, unknown>
  [field: string]: unknown
}

/**
 * Adds sign-in through a BoxyHQ SAML Jackson deployment (self-hosted, or embedded in an app).
 *
 * Connect each SAML identity provider to Jackson with the redirect URL
 * `https://example.com/auth/callback/boxyhq-saml`, then set:
 *
 * - `AUTH_BOXYHQ_SAML_ID`: the client id; with Jackson's single "dummy" client, the connection's
 *   `tenant=<tenant>&product=<product>`
 * - `AUTH_BOXYHQ_SAML_SECRET`: the client secret (`dummy` for that client)
 * - `AUTH_BOXYHQ_SAML_ISSUER`: the deployment's URL, e.g. `https://jackson.example.com` (or the
 *   `issuer` option)
 *
 * The endpoints are `/api/oauth/authorize` (with `provider=saml`), `/api/oauth/token` (the id and
 * secret in the body) and `/api/oauth/userinfo` under that URL; the provider is refused at
 * start-up without it. The name is the first and last names joined.
 *
 * @example
 * ```ts
 * import BoxyHQSAML from "@latch/core/providers/boxyhq-saml"
 *
 * export const config = { providers: [BoxyHQSAML({ issuer: "https://jackson.example.com" })] }
 * ```
 */
const BoxyHQSAML = oauthProvider<BoxyHQSAMLProfile>({
  id: "boxyhq-saml",
  name: "BoxyHQ SAML",
  client: { token_endpoint_auth_method: "client_secret_post" },
  finish: hostedAt(
    "the URL of the SAML Jackson deployment",
    (base) => ({
      authorization: `${base}/api/oauth/authorize`,
      token: `${base}/api/oauth/token`,
      userinfo: `${base}/api/oauth/userinfo`,
    }),
    { provider: "saml" },
  ),
  profile: (profile) => ({
    id: profile.id,
    name: [profile.firstName, profile.lastName].filter(Boolean).join(" ") || null,
    email: profile.email ?? null,
    image: null,
  }),
  style: { brandColor: "#25c2a0", text: "#ffffff" },
})

export default BoxyHQSAML
