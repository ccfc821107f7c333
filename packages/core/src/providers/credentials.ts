/**
 * Sign in with a form checked by your own code: a password, a one-time code, anything.
 *
 * @module providers/credentials
 */
import type { CredentialInput, CredentialsConfig } from "./index.js"

export type { CredentialInput, CredentialsConfig, CredentialsProviderId } from "./index.js"

/**
 * Options of `Credentials()`: every field is optional; without `authorize` the provider refuses
 * everyone.
 */
export type CredentialsOptions<
  Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>,
> = Partial<Omit<CredentialsConfig<Fields>, "type">>

/**
 * A credentials provider. Its form posts to `{basePath}/callback/<id>`; `authorize` returns
 * the user or `null`.
 *
 * @example
 * ```ts
 * import Credentials from "@latch/core/providers/credentials"
 *
 * Credentials({
 *   credentials: { email: { type: "email" }, password: { type: "password" } },
 *   async authorize({ email, password }) {
 *     const user = await findUser(String(email))
 *     return user && (await verifyPassword(user, String(password))) ? user : null
 *   },
 * })
 * ```
 */
export default function Credentials<
  Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>,
>(options?: CredentialsOptions<Fields>): CredentialsConfig<Fields> {
  return {
    id: "credentials",
    name: "Credentials",
    credentials: {} as Fields,
    // Listed but refusing everyone until an `authorize` is given (`providers: [Credentials]`).
    authorize: () => null,
    ...options,
    type: "credentials",
  }
}
