/**
 * `GET {basePath}/session` → the session or `null`.
 * `POST {basePath}/session` with JSON `{ csrfToken, data }` → the `jwt` callback runs with
 * `trigger: "update"` and `session: data`; the updated session is returned.
 */
import { readSession } from "../session/read.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"

export async function getSessionAction(ctx: ActionContext): Promise<ResponseInternal> {
  return { status: 200, body: (await readSession(ctx)) as ResponseInternal["body"] }
}

export async function updateSessionAction(ctx: ActionContext): Promise<ResponseInternal> {
  const session = await readSession(ctx, { data: ctx.request.body.data })
  return { status: 200, body: session as ResponseInternal["body"] }
}
