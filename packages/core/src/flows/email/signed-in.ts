/**
 * A link opened in a browser that is signed in. The link proves that someone controls the
 * address, not that this browser asked for it: anyone can request a link for their own address
 * and get a signed-in victim to open it (a top-level navigation carries the session cookie).
 * Attaching the address to the signed-in user would let that someone sign in to the victim's
 * account later with a fresh link. So a signed-in browser may only follow a link for an address
 * of its own user; any other link is refused before its token is spent, so that it still works
 * once the user has signed out.
 */
import type { ActionContext } from "../../actions/context.js"
import { AccountNotLinked } from "../../errors.js"
import type { EmailConfig } from "../../providers/email.js"
import { callAdapter } from "../../session/adapter-call.js"
import { signedInUserId } from "../../session/signed-in.js"
import { emailAdapter } from "./adapter.js"

export const SIGNED_IN_AS_ANOTHER_USER =
  "You are signed in as another user than the one this link is for: sign out first, then open the link again"

/** Throws `AccountNotLinked` when a user is signed in and the address is not theirs. */
export async function refuseLinkForAnotherUser(
  ctx: ActionContext,
  provider: EmailConfig,
  address: string,
): Promise<void> {
  const currentId = await signedInUserId(ctx)
  if (!currentId) return
  const adapter = emailAdapter(ctx)
  const key = { provider: provider.id, providerAccountId: address }
  const owner =
    (await callAdapter("getUserByAccount", () => adapter.getUserByAccount(key))) ??
    (await callAdapter("getUserByEmail", () => adapter.getUserByEmail(address)))
  // Nobody's address is refused too: a new address never joins the signed-in account.
  if (owner?.id !== currentId) throw new AccountNotLinked(SIGNED_IN_AS_ANOTHER_USER)
}
