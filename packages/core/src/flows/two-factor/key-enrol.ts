/**
 * Adding a security key (or a passkey) as a second factor, and removing one.
 *
 * Adding is a change of the account (`account/change.ts`): a signed-in user needs fresh proof
 * (with the second factor when they have one already), a sign-in that must set a factor up is
 * its own proof (`"signIn"`); the owner is mailed and `accountChanged` emitted. The key is
 * stored with `secondFactor: true` and no account row: it signs nobody in by itself. A user's
 * first second factor comes with recovery codes, shown once. Removing the last key of a user
 * without an authenticator app turns two-factor authentication off (and drops the recovery
 * codes); removing one of several changes nothing else. Both need fresh proof that included the
 * second factor.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import { AccountError } from "../../errors.js"
import { recordProof } from "../../account/proof.js"
import { callAdapter } from "../../session/adapter-call.js"
import { endUserSessions } from "../../session/end-sessions.js"
import { emitEvent } from "../../session/events.js"
import { useCeremony } from "../webauthn/challenge.js"
import { passkeyName } from "../webauthn/passkey-fields.js"
import { verifyNewCredential } from "../webauthn/register.js"
import { postedResponse, refuse } from "../webauthn/response.js"
import { keyAdapter, keyProvider, secondFactorKeys } from "./keys.js"
import type { HeldSignIn } from "./pending.js"
import { hasSecondFactor, hasTotp, newRecoveryCodes, removeSecondFactor } from "./store.js"

/** Verifies the posted registration (`data`) for `user` and stores it as a second factor. */
async function storeKey(ctx: ActionContext, user: AdapterUser, pending?: HeldSignIn) {
  const provider = keyProvider(ctx)
  const adapter = keyAdapter(ctx)
  // A name typed by the user, held to a passkey name's rules (`invalid_name`); else the model's.
  const typed = ctx.request.body.name
  const name = typeof typed === "string" && typed.trim() !== "" ? passkeyName(typed) : undefined
  const ceremony = await useCeremony(ctx, provider.id)
  if (
    ceremony.action !== "second-factor-register" ||
    ceremony.userId !== user.id ||
    ceremony.pending !== pending?.nonce
  )
    refuse("challenge", "The challenge was not made for this key's registration")
  const credential = await verifyNewCredential(ctx, provider, postedResponse(ctx), {
    challenge: ceremony.challenge,
    requireUserVerification: false,
  })
  await callAdapter("createAuthenticator", () =>
    adapter.createAuthenticator({
      ...credential,
      userId: user.id,
      secondFactor: true,
      ...(name ? { name } : {}),
    }),
  )
}

/**
 * Adds the posted key as `user`'s second factor; returns the new recovery codes when it is their
 * first second factor (to be shown once), else `null`.
 */
export async function enrolKey(
  ctx: ActionContext,
  user: AdapterUser,
  { pending, keepSession }: { pending?: HeldSignIn; keepSession?: string },
): Promise<string[] | null> {
  const first = !(await hasSecondFactor(ctx, user.id))
  const { changeAccount } = await import("../../account/change.js")
  const codes = await changeAccount(ctx, {
    user,
    change: { type: "securityKeyAdded" },
    proof: pending ? "signIn" : "session",
    apply: async () => {
      await storeKey(ctx, user, pending)
      return first ? newRecoveryCodes(ctx, user.id) : null
    },
  })
  if (!pending) {
    // As when an app is set up: whoever held a session without the new factor is out.
    if (first) await endUserSessions(ctx, user.id, keepSession ?? "")
    await recordProof(ctx, user.id, { secondFactor: true })
  }
  if (first) await emitEvent(ctx, "twoFactorEnrolled", { user })
  return codes
}

/** Removes one of the signed-in user's second-factor keys (`id`: its credential id). */
export async function removeKey(ctx: ActionContext, user: AdapterUser, id: unknown) {
  const adapter = keyAdapter(ctx)
  const keys = await secondFactorKeys(ctx, user.id)
  const key = keys.find((k) => k.credentialID === id)
  if (!key) throw new AccountError("no such security key on this account", { code: "not_found" })
  const last = keys.length === 1 && !(await hasTotp(ctx, user.id))
  const { changeAccount } = await import("../../account/change.js")
  await changeAccount(ctx, {
    user,
    change: last ? { type: "twoFactorDisabled" } : { type: "securityKeyRemoved" },
    proof: "session",
    apply: async () => {
      await callAdapter("deleteAuthenticator", () => adapter.deleteAuthenticator(key.credentialID))
      if (last) await removeSecondFactor(ctx, user.id)
    },
  })
  if (last) await emitEvent(ctx, "twoFactorDisabled", { user })
}
