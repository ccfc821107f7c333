/**
 * An unproven account owns nothing.
 *
 * An account is *unproven* while its address has never been proven and it holds a password:
 * someone typed that address into a sign-up form (`requireEmailVerification: false`) and may not
 * own it — an address squatter, waiting for the owner to arrive (account pre-hijacking). Such an
 * account may not enrol a second factor or adopt another sign-in method (`change.ts` refuses).
 *
 * When a proof of the address reaches it — an email link, the confirming link of the sign-up
 * mail followed by someone who does not know the password, a reset link, an OAuth sign-in that
 * links by email — whoever proved the address adopts the account *clean*: every session (both
 * strategies), the password, the second factor and its recovery codes, the passkeys and the
 * accounts linked while it was unproven are removed, and the address is marked verified.
 *
 * JWT sessions cannot be deleted: those issued to an unproven account carry a mark
 * (`UNPROVEN_CLAIM`: a fingerprint of the password they were issued under), and a marked session
 * is read only while its account is still unproven, or was confirmed by its creator keeping that
 * password — one or two lookups per read, for those sessions alone. The mark is Latch's, kept
 * whatever the `jwt` callback returns.
 */
import type { ActionContext } from "../actions/context.js"
import type { AdapterUser } from "../adapters.js"
import type { JWT } from "../jwt.js"
import { callAdapter } from "../session/adapter-call.js"
import { endUserSessions } from "../session/end-sessions.js"
import { emitEvent } from "../session/events.js"

type Ctx = Pick<ActionContext, "config" | "logger">

import { UNPROVEN_CLAIM } from "../session/jwt-strategy.js"

/** The claim that marks a JWT session issued to an unproven account. */
export { UNPROVEN_CLAIM }

/** Whether the user's address was never proven and the account holds a password. */
export async function isUnproven(ctx: Ctx, user: AdapterUser): Promise<boolean> {
  const { getPasswordHash } = ctx.config.adapter ?? {}
  if (user.emailVerified || !user.email || !getPasswordHash) return false
  const hash = await callAdapter("getPasswordHash", () =>
    getPasswordHash.call(ctx.config.adapter, user.id),
  )
  return hash !== null && hash !== undefined
}

/**
 * The mark of a JWT session issued to `user` while its account is unproven — a fingerprint of
 * the password it then had — or `null` for any other account.
 */
export async function unprovenMark(ctx: Ctx, user: AdapterUser): Promise<string | null> {
  const { getPasswordHash } = ctx.config.adapter ?? {}
  if (user.emailVerified || !user.email || !getPasswordHash) return null
  const hash = await callAdapter("getPasswordHash", () =>
    getPasswordHash.call(ctx.config.adapter, user.id),
  )
  if (hash === null || hash === undefined) return null
  const { passwordFingerprint } = await import("../flows/password/links.js")
  return passwordFingerprint(ctx, hash)
}

/**
 * Whether a JWT session issued to an unproven account must end: its account is gone, or its
 * address has been proven since by someone who did not keep the password the session was
 * issued under — the owner, who adopted the account clean, or reset it. (The account's creator
 * who confirmed with that password keeps it: their sessions go on.)
 */
export async function isAdoptedSince(
  ctx: Pick<ActionContext, "config">,
  token: JWT,
): Promise<boolean> {
  const { getUser, getPasswordHash } = ctx.config.adapter ?? {}
  if (typeof token.sub !== "string" || !getUser || !getPasswordHash) return true
  const user = await callAdapter("getUser", () =>
    getUser.call(ctx.config.adapter, token.sub as string),
  )
  if (!user) return true
  if (!user.emailVerified) return false
  const hash = await callAdapter("getPasswordHash", () =>
    getPasswordHash.call(ctx.config.adapter, user.id),
  )
  const { passwordFingerprint } = await import("../flows/password/links.js")
  return token[UNPROVEN_CLAIM] !== (await passwordFingerprint(ctx, hash ?? null))
}

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
