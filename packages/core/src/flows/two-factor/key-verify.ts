/**
 * The code step answered with a security key: an assertion for the challenge made for this very
 * pending sign-in (`key-options.ts`), by one of the user's credentials other than the sign-in's
 * first factor. The challenge is spent whatever the outcome; the signature counter must move
 * forward (`webauthn/authenticate.ts`). Counted like a code (`verify.ts`). The re-authentication
 * step of a session with a second factor takes a key the same way (`checkKeyForSession`).
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import { useCeremony } from "../webauthn/challenge.js"
import { verifyAssertion } from "../webauthn/authenticate.js"
import { postedResponse, refuse } from "../webauthn/response.js"
import { codeStepCredentials } from "./key-options.js"
import { keyAdapter, keyProvider } from "./keys.js"
import type { HeldSignIn } from "./pending.js"
import { checkKeyAttempt } from "./verify.js"

/** Checks the posted assertion (`data`) for the code step of `pending`; throws when refused. */
export function checkKeyAtCodeStep(ctx: ActionContext, user: AdapterUser, pending: HeldSignIn) {
  return checkKey(ctx, user, pending)
}

/**
 * Checks the posted assertion (`data`) for the signed-in `user`'s re-authentication step: a
 * challenge made for them (not for a sign-in), by one of their keys or passkeys. Counted like a
 * code; throws `TwoFactorError` (`key_refused`, `rate_limited`) when refused.
 */
export function checkKeyForSession(ctx: ActionContext, user: AdapterUser) {
  return checkKey(ctx, user, undefined)
}

/**
 * Both checks: the challenge must have been made for `user` and for this very step — the code
 * step of `pending`, or (without one) a session's re-authentication — so that one step's
 * challenge never answers the other; at the code step, the sign-in's first factor is not taken.
 */
async function checkKey(
  ctx: ActionContext,
  user: AdapterUser,
  pending: HeldSignIn | undefined,
): Promise<void> {
  const provider = keyProvider(ctx)
  keyAdapter(ctx)
  await checkKeyAttempt(ctx, user, async () => {
    const ceremony = await useCeremony(ctx, provider.id)
    if (
      ceremony.action !== "second-factor" ||
      ceremony.userId !== user.id ||
      ceremony.pending !== pending?.nonce
    )
      refuse("challenge", "The challenge was not made for this step")
    const response = postedResponse(ctx)
    const allowed = pending
      ? new Set((await codeStepCredentials(ctx, pending)).map((a) => a.credentialID))
      : null
    await verifyAssertion(ctx, provider, response, {
      challenge: ceremony.challenge,
      requireUserVerification: false,
      accept: (stored) =>
        stored.userId === user.id && (allowed === null || allowed.has(stored.credentialID)),
    })
  })
}
