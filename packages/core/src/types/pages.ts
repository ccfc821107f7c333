// The built-in pages: which paths replace them, and how they look.

/** Paths of custom pages that replace the built-in ones. */
export interface PagesOptions {
  /** Receives `?error=` (a `SignInPageErrorParam`), `?code=` and `?callbackUrl=`. @default `${basePath}/signin` */
  signIn: string
  /** @default `${basePath}/signout` */
  signOut: string
  /** Receives `?error=` (an `ErrorPageParam`). @default `${basePath}/error` */
  error: string
  /** @default `${basePath}/verify-request` */
  verifyRequest: string
  /** New users are sent here after their first sign-in when set. */
  newUser: string
  /**
   * The sign-up form of the Password provider. Receives `?error=PasswordError`, `?code=` and
   * `?callbackUrl=`. @default `${basePath}/signup`
   */
  signUp: string
  /** The "forgot your password?" form; as `signUp`. @default `${basePath}/reset-password` */
  resetPassword: string
  /**
   * The "choose a new password" form the reset link leads to. Receives `?token=` (post it back
   * as the `token` field), and `?error=` and `?code=` after a refusal.
   * @default `${basePath}/new-password/<provider>`
   */
  newPassword: string
  /** The signed-in user's "change password" form; as `signUp`. @default `${basePath}/change-password` */
  changePassword: string
  /**
   * The code step of a sign-in waiting for its second factor (`twoFactor`). Receives
   * `?error=TwoFactorError&code=` after a refusal. @default `${basePath}/two-factor`
   */
  twoFactor: string
  /** Setting up an authenticator app; as `twoFactor`. @default `${basePath}/two-factor/setup` */
  twoFactorSetup: string
  /**
   * "Confirm it's you": the step a change to the account's ways in asks for when the session's
   * last proof is older than `accountChanges.freshAge`. Receives `?callbackUrl=` (where to go
   * once confirmed) and `?error=ReauthenticationRequired&code=` (why it is asked, or why the
   * last try was refused). @default `${basePath}/reauthenticate`
   */
  reauthenticate: string
  /**
   * Passkey-first sign-up (`Passkey({ signUp: true })`): the address, then the mailed code,
   * then the passkey. Receives `?provider=`, `?callbackUrl=` and, after a refusal,
   * `?error=PasskeySignUpError&code=`. @default `${basePath}/passkey-signup/<provider>`
   */
  passkeySignUp: string
}

/** The look of the built-in pages. */
export interface Theme {
  /** `auto` follows the visitor's system setting. @default "auto" */
  colorScheme?: "auto" | "dark" | "light"
  /** An absolute URL of a logo shown above the forms. */
  logo?: string
  /** A CSS color for buttons and accents. */
  brandColor?: string
  /** A CSS color for the text on `brandColor`. */
  buttonText?: string
}
