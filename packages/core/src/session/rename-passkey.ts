/**
 * Renaming one of the signed-in user's passkeys (`POST {basePath}/passkey/rename`).
 *
 * A rename is no change of the account's ways in: the passkey opens the account exactly as
 * before, so it asks for no fresh proof and mails no notice — a stolen session could rename a
 * passkey, and gain nothing by it that it could not do by looking at the list. It is still a
 * CSRF-checked POST, limited to the user's own passkeys: another user's credential id is answered
 * exactly as an unknown one, so that the answer tells nobody which ids exist.
 */
import type { ActionContext } from "../actions/context.js"
import type { AdapterAuthenticator } from "../adapters.js"
import { AccountError } from "../errors.js"
import { credentialIdOf } from "../flows/webauthn/encoding.js"
import { passkeyName } from "../flows/webauthn/passkey-fields.js"
import { callAdapter, requireMethods } from "./adapter-call.js"
import { signedInUser } from "./sign-in-methods.js"

const notFound = () => new AccountError("no such passkey on this account", { code: "not_found" })

/** Renames the signed-in user's passkey `id` (as the list names it, or base64url); returns it. */
export async function renamePasskey(
  ctx: ActionContext,
  target: { id: unknown; name: unknown },
): Promise<AdapterAuthenticator> {
  const user = await signedInUser(ctx)
  const adapter = requireMethods(
    ctx.config.adapter!,
    ["listAuthenticatorsByUserId", "updateAuthenticator"],
    "renaming a passkey",
  )
  const id = typeof target.id === "string" ? target.id : ""
  // Looked up among the user's own passkeys only: someone else's is as unknown as a made-up id.
  const own = await callAdapter("listAuthenticatorsByUserId", () =>
    adapter.listAuthenticatorsByUserId(user.id),
  )
  const found =
    id && own.find((a) => a.credentialID === id || credentialIdOf(a.credentialID) === id)
  if (!found) throw notFound()
  const name = passkeyName(target.name)
  const renamed = await callAdapter("updateAuthenticator", () =>
    adapter.updateAuthenticator(found.credentialID, { name }),
  )
  if (!renamed) throw notFound()
  return renamed
}
