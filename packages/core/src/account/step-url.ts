/**
 * Where the re-authentication step is, coming back to `callbackUrl`: `pages.reauthenticate`, else
 * `{basePath}/reauthenticate`, with `?callbackUrl=&error=ReauthenticationRequired&code=`. Loads
 * nothing else, for the places that only need the address (the options of a passkey, the
 * integrations' thrown error).
 */
import type { ActionContext } from "../actions/context.js"
import type { ReauthenticationCode } from "../errors.js"
import { withQuery } from "../lib/url.js"

export function reauthenticationUrl(
  ctx: Pick<ActionContext, "config" | "actionBase" | "origin">,
  callbackUrl: string,
  code: ReauthenticationCode,
): string {
  const step = ctx.config.pages.reauthenticate ?? `${ctx.actionBase}/reauthenticate`
  return withQuery(new URL(step, ctx.origin).href, {
    callbackUrl,
    error: "ReauthenticationRequired",
    code,
  })
}
