/**
 * `@latch/sveltekit`: Latch for SvelteKit.
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import { SvelteKitAuth } from "@latch/sveltekit"
 * import Credentials from "@latch/sveltekit/providers/credentials"
 * export const { handle, signIn, signOut } = SvelteKitAuth({ providers: [Credentials({ authorize })] })
 *
 * // src/hooks.server.ts
 * export { handle } from "./auth"
 * ```
 */
import type { RequestEvent } from "@sveltejs/kit"
import {
  createChangePassword,
  createConfirmTwoFactorSetup,
  createDisableTwoFactor,
  createRegenerateRecoveryCodes,
  createRemoveSignInMethod,
  createRenamePasskey,
  createRequestPasswordReset,
  createSetNewPassword,
  createSignUp,
  createVerifyTwoFactor,
  createReauthenticate,
  type AuthFormAction,
  type RecoveryCodesAction,
} from "./account-actions.js"
import { createSignIn, createSignOut } from "./actions.js"
import { createConfirmPasskeySignUp, createStartPasskeySignUp } from "./passkey-signup.js"
import { createHandle } from "./handle.js"
import type { Handle, SvelteKitAuthConfigInput } from "./types.js"

export type { SvelteKitAuthConfig, SvelteKitAuthConfigInput } from "./types.js"
export { isProtectedPath, protect } from "./protect.js"
export { getAccessToken } from "./access-token.js"
export { loadSession, type SessionLoadEvent } from "./load-session.js"
export { SESSION_DEPENDENCY } from "./session-key.js"
export {
  getUserSessions,
  revokeOtherSessions,
  revokeUserSession,
  type UserSession,
} from "./user-sessions.js"
export {
  getPasskeySignals,
  getSignInMethods,
  type PasskeyDetails,
  type PasskeySignals,
  type SignInMethod,
} from "./sign-in-methods.js"
export {
  getReauthentication,
  type Reauthentication,
  type ReauthenticationMethod,
  type ReauthenticationOptions,
} from "./reauthentication.js"
export { getPasskeySignUp, type PasskeySignUp } from "./passkey-signup.js"
export {
  beginTwoFactorSetup,
  getTwoFactorStatus,
  type TwoFactorSetupData,
  type TwoFactorStatus,
  type SecurityKeyDetails,
} from "./two-factor.js"
export type { AuthFormAction, RecoveryCodes, RecoveryCodesAction } from "./account-actions.js"
export type { ProtectOptions, ProtectRule, RouteOfEvent } from "./protect.js"
export { customFetch } from "@latch/core"
export * from "@latch/core/errors"
export type * from "@latch/core/types"

/** What `SvelteKitAuth` returns. */
export interface SvelteKitAuthResult {
  /** The hook: answers `{basePath}/*`, sets `event.locals.auth()` for every other request. */
  handle: Handle
  /**
   * A form action that signs in with the form's `providerId`. `fields`, when given, replaces the
   * form (a remote `form` passes what it read; see `@latch/sveltekit/remote`).
   */
  signIn: (event: RequestEvent, fields?: Record<string, unknown>) => Promise<never>
  /** A form action that signs out; `fields` as for `signIn`. */
  signOut: (event: RequestEvent, fields?: Record<string, unknown>) => Promise<never>
  /**
   * Password accounts (a `Password` provider): asks for an account with the form's `email`,
   * `password` and `name`; mails a link and redirects to the verify-request page. Throws
   * `PasswordError` (`code`) for a password the policy refuses or a malformed address. The
   * form's `providerId` names the provider (default `"password"`), as in every password action.
   */
  signUp: AuthFormAction
  /** Mails a reset link to the form's `email` (or a "no account" mail), whatever the address. */
  requestPasswordReset: AuthFormAction
  /**
   * Sets the new password of a reset link (`token` field, else the page's `?token=`; `password`)
   * and signs in; throws `PasswordError` for a refused password, a used link → the error page.
   */
  setNewPassword: AuthFormAction
  /**
   * Changes the signed-in user's password (`currentPassword`, `password`); throws
   * `PasswordError` (`wrong_password`, `same_password`, the policy's codes, `rate_limited`,
   * `signed_out`). A user with a second factor is sent to confirm it first (303).
   */
  changePassword: AuthFormAction
  /**
   * Removes one of the signed-in user's sign-in methods (`provider`, `id`, as
   * `getSignInMethods` lists them); throws `AccountError` (`last_method`, `not_found`,
   * `signed_out`).
   */
  removeSignInMethod: AuthFormAction
  /**
   * Renames one of the signed-in user's passkeys (`id` as `getSignInMethods` lists it, `name`);
   * throws `AccountError` (`invalid_name`: empty, over 64 characters or with control
   * characters; `not_found`: not a passkey of theirs; `signed_out`). Asks for no fresh proof.
   */
  renamePasskey: AuthFormAction
  /**
   * Two-factor authentication (`twoFactor`): the code step of a sign-in waiting for its second
   * factor (`code`, or `recoveryCode`); starts the session and redirects where the sign-in was
   * going. Throws `TwoFactorError` (`wrong_code`, `replayed_code`, `rate_limited`, `expired`).
   */
  verifyTwoFactor: AuthFormAction
  /**
   * Turns two-factor authentication on (`setup` from `beginTwoFactorSetup`, `code`, and
   * `currentCode` when replacing one); returns `{ recoveryCodes, continueUrl }` to show once.
   * Starts the session of a sign-in that had to set one up. Throws `TwoFactorError`.
   */
  confirmTwoFactorSetup: RecoveryCodesAction
  /**
   * Turns the signed-in user's authenticator app off, with a `code` (or `recoveryCode`);
   * redirects to `redirectTo` (default: back to the page). A user who keeps security keys stays
   * protected by them and gets new recovery codes instead, returned as
   * `regenerateRecoveryCodes` returns them. Throws `TwoFactorError` (`wrong_code`,
   * `signed_out`, `not_enrolled`…).
   */
  disableTwoFactor: RecoveryCodesAction
  /** New recovery codes for the signed-in user, with a `code`; returns them as `confirmTwoFactorSetup`. */
  regenerateRecoveryCodes: RecoveryCodesAction
  /**
   * The re-authentication step ("Confirm it is you") on a page of the app's own: `method`
   * (`password`, `code`, `passkey`, `email`) and its fields; redirects back where the change was
   * asked once confirmed. Throws `ReauthenticationRequired` (`code`) for a refused try. The
   * other account actions redirect to the step themselves when a change needs it.
   */
  reauthenticate: AuthFormAction
  /**
   * Passkey-first sign-up (`Passkey({ signUp: true })`): mails a code to the form's `email`
   * (`providerId` defaults to `"passkey"`); redirects back to the sign-up page, whether or not
   * the address has an account. Throws `PasskeySignUpError` (`invalid_email`, `rate_limited`,
   * `mail_failed`).
   */
  startPasskeySignUp: AuthFormAction
  /**
   * Proves the address with the mailed `code`; redirects back to the sign-up page, where
   * `signIn("passkey", { action: "register" })` makes the passkey. Throws `PasskeySignUpError`
   * (`wrong_code`, `expired`, `rate_limited`, `no_request`).
   */
  confirmPasskeySignUp: AuthFormAction
}

/**
 * Sets Latch up for a SvelteKit app.
 *
 * @param config the configuration, or a function of the request event returning it (sync or
 *   async), e.g. to read a platform's environment per request
 */
export function SvelteKitAuth(config: SvelteKitAuthConfigInput): SvelteKitAuthResult {
  return {
    handle: createHandle(config),
    signIn: createSignIn(config),
    signOut: createSignOut(config),
    signUp: createSignUp(config),
    requestPasswordReset: createRequestPasswordReset(config),
    setNewPassword: createSetNewPassword(config),
    changePassword: createChangePassword(config),
    removeSignInMethod: createRemoveSignInMethod(config),
    renamePasskey: createRenamePasskey(config),
    verifyTwoFactor: createVerifyTwoFactor(config),
    confirmTwoFactorSetup: createConfirmTwoFactorSetup(config),
    disableTwoFactor: createDisableTwoFactor(config),
    regenerateRecoveryCodes: createRegenerateRecoveryCodes(config),
    reauthenticate: createReauthenticate(config),
    startPasskeySignUp: createStartPasskeySignUp(config),
    confirmPasskeySignUp: createConfirmPasskeySignUp(config),
  }
}
