/**
 * Ending every database session of a user but, perhaps, the request's own: after a reset, a
 * change of password, a new second factor, or an address proven by its owner, whoever held a
 * session — perhaps the one who learned the old password — is out.
 *
 * JWT sessions live in the browser and cannot be deleted; those of an account whose address was
 * unproven carry a mark, and stop being read once the address is proven (`account/unproven.ts`).
 */
import type { ActionContext } from "../actions/context.js"
import { callAdapter } from "./adapter-call.js"
import { sessionCacheOf } from "./cache.js"

/**
 * Ends every database session of the user; `keep` is the stored token (the hash in the table)
 * of a session to spare. Without the adapter methods it needs, logs that the sessions were kept.
 */
export async function endUserSessions(
  ctx: Pick<ActionContext, "config" | "logger">,
  userId: string,
  keep?: string,
): Promise<void> {
  const adapter = ctx.config.adapter
  if (ctx.config.session.strategy !== "database" || !adapter) return
  // This instance's cached sessions of the user go too (other instances hear it from the
  // adapter's watch, or when their cache entries expire).
  sessionCacheOf(ctx.config)?.changed({ userId })
  if (!keep && adapter.deleteSessionsByUserId) {
    await callAdapter("deleteSessionsByUserId", () => adapter.deleteSessionsByUserId!(userId))
    return
  }
  if (!adapter.listSessionsByUserId || !adapter.deleteSession) {
    ctx.logger.error(
      new Error(
        "The account changed but the user's other sessions were kept: the adapter has neither deleteSessionsByUserId nor listSessionsByUserId with deleteSession",
      ),
    )
    return
  }
  const sessions = await callAdapter("listSessionsByUserId", () =>
    adapter.listSessionsByUserId!(userId),
  )
  for (const session of sessions) {
    if (session.sessionToken === keep) continue
    await callAdapter("deleteSession", () => adapter.deleteSession!(session.sessionToken))
  }
}
