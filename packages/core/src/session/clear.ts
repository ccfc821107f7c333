/** Ending a session: delete it (cookie, and database row), then tell the `signOut` event. */
import type { ActionContext } from "../actions/context.js"
import { clearProof } from "../account/proof.js"
import { deleteDatabaseSession, sessionTokenOf } from "./database-strategy.js"
import { emitEvent } from "./events.js"
import { clearSessionToken } from "./jwt-cookie.js"
import { readSessionToken } from "./jwt-strategy.js"

/**
 * Deletes the session and emits `signOut` with what it was: the stored session (database
 * strategy) or the token (JWT strategy).
 */
export async function clearSession(ctx: ActionContext): Promise<void> {
  // The session's proof of who was there goes with it.
  clearProof(ctx)
  if (ctx.config.session.strategy === "database") {
    const present = sessionTokenOf(ctx) !== undefined
    const session = await deleteDatabaseSession(ctx)
    // A session still under an old cookie name signs out too.
    if (present || session) await emitEvent(ctx, "signOut", { session })
    return
  }
  const { present, token } = await readSessionToken(ctx)
  clearSessionToken(ctx)
  if (present) await emitEvent(ctx, "signOut", { token })
}
