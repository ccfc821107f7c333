/**
 * Whether a sign-in needs its second factor before it gets a session. It runs in
 * `establishSession`, which every primary method ends in — credentials, password, email link,
 * OAuth, passkey — so no method can skip it.
 *
 * - A user with a second factor must give its code.
 * - A user without one, whom `twoFactor.required` names (admins, say), must set one up first.
 * - A passkey whose authenticator verified the user (a PIN or a biometric: the UV flag, signed
 *   by the authenticator) is two factors already — something the user has and something they
 *   are or know — and asks for no code. A passkey sign-in without user verification asks.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import type { Identity } from "../../session/identity.js"
import type { User } from "../../types.js"
import { hasSecondFactor } from "./store.js"

/** What the sign-in must do before its session: nothing, give a code, or set a factor up. */
export type SecondFactorStep = "none" | "verify" | "enrol"

export async function secondFactorStep(
  ctx: ActionContext,
  user: User | AdapterUser,
  identity: Identity,
): Promise<SecondFactorStep> {
  const options = ctx.config.twoFactor
  if (!options || user.id === undefined || user.id === null) return "none"
  if (identity.account.type === "webauthn" && identity.userVerified === true) return "none"
  if (await hasSecondFactor(ctx, String(user.id))) return "verify"
  if (options.required && (await options.required({ user, account: identity.account })))
    return "enrol"
  return "none"
}
