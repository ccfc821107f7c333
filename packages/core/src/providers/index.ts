/**
 * Provider types. Each provider is a plain configuration object (or a factory returning one);
 * the code that runs a provider's flow lives in `flows/`, not here.
 *
 * @module providers
 */
import type { Awaitable, User } from "../types.js"

/** The kinds of provider. */
export type ProviderType = "oauth" | "oidc" | "email" | "credentials" | "webauthn"

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

/**
 * A credentials provider: the user proves who they are with a form (a password, a one-time
 * code…), and `authorize` decides.
 */
export interface CredentialsConfig<
  Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>,
> extends CommonProviderOptions {
  type: "credentials"
  /** The form fields, shown on the built-in sign-in page and read from the POST body. */
  credentials: Fields
  /**
   * Returns the user, or `null` to refuse. Throw `CredentialsSignin` (or a subclass with a
   * `code`) to refuse with a code the sign-in page shows. Any other error is the server's fault
   * and sends the user to the error page.
   */
  authorize: (
    credentials: Partial<Record<keyof Fields, unknown>>,
    request: Request,
  ) => Awaitable<User | null>
}

/** A provider configuration whose flow a later version of this package adds. */
export interface OtherProviderConfig extends CommonProviderOptions {
  [option: string]: unknown
}

/** Any provider configuration. */
export type ProviderConfig = CredentialsConfig<any> | OtherProviderConfig

/** A provider in `providers`: a configuration object or a factory called without options. */
export type Provider = ProviderConfig | ((options?: any) => ProviderConfig)
