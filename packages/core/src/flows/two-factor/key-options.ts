/**
 * The options of a security key's ceremonies for two-factor authentication, with their challenge
 * in the challenge cookie (`webauthn/challenge.ts`), bound to what they are for.
 *
 * Both ask for `userVerification: "discouraged"` and registration for `residentKey:
 * "discouraged"` (WebAuthn Level 3 §5.4.6, §5.8.6): the key is the second factor, the first one
 * was proven already, so a key without a PIN or a biometric works, and none of its few resident
 * slots is spent. The relying party (RP id, origin) is the configured one, as for passkeys.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import { TwoFactorError } from "../../errors.js"
import { createCeremony } from "../webauthn/challenge.js"
import { creationOptions } from "../webauthn/creation-options.js"
import { credentialDescriptor } from "../webauthn/encoding.js"
import { simpleWebAuthn } from "../webauthn/library.js"
import { relyingParty } from "../webauthn/relying-party.js"
import { authenticatorsOf, keyAdapter, keyProvider } from "./keys.js"
import type { HeldSignIn } from "./pending.js"

/**
 * The credentials that may answer the code step of `pending`: the user's keys and passkeys, but
 * not the passkey that was the sign-in's first factor (one credential is not two factors).
 */
export async function codeStepCredentials(ctx: ActionContext, pending: HeldSignIn) {
  const firstFactor =
    pending.account.type === "webauthn" ? pending.account.providerAccountId : undefined
  const all = await authenticatorsOf(ctx, pending.userId)
  return all.filter((a) => a.credentialID !== firstFactor)
}

/**
 * Assertion options for the code step of the pending sign-in `pending` — or, given the signed-in
 * user instead, for their re-authentication step (the session stands for the first factor).
 */
export async function keyAssertionOptions(
  ctx: ActionContext,
  target: { pending: HeldSignIn } | { user: AdapterUser },
): Promise<Record<string, unknown>> {
  const provider = keyProvider(ctx)
  keyAdapter(ctx)
  const pending = "pending" in target ? target.pending : undefined
  const userId = pending ? pending.userId : (target as { user: AdapterUser }).user.id
  const allowed = pending
    ? await codeStepCredentials(ctx, pending)
    : await authenticatorsOf(ctx, userId)
  if (allowed.length === 0)
    throw new TwoFactorError("the account has no security key", { code: "not_enrolled" })
  const [library, rp] = await Promise.all([simpleWebAuthn(provider), relyingParty(ctx, provider)])
  const options = (await library.generateAuthenticationOptions({
    rpID: rp.id,
    timeout: provider.timeout,
    userVerification: "discouraged",
    allowCredentials: allowed.map(credentialDescriptor),
  })) as Record<string, unknown> & { challenge: string }
  await createCeremony(ctx, {
    action: "second-factor",
    provider: provider.id,
    challenge: options.challenge,
    userId,
    ...(pending ? { pending: pending.nonce } : {}),
  })
  return options
}

/**
 * Registration options for a new second-factor key of `user` (signed in, or the user of a
 * pending sign-in that must set a factor up: `pending`), excluding every credential the user has.
 */
export async function keyRegistrationOptions(
  ctx: ActionContext,
  user: AdapterUser,
  pending?: HeldSignIn,
): Promise<Record<string, unknown>> {
  const provider = keyProvider(ctx)
  keyAdapter(ctx)
  const registered = await authenticatorsOf(ctx, user.id)
  const options = await creationOptions(ctx, provider, user, registered, {
    residentKey: "discouraged",
    userVerification: "discouraged",
  })
  await createCeremony(ctx, {
    action: "second-factor-register",
    provider: provider.id,
    challenge: options.challenge,
    userId: user.id,
    ...(pending ? { pending: pending.nonce } : {}),
  })
  return options
}
