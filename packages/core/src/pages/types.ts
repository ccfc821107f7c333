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
}

/** A rendered page. */
export interface RenderedPage {
  status: number
  html: string
  /** The nonce of the page's script, if it has one (for its Content-Security-Policy). */
  scriptNonce?: string
}
