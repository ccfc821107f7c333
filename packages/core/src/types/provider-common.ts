// What every provider has, apart from the kinds of provider themselves, so that the resources
// (an account's `type`) and each kind's configuration can name it.

/** The type of WebAuthn providers. */
export type WebAuthnProviderType = "webauthn"

/** The kinds of provider. */
export type ProviderType = "oidc" | "oauth" | "email" | "credentials" | WebAuthnProviderType

/** What every provider has. */
export interface CommonProviderOptions {
  /** Unique among the configured providers; appears in URLs (`/auth/signin/<id>`). */
  id: string
  /** Shown on the sign-in page. */
  name: string
  type: ProviderType
}

/** One field of the credentials form on the built-in sign-in page. */
export interface CredentialInput {
  /** The field's label. @default the field's key */
  label?: string
  /** The input's `type` attribute. @default "text" */
  type?: string
  placeholder?: string
  autocomplete?: string
  required?: boolean
  [attribute: string]: unknown
}
