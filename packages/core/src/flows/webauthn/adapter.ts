/** The adapter methods WebAuthn needs (checked when the configuration is resolved). */
import type { ActionContext } from "../../actions/context.js"
import type { Adapter } from "../../adapters.js"
import { MissingAdapter } from "../../errors.js"
import { requireMethods } from "../../session/adapter-call.js"

export const WEBAUTHN_ADAPTER_METHODS = [
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "createUser",
  "linkAccount",
] as const

export type WebAuthnAdapter = Adapter &
  Required<Pick<Adapter, (typeof WEBAUTHN_ADAPTER_METHODS)[number]>>

/** The configuration's adapter, with the methods WebAuthn uses. */
export function webAuthnAdapter(ctx: Pick<ActionContext, "config">): WebAuthnAdapter {
  const adapter = ctx.config.adapter
  if (!adapter) throw new MissingAdapter("WebAuthn needs an adapter to store its credentials")
  return requireMethods(adapter, WEBAUTHN_ADAPTER_METHODS, "WebAuthn")
}
