/**
 * Credentials sign-in: the posted form goes to the provider's `authorize`; a user back means
 * signed in, `null` or a thrown `CredentialsSignin` means refused with a code.
 */
import type { ActionContext } from "../actions/context.js"
import { CallbackRouteError, CredentialsSignin } from "../errors.js"
import type { CredentialsConfig } from "../providers/index.js"
import type { Identity } from "../session/establish.js"

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
  let user
  try {
    user = await provider.authorize(credentials, ctx.request.request)
  } catch (error) {
    if (error instanceof CredentialsSignin) throw error
    // Anything else is the server's fault: its message stays in the log.
    throw new CallbackRouteError(`authorize of provider "${provider.id}" threw`, { cause: error })
  }
  if (!user) throw new CredentialsSignin("authorize returned null")
  const id = user.id === undefined || user.id === null ? crypto.randomUUID() : String(user.id)
  return {
    user: { ...user, id },
    account: { providerAccountId: id, type: "credentials", provider: provider.id },
    credentials,
  }
}
