// Changes to an account's ways in: what they are, and how fresh a proof they ask for.

/**
 * A change to an account's ways in, as `events.accountChanged` and the owner's notice mail
 * describe it.
 */
export type AccountChange =
  | { type: "passwordChanged" }
  | { type: "passwordReset" }
  | { type: "passwordRemoved" }
  | { type: "passkeyAdded"; credentialID: string }
  | { type: "passkeyRemoved"; credentialID: string }
  | { type: "accountLinked"; provider: string; providerAccountId: string }
  | { type: "accountUnlinked"; provider: string; providerAccountId: string }
  | { type: "twoFactorEnabled" }
  | { type: "twoFactorReplaced" }
  | { type: "twoFactorDisabled" }
  | { type: "recoveryCodesRegenerated" }
  | { type: "securityKeyAdded" }
  | { type: "securityKeyRemoved" }
  | { type: "addressProven"; removed: string[] }

/** Options of changes to an account's ways in (`accountChanges`). */
export interface AccountChangesOptions {
  /**
   * How long, in seconds, after a sign-in (with its second factor, for a user who has one) or a
   * re-authentication the session may change the account's ways in without being asked to
   * confirm it is the owner ("sudo mode"). Later, the change redirects to the re-authentication
   * step (`pages.reauthenticate`) first. @default 300 (5 minutes)
   */
  freshAge?: number
}
