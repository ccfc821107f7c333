/** The user signed in on the request being answered, whatever the session strategy. */
import type { ActionContext } from "../actions/context.js"
import { readDatabaseSession } from "./database-strategy.js"
import { readSessionToken } from "./jwt-strategy.js"

/** The id of the user signed in on this request, if any. */
export async function signedInUserId(ctx: ActionContext): Promise<string | undefined> {
  if (ctx.config.session.strategy === "database") return (await readDatabaseSession(ctx))?.user.id
  const { token } = await readSessionToken(ctx)
  return typeof token?.sub === "string" ? token.sub : undefined
}
