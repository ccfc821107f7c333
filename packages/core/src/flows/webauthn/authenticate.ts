/**
 * An authentication response: a stored credential signed this ceremony's challenge on this
 * site, with the user verified and the signature counter moving forward.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterAuthenticator } from "../../adapters.js"
import type { WebAuthnConfig } from "../../providers/webauthn.js"
import { callAdapter } from "../../session/adapter-call.js"
import type { Identity } from "../../session/identity.js"
import { decodeBase64url } from "../../lib/base64url.js"
import { webAuthnAdapter, type WebAuthnAdapter } from "./adapter.js"
import type { Ceremony } from "./challenge.js"
import { checkClientData } from "./client-data.js"
import {
  fromBase64,
  isForRelyingParty,
  parseAuthenticatorData,
  storedCredentialIds,
} from "./encoding.js"
import { simpleWebAuthn } from "./library.js"
import { relyingParty } from "./relying-party.js"
import { refuse, verifyWith, type CredentialResponse } from "./response.js"

type Authentication = Extract<Ceremony, { action: "authenticate" }>

/** What `verifyAuthenticationResponse` returns (the fields Latch uses). */
interface VerifiedAuthentication {
  verified: boolean
  authenticationInfo?: { newCounter: number }
}

/**
 * A counter that does not move forward means the credential was copied: two authenticators
 * now sign with one key (WebAuthn §6.1.1). A counter that stays 0 is an authenticator without
 * one (synced passkeys); the spent challenge is what stops replays there.
 */
function isCounterValid(stored: number, received: number): boolean {
  if (stored === 0 && received === 0) return true
  return received > stored
}

/**
 * The stored credential with this id (base64url, as the browser sends it), in whichever form it
 * was stored: padded standard base64 (Auth.js, and Latch now) or base64url (Latch before).
 */
async function findAuthenticator(adapter: WebAuthnAdapter, id: string) {
  for (const form of storedCredentialIds(id)) {
    const found = await callAdapter("getAuthenticator", () => adapter.getAuthenticator(form))
    if (found) return found
  }
  return null
}

/**
 * Stores the new counter of the row found (under the id it was stored with) and, where the
 * adapter keeps Latch's passkey fields, when it was used: in the same write.
 */
async function recordUse(adapter: WebAuthnAdapter, credentialID: string, counter: number) {
  const { updateAuthenticator } = adapter
  if (!updateAuthenticator) {
    await callAdapter("updateAuthenticatorCounter", () =>
      adapter.updateAuthenticatorCounter(credentialID, counter),
    )
    return
  }
  const updated = await callAdapter("updateAuthenticator", () =>
    updateAuthenticator.call(adapter, credentialID, { counter, lastUsedAt: new Date() }),
  )
  if (!updated) refuse("unknown-credential", "The credential was removed during the sign-in")
}

/** What an assertion is checked with, besides the response. */
export interface AssertionCheck {
  /** The challenge the response must answer. */
  challenge: string
  /** Whether the authenticator must have verified the user (a PIN, a biometric). */
  requireUserVerification: boolean
  /** Which stored credentials may answer; another is refused as `unknown-credential`. */
  accept: (stored: AdapterAuthenticator) => boolean
}

/**
 * Verifies an assertion: this site's, this challenge's, by a stored credential `accept` allows,
 * signed with its key, its counter moving forward (then stored). Returns the credential and
 * whether the authenticator verified the user.
 */
export async function verifyAssertion(
  ctx: ActionContext,
  provider: WebAuthnConfig,
  response: CredentialResponse,
  check: AssertionCheck,
): Promise<{ stored: AdapterAuthenticator; userVerified: boolean }> {
  const rp = await relyingParty(ctx, provider)
  checkClientData(response, { type: "webauthn.get", challenge: check.challenge, rp })
  const raw = response.response.authenticatorData
  const data = parseAuthenticatorData(
    (typeof raw === "string" && decodeBase64url(raw)) || new Uint8Array(0),
  )
  if (!data) refuse("invalid-response", "The response has no authenticator data")
  if (!(await isForRelyingParty(data.rpIdHash, rp.id))) {
    refuse("rp-id", "The response was made for another relying party")
  }
  if (check.requireUserVerification && !data.userVerified) {
    refuse("user-verification", "The authenticator did not verify the user")
  }

  const adapter = webAuthnAdapter(ctx)
  const stored = await findAuthenticator(adapter, response.id)
  if (!stored || !check.accept(stored))
    refuse("unknown-credential", "No stored credential has this id")
  if (!isCounterValid(stored.counter, data.counter)) {
    refuse("counter", `The signature counter went from ${stored.counter} to ${data.counter}`)
  }
  const publicKey = fromBase64(stored.credentialPublicKey)
  if (!publicKey) refuse("verification", "The stored public key is not base64")

  const library = await simpleWebAuthn(provider)
  const { authenticationInfo } = await verifyWith<VerifiedAuthentication>(() =>
    library.verifyAuthenticationResponse({
      response,
      expectedChallenge: check.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: response.id,
        publicKey,
        counter: stored.counter,
        transports: stored.transports?.split(",").filter(Boolean),
      },
      requireUserVerification: check.requireUserVerification,
      ...provider.verifyAuthenticationOptions,
    }),
  )
  const newCounter = authenticationInfo?.newCounter ?? data.counter
  await recordUse(adapter, stored.credentialID, newCounter)
  return { stored, userVerified: data.userVerified }
}

/**
 * Verifies an authentication; returns the identity of the credential's owner. A key stored as a
 * second factor signs nobody in: it is something the user has, proven after a first factor.
 */
export async function verifyAuthentication(
  ctx: ActionContext,
  provider: WebAuthnConfig,
  ceremony: Authentication,
  response: CredentialResponse,
): Promise<Identity> {
  const { stored, userVerified } = await verifyAssertion(ctx, provider, response, {
    challenge: ceremony.challenge,
    requireUserVerification: provider.userVerification === "required",
    accept: (credential) => credential.secondFactor !== true,
  })
  const adapter = webAuthnAdapter(ctx)
  const key = { provider: provider.id, providerAccountId: stored.providerAccountId }
  const user =
    (await callAdapter("getUserByAccount", () => adapter.getUserByAccount(key))) ??
    (await callAdapter("getUser", () => adapter.getUser(stored.userId)))
  if (!user) refuse("unknown-credential", "The credential's user no longer exists")
  return {
    user,
    account: { ...key, type: "webauthn", userId: user.id },
    userVerified,
  }
}
