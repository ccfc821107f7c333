/** Where passkey-first sign-up's page is: the app's `pages.passkeySignUp`, or the built-in one. */
import type { ActionContext } from "../../actions/context.js"
import { withQuery } from "../../lib/url.js"

/** The sign-up page for `provider` (an app's own page gets `?provider=` too), with `query`. */
export function passkeySignUpUrl(
  ctx: Pick<ActionContext, "config" | "actionBase">,
  provider: string,
  query: Record<string, string | undefined> = {},
): string {
  const own = ctx.config.pages.passkeySignUp
  if (own) return withQuery(own, { provider, ...query })
  return withQuery(`${ctx.actionBase}/passkey-signup/${encodeURIComponent(provider)}`, query)
}
