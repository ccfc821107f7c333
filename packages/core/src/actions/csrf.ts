/** `GET {basePath}/csrf` → `{ csrfToken }`; 404 when the CSRF check is turned off. */
import { ensureCSRFToken } from "../security/csrf.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"

export async function csrf(ctx: ActionContext): Promise<ResponseInternal> {
  if (ctx.config.skipCSRFCheck) {
    return { status: 404, body: { error: "NotFound", message: "The CSRF check is turned off" } }
  }
  return { status: 200, body: { csrfToken: await ensureCSRFToken(ctx) } }
}
