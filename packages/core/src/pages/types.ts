/** The inputs of the built-in pages. Every string is untrusted and escaped when rendered. */
import type { CredentialInput, ProviderType } from "../providers/index.js"
import type { Theme } from "../types.js"

/** A provider as the sign-in page shows it. */
export interface PageProvider {
  id: string
  name: string
  type: ProviderType
  /** Where an OAuth button or the email form posts: `{actionBase}/signin/<id>`. */
  signinUrl: string
  /** Where a credentials form posts: `{actionBase}/callback/<id>`. */
  callbackUrl: string
  /** The credentials form's fields, for `type: "credentials"`; the passkey form's, for `"webauthn"`. */
  credentials?: Record<string, CredentialInput>
  /** Where the passkey form fetches its options: `{actionBase}/webauthn-options/<id>`. */
  optionsUrl?: string
  /** Whether the passkey form offers passkeys in the browser's autofill. */
  conditionalUI?: boolean
  /**
   * Whether an anonymous visitor may register a passkey with the passkey form (the provider has
   * its own `getUserInfo`): then its fields (an email) name who. Signing in needs none.
   */
  registers?: boolean
  /** With passkey-first sign-up on: its page, `{actionBase}/passkey-signup/<id>`. */
  passkeySignUp?: string
  /** For a Password provider: the pages its form links to. */
  passwordLinks?: {
    /** `{actionBase}/signup` (or the custom sign-up page); none when sign-up is off. */
    signUp?: string
    /** `{actionBase}/reset-password` (or the custom "forgot password" page). */
    resetPassword: string
  }
}

export interface SignInPageProps {
  theme: Theme
  csrfToken: string
  /** Sent back as the hidden `callbackUrl` field of every form. */
  callbackUrl: string
  providers: PageProvider[]
  /** The `error` query parameter, if any: a SignInPageErrorParam or anything a user typed. */
  error?: string
  /** The `code` query parameter that comes with `error=CredentialsSignin`. */
  code?: string
  /** Prefills the email field. */
  email?: string
}

export interface SignOutPageProps {
  theme: Theme
  csrfToken: string
  /** Where the form posts: `{actionBase}/signout`. */
  action: string
  callbackUrl: string
}

export interface ErrorPageProps {
  theme: Theme
  /** The `error` query parameter: an ErrorPageParam or anything a user typed. */
  error?: string
  /** `{actionBase}/signin` (or the custom sign-in page). */
  signinUrl: string
  /** The site's origin. */
  homeUrl: string
}

export interface VerifyRequestPageProps {
  theme: Theme
  /** The site's origin. */
  homeUrl: string
  /** The host part of the address the mail went to, e.g. `example.com`. */
  emailHost?: string
  /**
   * The `type` query parameter: `"signup"` and `"reset"` (password accounts) say what the mail
   * is for, without saying whether the address has an account; anything else is a sign-in link.
   */
  type?: string
  /** The form for the code in the mail, when the provider mails one. */
  codeForm?: VerifyRequestCodeForm
  /** The `error` query parameter of a refused code (`Verification`). */
  error?: string
  /** The `code` query parameter that comes with it (an `EmailCodeErrorCode`). */
  code?: string
  /** `{actionBase}/signin` (or the custom sign-in page), to ask for a new mail. */
  signInUrl?: string
  /** The email provider's `inboxUrl`: the page links to it, "Open your mailbox". */
  inboxUrl?: string
  /** The email provider's rate-limit window, in minutes, for `error=EmailRateLimited`. */
  limitMinutes?: number
}

/**
 * The page a mailed link opens (`GET {actionBase}/callback/<email provider>`, or
 * `GET {actionBase}/verify-email/<id>`): one button that posts the link's fields back, so that
 * a mail scanner's visit spends nothing.
 */
export interface ContinuePageProps {
  theme: Theme
  /** `"signIn"`: an email sign-in link; `"confirmEmail"`: a password account's address. */
  purpose: "signIn" | "confirmEmail"
  csrfToken: string
  /** Where the button posts: the link's path. */
  action: string
  /** The link's values, sent back as hidden fields (`token`, `email`, `callbackUrl`). */
  fields: Record<string, string | undefined>
  /** The site's host, e.g. `example.com`. */
  siteHost: string
  /** The address the link is for, when known. */
  email?: string
  /** The site's origin. */
  homeUrl: string
}

/** A code form on the "check your email" page: the mail carries a code too. */
export interface VerifyRequestCodeForm {
  /** Where the form posts: `{actionBase}/callback/<email provider>`. */
  action: string
  csrfToken: string
  /** How many characters the code has. */
  length: number
}

/** What every password page has. */
export interface PasswordPageProps {
  theme: Theme
  csrfToken: string
  /** Where the form posts, e.g. `{actionBase}/signup/<id>`. */
  action: string
  /** The `error` query parameter, if any (`PasswordError`, or anything a user typed). */
  error?: string
  /** The `code` query parameter that comes with `error=PasswordError`. */
  code?: string
}

/** The bounds of a new password, from the Password provider's policy. */
export interface PasswordLengthProps {
  /** Fewest characters a new password may have. */
  minLength: number
  /** Most characters a new password may have. */
  maxLength: number
}

/** The sign-up page: `GET {actionBase}/signup`. */
export interface SignUpPageProps extends PasswordPageProps, PasswordLengthProps {
  /** Sent back as the hidden `callbackUrl` field. */
  callbackUrl?: string
  /** Prefills the email field. */
  email?: string
  /** `{actionBase}/signin` (or the custom sign-in page). */
  signInUrl: string
}

/** The "forgot your password?" page: `GET {actionBase}/reset-password`. */
export interface ResetRequestPageProps extends PasswordPageProps {
  /** Sent back as the hidden `callbackUrl` field. */
  callbackUrl?: string
  /** Prefills the email field. */
  email?: string
  /** `{actionBase}/signin` (or the custom sign-in page). */
  signInUrl: string
}

/** The "choose a new password" page: `GET {actionBase}/new-password/<id>?token=…`. */
export interface NewPasswordPageProps extends PasswordPageProps, PasswordLengthProps {
  /** The reset token from the mailed link, sent back as the hidden `token` field. */
  token: string
}

/** The "change your password" page: `GET {actionBase}/change-password` (signed in). */
export interface ChangePasswordPageProps extends PasswordPageProps, PasswordLengthProps {
  /** Sent back as the hidden `callbackUrl` field; the page also links back to it. */
  callbackUrl?: string
  /** Whether a change signs the user's other devices out (database sessions). */
  signsOutOthers?: boolean
}

/** A rendered page. */
export interface RenderedPage {
  status: number
  html: string
  /** The nonce of the page's script, if it has one (for its Content-Security-Policy). */
  scriptNonce?: string
}
