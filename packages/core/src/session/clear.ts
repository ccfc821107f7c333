/** Ending a session: delete the cookie, then tell the `signOut` event which token it was. */
import type { ActionContext } from "../actions/context.js"
import { emitEvent } from "./events.js"
import { clearSessionToken, readSessionToken } from "./jwt-strategy.js"

/** Deletes the session cookie and emits `signOut` with the token it held (or `null`). */
export async function clearSession(ctx: ActionContext): Promise<void> {
  const { present, token } = await readSessionToken(ctx)
  clearSessionToken(ctx)
  if (present) await emitEvent(ctx, "signOut", { token })
}
