/**
 * Sign in with a form checked by your own code: a password, a one-time code, anything.
 *
 * @module providers/credentials
 */
import type { CredentialsConfig } from "../types/credentials.js"
import type { CredentialInput } from "../types/provider-common.js"

export type { CredentialInput } from "../types/provider-common.js"
export type {
  CredentialsConfig,
  CredentialsProviderId,
  CredentialsRateLimit,
} from "../types/credentials.js"

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
 *   // The default: 5 failures per account and address, 20 per account, 50 per address, in 15 minutes.
 *   rateLimit: { identifier: "email", window: 900, perPair: 5, perIdentifier: 20, perClient: 50 },
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
