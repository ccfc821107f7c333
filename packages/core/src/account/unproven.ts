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
 *
 * This module tells an unproven account and a marked session; `adopt.ts` cleans an account whose
 * address was proven (through `change.ts`, which asks this module first).
 */
import type { ActionContext } from "../actions/context.js"
import type { AdapterUser } from "../adapters.js"
import type { JWT } from "../jwt.js"
import { callAdapter } from "../session/adapter-call.js"
import { UNPROVEN_CLAIM } from "../session/unproven-claim.js"

type Ctx = Pick<ActionContext, "config" | "logger">

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
