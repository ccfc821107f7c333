/**
 * Security keys (and passkeys) as a second factor: which WebAuthn provider and adapter methods
 * they use, and which of the user's stored credentials are second-factor keys.
 *
 * A second-factor key is a stored authenticator with `secondFactor: true`. It is no way in on its
 * own: no account row links it, a primary passkey sign-in refuses it, and it answers only the code
 * step of a sign-in whose first factor passed. The user's ordinary passkeys are ways in and turn
 * nothing on; at the code step they prove possession as well as a key does.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterAuthenticator } from "../../adapters.js"
import { isWebAuthnProvider } from "../../config/providers.js"
import { UnknownAction } from "../../errors.js"
import type { WebAuthnConfig } from "../../providers/webauthn.js"
import { callAdapter, requireMethods } from "../../session/adapter-call.js"
import { passkeyDetails, type PasskeyDetails } from "../../session/passkey-details.js"
import { WEBAUTHN_ADAPTER_METHODS } from "../webauthn/adapter.js"

type Ctx = Pick<ActionContext, "config">

/** The WebAuthn provider whose relying party the keys belong to: the first one configured. */
export function keyProvider(ctx: Ctx): WebAuthnConfig {
  for (const provider of ctx.config.providers.values())
    if (isWebAuthnProvider(provider)) return provider
  throw new UnknownAction("Security keys as a second factor need a Passkey (WebAuthn) provider")
}

/**
 * The adapter with what keys need: WebAuthn's methods, and `updateAuthenticator` and
 * `deleteAuthenticator` — an adapter with Latch's passkey fields, which stores `secondFactor`.
 */
export function keyAdapter(ctx: Ctx) {
  return requireMethods(
    ctx.config.adapter!,
    [...WEBAUTHN_ADAPTER_METHODS, "updateAuthenticator", "deleteAuthenticator"],
    "security keys as a second factor",
  )
}

/** All the user's stored credentials (passkeys and keys); none without a WebAuthn adapter. */
export async function authenticatorsOf(ctx: Ctx, userId: string): Promise<AdapterAuthenticator[]> {
  const adapter = ctx.config.adapter
  const list = adapter?.listAuthenticatorsByUserId
  if (!list) return []
  return callAdapter("listAuthenticatorsByUserId", () => list.call(adapter, userId))
}

/** The user's second-factor keys. */
export async function secondFactorKeys(ctx: Ctx, userId: string): Promise<AdapterAuthenticator[]> {
  return (await authenticatorsOf(ctx, userId)).filter((a) => a.secondFactor === true)
}

/** One second-factor key, for a page. */
export interface SecurityKeyDetails extends PasskeyDetails {
  /** Its credential id, as `{basePath}/two-factor/security-key-remove` takes it. */
  id: string
}

/** The user's second-factor keys, for a page. */
export async function securityKeyList(ctx: Ctx, userId: string): Promise<SecurityKeyDetails[]> {
  const keys = await secondFactorKeys(ctx, userId)
  return keys.map((key) => ({ id: key.credentialID, ...passkeyDetails(key, true) }))
}
