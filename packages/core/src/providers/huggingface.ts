/**
 * Sign in with Hugging Face, through OpenID Connect.
 *
 * @module providers/huggingface
 */
import { oidcProvider } from "../lib/provider-shapes.js"

/**
 * The claims of a Hugging Face ID token (and of `https://huggingface.co/oauth/userinfo`).
 *
 * @see https://huggingface.co/docs/hub/oauth
 */
export interface HuggingfaceProfile {
  /** The user's id; it stays the same when the user is renamed. */
  sub: string
  /** The full name (scope `profile`). */
  name?: string
  /** The username (scope `profile`). */
  preferred_username?: string
  /** The user's page on the Hub (scope `profile`). */
  profile?: string
  /** The avatar's URL (scope `profile`). */
  picture?: string
  website?: string
  /** Scope `email`. */
  email?: string
  email_verified?: boolean
  /** Whether the user has a PRO subscription. */
  isPro?: boolean
  /** Whether the user has a payment method (scope `read-billing`). */
  canPay?: boolean
  /** The organizations the user let the app see. */
  orgs?: Array<{
    sub: string
    name: string
    preferred_username: string
    picture: string
    isEnterprise: boolean
    canPay?: boolean
    roleInOrg?: string
    [field: string]: unknown
  }>
  [claim: string]: unknown
}

/**
 * Adds Hugging Face sign-in.
 *
 * Create an OAuth app in the Hub's settings (Connected Apps → Developer applications) with the
 * scopes `openid profile email` and the redirect URL
 * `https://example.com/auth/callback/huggingface`, then set:
 *
 * - `AUTH_HUGGINGFACE_ID`: the client ID
 * - `AUTH_HUGGINGFACE_SECRET`: the client secret
 *
 * The issuer is `https://huggingface.co`. The sign-in asks for `openid profile email` (each must
 * be enabled on the app, or the Hub refuses the request) with PKCE and state; add scopes such
 * as `read-repos` or `inference-api` in `authorization.params.scope`.
 *
 * @example
 * ```ts
 * import Huggingface from "@latch/core/providers/huggingface"
 *
 * export const config = { providers: [Huggingface] }
 * ```
 */
const Huggingface = oidcProvider<HuggingfaceProfile>({
  id: "huggingface",
  name: "Hugging Face",
  issuer: "https://huggingface.co",
  checks: ["state", "pkce"],
  style: { brandColor: "#ffd21e", text: "#000000" },
})

export default Huggingface
