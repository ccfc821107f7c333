/** The cookies Latch sets, and how each may be overridden. */
import type { SerializeOptions } from "cookie"

/** A cookie to set (or, with an empty value and `maxAge: 0`, to delete). */
export interface Cookie {
  name: string
  value: string
  options: CookieSerializeOptions
}

/** Serialization options of a cookie, as understood by the `cookie` package. */
export type CookieSerializeOptions = Omit<SerializeOptions, "encode">

/** A cookie's name and options. */
export interface CookieOption {
  name: string
  options: CookieSerializeOptions
}

/** The cookies Latch sets, each overridable in `cookies`. */
export interface CookiesOptions {
  sessionToken: Partial<CookieOption>
  callbackUrl: Partial<CookieOption>
  csrfToken: Partial<CookieOption>
  pkceCodeVerifier: Partial<CookieOption>
  state: Partial<CookieOption>
  nonce: Partial<CookieOption>
  webauthnChallenge: Partial<CookieOption>
  /** A sign-in waiting for its second factor (sealed; see `twoFactor`). */
  twoFactor: Partial<CookieOption>
  /**
   * When this browser's session last proved who it is — its sign-in, or a re-authentication —
   * and whether with the second factor (sealed, short-lived: see `accountChanges.freshAge`).
   */
  proof: Partial<CookieOption>
  /**
   * The browser that asked for a password account (sealed): its own link confirms the address
   * with one click; any other browser must type the chosen password.
   */
  signUp: Partial<CookieOption>
  /**
   * A passkey-first sign-up in this browser (sealed, ten minutes, single use): the address it
   * was started for, and once the mailed code is typed, that the address is proven.
   */
  passkeySignUp: Partial<CookieOption>
}
