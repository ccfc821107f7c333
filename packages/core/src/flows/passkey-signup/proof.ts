/**
 * The proof of the address, between the code and the passkey: read (not spent) when the browser
 * asks for the registration's options, spent when the registration is posted. Spent means the
 * cookie is deleted and its `id` counted in the counter store until it would have expired, so a
 * copy of the cookie replayed later — with a fresh challenge — creates nothing.
 */
import type { ActionContext } from "../../actions/context.js"
import { PasskeySignUpError } from "../../errors.js"
import { counterKey, counters } from "../../security/counter.js"
import { SIGN_UP_MAX_AGE } from "./state.js"
import { clearSignUp, readSignUp } from "./state.js"

/** The proven address of this browser's sign-up with `provider`, and its proof's id. */
export async function provenSignUp(
  ctx: ActionContext,
  provider: string,
): Promise<{ email: string; id: string } | undefined> {
  const state = await readSignUp(ctx, provider)
  if (!state || state === "expired" || state.stage !== "proven") return undefined
  return { email: state.email, id: state.id }
}

/**
 * Spends the proof `id` the registration's ceremony was made for; returns its address. Throws
 * `PasskeySignUpError` (`expired`, `no_request`, `replay`) when there is no such live proof.
 */
export async function spendSignUpProof(
  ctx: ActionContext,
  provider: string,
  id: string,
): Promise<string> {
  const state = await readSignUp(ctx, provider)
  clearSignUp(ctx)
  if (state === "expired")
    throw new PasskeySignUpError("The proof of the address expired", { code: "expired" })
  if (!state || state.stage !== "proven" || state.id !== id)
    throw new PasskeySignUpError("No proof of the address in this browser", {
      code: "no_request",
    })
  const key = await counterKey(ctx.config, "passkey-signup:proof", id)
  const spent = await counters(ctx.config)(key, new Date((state.exp + SIGN_UP_MAX_AGE) * 1000))
  if (spent > 1)
    throw new PasskeySignUpError("The proof of the address was used already", { code: "replay" })
  return state.email
}
