/**
 * Credentials sign-in: the posted form goes to the provider's `authorize`; a user back means
 * signed in, `null` or a thrown `CredentialsSignin` means refused with a code. Before that, the
 * attempt is counted against the provider's rate limits (credentials/rate-limit.ts): over one,
 * `authorize` is not called and the refusal has `code = "rate_limited"`.
 */
import type { ActionContext } from "../actions/context.js"
import { AuthError, CallbackRouteError, CredentialsSignin } from "../errors.js"
import type { CredentialsConfig } from "../providers/index.js"
import type { Identity } from "../session/identity.js"
import { admitAttempt } from "./credentials/rate-limit.js"
import { passwordSettings, type PasswordConfig } from "../providers/password.js"
import { authorizePassword } from "./password/sign-in.js"

/** The credential fields of the form: everything posted except Latch's own fields. */
function credentialsOf(body: Record<string, unknown>): Record<string, unknown> {
  const { csrfToken: _csrf, callbackUrl: _callback, ...fields } = body
  return fields
}

/** Runs `authorize` and returns the identity, or throws `CredentialsSignin`. */
export async function finishCredentials(
  ctx: ActionContext,
  provider: CredentialsConfig,
): Promise<Identity> {
  const credentials = credentialsOf(ctx.request.body)
  const attempt = await admitAttempt(ctx, provider, credentials)
  // A Password provider: Latch checks the password itself, against the adapter's hash (its
  // failures are Latch's own errors: a refusal, or the database down).
  const password = (provider as Partial<PasswordConfig>)[passwordSettings]
  let user
  if (password) user = await authorizePassword(ctx, password, credentials)
  else
    try {
      user = await provider.authorize(credentials, ctx.request.request)
    } catch (error) {
      // A refusal, or an error of the app's own `AuthError` class (for its form action to show).
      if (error instanceof AuthError) throw error
      // Anything else is the server's fault: its message stays in the log. The attempt stays
      // counted: an error an attacker can provoke must not give attempts back.
      throw new CallbackRouteError(`authorize of provider "${provider.id}" threw`, { cause: error })
    }
  if (!user) throw new CredentialsSignin("authorize returned null")
  // The right credentials, whatever the `signIn` callback decides next.
  await attempt?.succeeded()
  const id = user.id === undefined || user.id === null ? crypto.randomUUID() : String(user.id)
  return {
    user: { ...user, id },
    account: { providerAccountId: id, type: "credentials", provider: provider.id },
    credentials,
  }
}
