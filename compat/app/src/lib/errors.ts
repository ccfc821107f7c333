import { AuthError, CredentialsSignin } from "@auth/core/errors"

/** A wrong password: the sign-in page shows `?error=CredentialsSignin&code=invalid_password`. */
export class InvalidLoginError extends CredentialsSignin {
  code = "invalid_password"
}

/** An error of the app's own, with a type of its own. */
export class AccountLocked extends AuthError {
  static type = "AccountLocked"
}

/** The message a page shows for an error type or code from the URL. */
export function describeError(type: string | null, code: string | null): string {
  if (type === null) return ""
  if (type === CredentialsSignin.type) return `Wrong username or password (${code ?? "?"})`
  if (type === AccountLocked.type) return "This account is locked"
  return `Sign-in failed: ${type}`
}
