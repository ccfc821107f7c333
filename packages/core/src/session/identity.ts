/**
 * What a sign-in flow hands to `establish.ts`. Its own module: the flows, the second-factor gate
 * and account linking all take it, and `establish.ts` loads some of them.
 */
import type { AdapterAuthenticator } from "../adapters.js"
import type { Account, Profile, User } from "../types.js"

/** Who signed in, as a flow found out. */
export interface Identity {
  user: User
  account: Account
  profile?: Profile
  /** The submitted form, for credentials sign-ins. */
  credentials?: Record<string, unknown>
  /** A WebAuthn credential to store for the user (a registration). */
  authenticator?: Omit<AdapterAuthenticator, "userId">
  /** Whether the flow creates the user (a WebAuthn registration without a signed-in user). */
  isNewUser?: boolean
  /** The new user's address was proven (a passkey-first sign-up): stored as verified. */
  emailProven?: boolean
  /** A passkey sign-in whose authenticator verified the user (two factors in one). */
  userVerified?: boolean
}
