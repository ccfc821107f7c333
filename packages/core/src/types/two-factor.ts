/** The options of two-factor authentication. */
import type { Awaitable } from "./common.js"
import type { Account, User } from "./resources.js"

/** Options of two-factor authentication. */
export interface TwoFactorOptions {
  /** The name authenticator apps show for the account. @default the site's host */
  issuer?: string
  /**
   * Whether this sign-in must pass a second factor even though the user has none yet (e.g.
   * admins): the user then sets one up before getting a session. @default never
   */
  required?: (params: { user: User; account: Account | null }) => Awaitable<boolean>
  /** How long a sign-in may wait for its code, in seconds. @default 300 */
  pendingMaxAge?: number
  /**
   * The limits on codes (the code step, turning the factor off, new recovery codes, a new
   * authenticator), counted in fixed windows of `window` seconds aligned to the clock; a refusal
   * is `TwoFactorError` `rate_limited` with `Retry-After` the seconds to the window's end. Wrong
   * codes count, right ones do not (they offset their attempt, and a pair's wrong ones before):
   *
   * - per account and client (an IPv4 address or an IPv6 /64): `attempts`;
   * - per client across accounts: 10 × `attempts`;
   * - per account across clients: `attempts`. A client that passed a code for the account in the
   *   last 30 days or more (the owner's devices) is exempt from this limit and the previous one,
   *   so someone with only the password cannot use them to keep the owner out.
   *
   * A recovery code (and a new authenticator's code) counts per account and client alone: on a
   * new device while the account's limit is full, a recovery code is the owner's way in. Without
   * a client address (an integration that reports none) every code counts per account.
   *
   * @default { attempts: 5, window: 900 }
   * @example
   * ```ts
   * twoFactor: { rateLimit: { attempts: 3, window: 600 } }
   * ```
   */
  rateLimit?: { attempts?: number; window?: number }
}
