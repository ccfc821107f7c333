/**
 * A proof of the address reached an account: when it is unproven (`unproven.ts`), whoever proved
 * the address adopts it clean — everything the unproven party set is removed — and the address
 * is marked verified. Apart from `unproven.ts` because the change goes through `change.ts`, which
 * itself asks `unproven.ts` whether an account is unproven.
 */
import type { ActionContext } from "../actions/context.js"
import type { AdapterUser } from "../adapters.js"
import { callAdapter } from "../session/adapter-call.js"
import { endUserSessions } from "../session/end-sessions.js"
import { emitEvent } from "../session/events.js"
import { isUnproven } from "./unproven.js"

type Ctx = Pick<ActionContext, "config" | "logger">

/** What an adoption removes, in the words of `AccountChange`'s `removed`. */
type Removed = "sessions" | "password" | "twoFactor" | "passkeys" | "accounts"

/**
 * A proof of the address reached the user: when the account is unproven, everything the
 * unproven party set is removed — a change of the account's ways in like any other, through
 * `changeAccount` (the proof is the address's own; the owner is mailed what was removed, and
 * `accountChanged` reports it as `addressProven`); either way the address is marked verified.
 * `samePartyProof`: the prover also showed what only the unproven party holds (the account's
 * password, typed on the confirming page, or a session of the account in the same browser) —
 * then they are that party, and nothing is removed. Returns the user as stored now.
 */
export async function adoptAccount(
  ctx: ActionContext,
  user: AdapterUser,
  { samePartyProof = false }: { samePartyProof?: boolean } = {},
): Promise<AdapterUser> {
  if (!samePartyProof && (await isUnproven(ctx, user))) {
    // What goes is listed as it goes: the notice and the event name what there was.
    const change = { type: "addressProven" as const, removed: [] as Removed[] }
    const { changeAccount } = await import("./change.js")
    await changeAccount(ctx, {
      user,
      change,
      proof: "link",
      apply: () => removeUnprovenWays(ctx, user.id, change.removed),
    })
  }
  if (user.emailVerified) return user
  const updated = await callAdapter("updateUser", () =>
    ctx.config.adapter!.updateUser!({ id: user.id, emailVerified: new Date() }),
  )
  await emitEvent(ctx, "updateUser", { user: updated })
  return updated
}

/** Removes what an unproven party may have set on the account, naming each in `removed`. */
async function removeUnprovenWays(ctx: Ctx, userId: string, removed: Removed[]): Promise<void> {
  const adapter = ctx.config.adapter!
  await endUserSessions(ctx, userId)
  removed.push("sessions")
  if (adapter.deletePasswordHash) {
    await callAdapter("deletePasswordHash", () => adapter.deletePasswordHash!(userId))
    removed.push("password")
  }
  if (adapter.deleteTwoFactor) {
    const had = await callAdapter("deleteTwoFactor", () => adapter.deleteTwoFactor!(userId))
    if (had) removed.push("twoFactor")
  }
  if (await removePasskeys(ctx, userId)) removed.push("passkeys")
  if (await unlinkAccounts(ctx, userId)) removed.push("accounts")
}

/** Removes the user's passkeys; whether there were any. */
async function removePasskeys(ctx: Ctx, userId: string): Promise<boolean> {
  const adapter = ctx.config.adapter!
  if (!adapter.listAuthenticatorsByUserId || !adapter.deleteAuthenticator) return false
  const passkeys = await callAdapter("listAuthenticatorsByUserId", () =>
    adapter.listAuthenticatorsByUserId!(userId),
  )
  for (const passkey of passkeys)
    await callAdapter("deleteAuthenticator", () =>
      adapter.deleteAuthenticator!(passkey.credentialID),
    )
  return passkeys.length > 0
}

/**
 * Unlinks the accounts linked to the user (OAuth, OIDC, passkeys); the address's own email
 * account stays. Adapters without `listAccountsByUserId` cannot list them: an unproven account
 * adopts no method (`change.ts`), so there is none to find.
 */
async function unlinkAccounts(ctx: Ctx, userId: string): Promise<boolean> {
  const adapter = ctx.config.adapter!
  if (!adapter.listAccountsByUserId || !adapter.unlinkAccount) return false
  const accounts = await callAdapter("listAccountsByUserId", () =>
    adapter.listAccountsByUserId!(userId),
  )
  let unlinked = false
  for (const account of accounts) {
    if (account.type === "email") continue
    const { provider, providerAccountId } = account
    await callAdapter("unlinkAccount", () =>
      adapter.unlinkAccount!({ provider, providerAccountId }),
    )
    unlinked = true
  }
  return unlinked
}
