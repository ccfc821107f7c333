/** The configuration of a credentials provider (a form checked by the app's own code). */
import type { Awaitable } from "./common.js"
import type { CommonProviderOptions, CredentialInput } from "./provider-common.js"
import type { User } from "./resources.js"

/**
 * A credentials provider: the user proves who they are with a form (a password, a one-time
 * code…), and `authorize` decides.
 */
export interface CredentialsConfig<
  Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>,
> extends CommonProviderOptions {
  type: "credentials"
  /** The form fields, shown on the built-in sign-in page and read from the POST body. */
  credentials: Fields
  /**
   * Returns the user, or `null` to refuse. Throw `CredentialsSignin` (or a subclass with a
   * `code`) to refuse with a code the sign-in page shows. Any other error is the server's fault
   * and sends the user to the error page.
   */
  authorize: (
    credentials: Partial<Record<keyof Fields, unknown>>,
    request: Request,
  ) => Awaitable<User | null>
  /**
   * Brute-force protection (Latch; not in Auth.js): failed attempts are counted per account and
   * client address, per account and per client address, and `authorize` is not called over a
   * limit (`code=rate_limited`). `false` turns it off.
   * @default { window: 900, perPair: 5, perIdentifier: 20, perClient: 50 }
   */
  rateLimit?: CredentialsRateLimit | false
}

/** The id of the credentials provider. */
export type CredentialsProviderId = "credentials"

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
