/** The user signed in on the request being answered, whatever the session strategy. */
import type { ActionContext } from "../actions/context.js"
import type { AdapterUser } from "../adapters.js"
import { callAdapter } from "./adapter-call.js"
import { readDatabaseSession } from "./database-strategy.js"
import { readSessionToken } from "./jwt-strategy.js"

/** The id of the user signed in on this request, if any. */
export async function signedInUserId(ctx: ActionContext): Promise<string | undefined> {
  if (ctx.config.session.strategy === "database") return (await readDatabaseSession(ctx))?.user.id
  const { token } = await readSessionToken(ctx)
  return typeof token?.sub === "string" ? token.sub : undefined
}

/**
 * The stored user signed in on this request, or `null`: a database session's own user (read
 * with it, no second lookup), or the adapter's user of a JWT session's subject.
 */
export async function signedInUser(ctx: ActionContext): Promise<AdapterUser | null> {
  const adapter = ctx.config.adapter
  if (ctx.config.session.strategy === "database") {
    return adapter ? ((await readDatabaseSession(ctx))?.user ?? null) : null
  }
  if (!adapter?.getUser) return null
  const id = await signedInUserId(ctx)
  return id ? callAdapter("getUser", () => adapter.getUser!(id)) : null
}
