/**
 * The one place that decides changes to an account's ways in: set, change, reset or remove a
 * password; add or remove a passkey or a linked account; turn two-factor authentication on,
 * replace it or turn it off; new recovery codes. Every flow that makes one calls
 * `changeAccount`, which
 *
 * 1. refuses to give an unproven account (`unproven.ts`) a new way in: a squatter's account
 *    adopts nothing the owner would later inherit;
 * 2. asks for proof that the owner is there — of the kind the flow names (`ChangeProof`):
 *    fresh proof of this session (`proof.ts`: a sign-in or a re-authentication within
 *    `accountChanges.freshAge`, with the second factor when the user has one), else the
 *    re-authentication step (`ReauthenticationRequired`) and nothing changes;
 * 3. makes the change (the flow's `apply`);
 * 4. mails the owner a notice and emits `accountChanged`.
 *
 * A new way in for a user with a second factor is therefore stored only after a proof that
 * included that factor: a stolen session alone adds no passkey, links no account, turns on no
 * authenticator. Changes are made only by POSTs (the actions' route table): never by a GET.
 */
import type { ActionContext } from "../actions/context.js"
import type { AdapterUser } from "../adapters.js"
import { AccountError, ReauthenticationRequired, TwoFactorError } from "../errors.js"
import { emitEvent } from "../session/events.js"
import type { AccountChange } from "../types.js"
import { noticeOwner } from "./notice.js"
import { freshProof } from "./proof.js"
import { isUnproven } from "./unproven.js"

/**
 * What shows that the owner asks for the change:
 *
 * - `"session"`: nothing in the request itself; the session must hold fresh proof.
 * - `"password"`: the flow checks the current password (a change of password). Enough for a
 *   user without a second factor; one with a factor needs fresh proof that included it too.
 * - `"secondFactor"`: the flow checks a code of the user's second factor (turning it off, new
 *   recovery codes, replacing the authenticator).
 * - `"link"`: a mailed link proved the address (a reset), or the provider vouched for it (an
 *   OAuth account linked by email, with `allowDangerousEmailAccountLinking`).
 * - `"signIn"`: a sign-in that must set a second factor up before its session, at that step: the
 *   sign-in just happened.
 */
export type ChangeProof = "session" | "password" | "secondFactor" | "link" | "signIn"

/** The changes that give the account a new way in (or a new factor). */
const ADDS_A_WAY_IN = new Set<AccountChange["type"]>([
  "passkeyAdded",
  "accountLinked",
  "twoFactorEnabled",
  "twoFactorReplaced",
  "securityKeyAdded",
])

/** Whether the user has a second factor (only with `twoFactor` configured). */
export async function usesSecondFactor(ctx: ActionContext, userId: string): Promise<boolean> {
  if (!ctx.config.twoFactor) return false
  const store = await import("../flows/two-factor/store.js")
  return store.hasSecondFactor(ctx, userId)
}

/**
 * Throws `ReauthenticationRequired` unless the session holds fresh proof for `user` (with the
 * second factor when the user has one). `passwordChecked`: the flow checks the password itself,
 * which is proof enough for a user without a second factor.
 */
export async function requireFreshProof(
  ctx: ActionContext,
  user: Pick<AdapterUser, "id">,
  { passwordChecked = false }: { passwordChecked?: boolean } = {},
): Promise<void> {
  const needsSecondFactor = await usesSecondFactor(ctx, user.id)
  if (passwordChecked && !needsSecondFactor) return
  const proof = await freshProof(ctx, user.id)
  if (!proof)
    throw new ReauthenticationRequired("the session's last proof is not fresh", {
      code: "required",
    })
  if (needsSecondFactor && !proof.secondFactor)
    throw new ReauthenticationRequired("the session's proof did not include the second factor", {
      code: "second_factor",
    })
}

/** Refuses a new way in for an unproven account. */
async function refuseUnproven(
  ctx: ActionContext,
  user: AdapterUser,
  change: AccountChange,
): Promise<void> {
  if (!ADDS_A_WAY_IN.has(change.type) || !(await isUnproven(ctx, user))) return
  const message = "Confirm the account's address before adding a way to sign in to it"
  if (
    change.type === "twoFactorEnabled" ||
    change.type === "twoFactorReplaced" ||
    change.type === "securityKeyAdded"
  )
    throw new TwoFactorError(message, { code: "unverified", page: "twoFactorSetup" })
  throw new AccountError(message, { code: "unverified" })
}

/** One change, as a flow asks for it. */
export interface ChangeRequest<T> {
  /** The account changed. */
  user: AdapterUser
  change: AccountChange
  proof: ChangeProof
  /** Makes the change (and checks what the flow checks: a password, a code). */
  apply: () => Promise<T>
}

/** Makes a change to the account's ways in, as the module's comment says; returns `apply`'s. */
export async function changeAccount<T>(
  ctx: ActionContext,
  { user, change, proof, apply }: ChangeRequest<T>,
): Promise<T> {
  await refuseUnproven(ctx, user, change)
  if (proof === "session") await requireFreshProof(ctx, user)
  if (proof === "password") await requireFreshProof(ctx, user, { passwordChecked: true })
  const result = await apply()
  await noticeOwner(ctx, user, change)
  await emitEvent(ctx, "accountChanged", { user, change })
  return result
}
