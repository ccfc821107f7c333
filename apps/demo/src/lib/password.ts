// Password accounts, for the server (the provider's policy) and the pages (the same bounds on
// the fields, and what each refusal's code means).
import type { PasswordPolicy } from "@latch/sveltekit/providers/password"

/** What a new password must be: the Password provider's policy, and the forms' `minlength`. */
export const PASSWORD_POLICY = { minLength: 8, maxLength: 256 } satisfies PasswordPolicy

/**
 * What the pages say for each `code` of a refusal: `PasswordError` (sign-up, reset, new and
 * changed passwords), `AccountError` (the profile's sign-in methods) and a password sign-in's
 * `CredentialsSignin`. None says whether an address has an account.
 */
const MESSAGES: Record<string, string> = {
  password_too_short: `Use a longer password: at least ${PASSWORD_POLICY.minLength} characters.`,
  password_too_long: `Use a shorter password: at most ${PASSWORD_POLICY.maxLength} characters.`,
  password_control_characters: "This password contains control characters: remove them.",
  password_like_identifier: "This password is too close to your email address or name.",
  password_breached: "This password has appeared in a data breach: choose another.",
  same_password: "This is your current password: choose a new one.",
  invalid_email: "Enter one email address, like you@example.com.",
  wrong_password: "The current password is not right.",
  no_password: "Your account has no password yet: ask for a reset link to set one.",
  mail_failed: "The email could not be sent. Try again in a moment.",
  sign_up_closed: "New accounts cannot be created here.",
  rate_limited: "Too many attempts: wait a few minutes and try again.",
  signed_out: "You are signed out: sign in again, then try again.",
  credentials: "Wrong email address or password.",
  unverified: "Confirm your address first: follow the link we mailed you.",
  last_method: "This is your only way to sign in: add another one before removing it.",
  not_found: "This sign-in method is not on your account (any more).",
}

/** A message for a refusal's code; a generic one for a code it does not know. */
export function passwordMessage(code: string): string {
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code]! : "That did not work. Try again."
}

/**
 * A refusal's code from the page's query: core's own forms come back to the demo's pages with
 * `?error=PasswordError&code=…` (or `AccountError`). Only codes that look like one.
 */
export function codeOfQuery(url: URL): string | undefined {
  const error = url.searchParams.get("error")
  const code = url.searchParams.get("code")
  if (!error || !code || !/^[a-z_]{1,64}$/.test(code)) return undefined
  return code
}
