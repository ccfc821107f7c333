/**
 * Sign in with a form checked by your own code: a password, a one-time code, anything.
 *
 * @module providers/credentials
 */
import type { CredentialInput, CredentialsConfig } from "./index.js"

export type { CredentialInput, CredentialsConfig, CredentialsProviderId } from "./index.js"

/**
 * The brute-force protection of a credentials provider (`rateLimit`). Failed attempts — those
 * `authorize` refused — are counted in fixed windows of `window` seconds, aligned to the clock.
 * Over a limit, `authorize` is not called and the sign-in fails with `code=rate_limited` and a
 * `Retry-After` (seconds until the window ends). The core README's "Credentials: brute-force
 * protection" says why these limits and what they leave possible.
 */
export interface CredentialsRateLimit {
  /**
   * The form field that names the account. It is trimmed, NFKC-normalized and lowercased before
   * it is counted (as an HMAC: no account name is stored).
   * @default the first field of `credentials` whose `type` is not "password", else `email`, else `username`
   */
  identifier?: string
  /** Seconds per window. @default 900 */
  window?: number
  /**
   * Failed attempts per account from one client address. A successful sign-in starts its count
   * again. Never lifted, not even for a known pair. @default 5
   */
  perPair?: number
  /**
   * Failed attempts per account from every address together. A client address from which the
   * account signed in within the last 30 days is exempt, so a flood cannot lock its owner out.
   * @default 20
   */
  perIdentifier?: number
  /**
   * Failed attempts from one client address, whatever the account (password spraying). The
   * same exemption as `perIdentifier`. @default 50
   */
  perClient?: number
}

/**
 * Options of `Credentials()`: every field is optional; without `authorize` the provider refuses
 * everyone.
 */
export type CredentialsOptions<
  Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>,
> = Partial<Omit<CredentialsConfig<Fields>, "type">>

/**
 * A credentials provider. Its form posts to `{basePath}/callback/<id>`; `authorize` returns
 * the user or `null`.
 *
 * @example
 * ```ts
 * import Credentials from "@latch/core/providers/credentials"
 *
 * Credentials({
 *   credentials: { email: { type: "email" }, password: { type: "password" } },
 *   async authorize({ email, password }) {
 *     const user = await findUser(String(email))
 *     return user && (await verifyPassword(user, String(password))) ? user : null
 *   },
 *   // The default: 5 failures per account and address, 20 per account, 50 per address, in 15 minutes.
 *   rateLimit: { identifier: "email", window: 900, perPair: 5, perIdentifier: 20, perClient: 50 },
 * })
 * ```
 */
export default function Credentials<
  Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>,
>(options?: CredentialsOptions<Fields>): CredentialsConfig<Fields> {
  return {
    id: "credentials",
    name: "Credentials",
    credentials: {} as Fields,
    // Listed but refusing everyone until an `authorize` is given (`providers: [Credentials]`).
    authorize: () => null,
    ...options,
    type: "credentials",
  }
}
