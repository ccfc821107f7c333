/**
 * What a browser needs to keep its passkey list in step with the site (the WebAuthn Signal API,
 * Level 3 §5.1.10): `signalAllAcceptedCredentials` with every credential the site still accepts
 * for the user — a password manager hides or deletes the others — and `signalCurrentUserDetails`
 * with the names it shows beside them. Both name the user by the user handle the passkeys were
 * registered with (`options.ts`), and the site by its RP id.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import { isWebAuthnProvider } from "../../config/providers.js"
import { InvalidRequest } from "../../errors.js"
import { encodeBase64url } from "../../lib/base64url.js"
import { callAdapter } from "../../session/adapter-call.js"
import { credentialIdOf, userHandle } from "./encoding.js"
import { relyingParty } from "./relying-party.js"

/** The signed-in user's passkeys, as the browser's Signal API takes them. */
export interface PasskeySignals {
  /** The site's RP id, as the passkeys were registered for. */
  rpId: string
  /** The user handle of the user's passkeys, base64url. */
  userId: string
  /** The user's name as passkeys show it (their address, else their name, else their id). */
  name: string
  /** The user's display name (their name, else their address). */
  displayName: string
  /** Every credential id the site accepts for the user, base64url. */
  allAcceptedCredentialIds: string[]
}

/** The user's names in a credential: the same at registration and in the signals. */
export function credentialUserNames(user: {
  id: string
  email?: string | null
  name?: string | null
}): { name: string; displayName: string } {
  return {
    name: user.email || user.name || user.id,
    displayName: user.name || user.email || "",
  }
}

/**
 * The signals for `user`; `undefined` when no WebAuthn provider is configured, the adapter lists
 * no passkeys, or the site has no RP id a browser accepts (opened at an IP address).
 */
export async function passkeySignalsOf(
  ctx: ActionContext,
  user: AdapterUser,
): Promise<PasskeySignals | undefined> {
  const provider = [...ctx.config.providers.values()].find(isWebAuthnProvider)
  const adapter = ctx.config.adapter
  const list = adapter?.listAuthenticatorsByUserId
  if (!provider || !list) return undefined
  let rpId: string
  try {
    rpId = (await relyingParty(ctx, provider)).id
  } catch (error) {
    if (error instanceof InvalidRequest) return undefined
    throw error
  }
  const authenticators = await callAdapter("listAuthenticatorsByUserId", () =>
    list.call(adapter, user.id),
  )
  return {
    rpId,
    userId: encodeBase64url(await userHandle(user.id)),
    ...credentialUserNames(user),
    allAcceptedCredentialIds: authenticators.map((a) => credentialIdOf(a.credentialID)),
  }
}
