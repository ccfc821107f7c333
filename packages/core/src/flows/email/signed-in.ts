/**
 * A link opened in a browser that is signed in as another user than the link's.
 *
 * The link proves that someone controls the address, not that this browser asked for it: anyone
 * can request a link for their own address and get a signed-in victim to open it (a top-level
 * navigation carries the session cookie). Attaching the address to the signed-in user would let
 * that someone sign in to the victim's account later with a fresh link; and switching the victim
 * to the sender's account would sign them in to an account the sender controls (login CSRF). So
 * such a link is refused before its token is spent, so that it still works once the user has
 * signed out — unless this browser asked for the link itself (`binding.ts`): then its user is
 * switching accounts, and the link replaces the session, as in Auth.js.
 */
import type { ActionContext } from "../../actions/context.js"
import { chunkIndex } from "../../cookies/chunks.js"
import type { CookieJar } from "../../cookies/jar.js"
import { AccountNotLinked } from "../../errors.js"
import type { EmailConfig } from "../../providers/email.js"
import { callAdapter } from "../../session/adapter-call.js"
import { deleteSessionOfToken, sessionTokenOf } from "../../session/database-strategy.js"
import { signedInUserId } from "../../session/signed-in.js"
import { emailAdapter } from "./adapter.js"

export const SIGNED_IN_AS_ANOTHER_USER =
  "You are signed in as another user than the one this link is for: sign out first, then open the link again"

/**
 * Whether the link switches the browser to another user: `true` when a user is signed in, the
 * address is not theirs, and this browser asked for the link (`askedForLink`). Throws
 * `AccountNotLinked` when the address is not theirs and the browser did not ask for it.
 */
export async function linkSwitchesUser(
  ctx: ActionContext,
  provider: EmailConfig,
  address: string,
  askedForLink: boolean,
): Promise<boolean> {
  const currentId = await signedInUserId(ctx)
  if (!currentId) return false
  const adapter = emailAdapter(ctx)
  const key = { provider: provider.id, providerAccountId: address }
  const owner =
    (await callAdapter("getUserByAccount", () => adapter.getUserByAccount(key))) ??
    (await callAdapter("getUserByEmail", () => adapter.getUserByEmail(address)))
  if (owner?.id === currentId) return false
  // Nobody's address is refused too: a new address never joins the signed-in account.
  if (!askedForLink) throw new AccountNotLinked(SIGNED_IN_AS_ANOTHER_USER)
  return true
}

/**
 * The request's cookies with the session cookie (and its chunks) hidden from reads; writes go
 * to the request's own cookies. A sign-in run on it sees no signed-in user, and its new session
 * cookie replaces the old one.
 */
function withoutSessionCookie(ctx: ActionContext): CookieJar {
  const { name } = ctx.cookieOptions.sessionToken
  const hidden = (cookie: string) => cookie === name || chunkIndex(cookie, name) >= 0
  return new Proxy(ctx.cookies, {
    get(jar, property) {
      if (property === "get") {
        return (cookie: string) => (hidden(cookie) ? undefined : jar.get(cookie))
      }
      if (property === "getChunked") {
        return (cookie: string) => (cookie === name ? undefined : jar.getChunked(cookie))
      }
      if (property === "hasChunked") {
        return (cookie: string) => (cookie === name ? false : jar.hasChunked(cookie))
      }
      if (property === "all") {
        return Object.fromEntries(Object.entries(jar.all).filter(([cookie]) => !hidden(cookie)))
      }
      // Everything else is the jar's own, run on the jar (its private fields live there).
      const value: unknown = Reflect.get(jar, property, jar)
      return typeof value === "function" ? (value as () => unknown).bind(jar) : value
    },
  })
}

/** Whether a sign-in wrote a new session cookie (rather than none, or a deletion). */
function wroteSession(ctx: ActionContext): boolean {
  const { name } = ctx.cookieOptions.sessionToken
  return ctx.cookies
    .toArray()
    .some(
      (cookie) =>
        (cookie.name === name || chunkIndex(cookie.name, name) >= 0) && cookie.value !== "",
    )
}

/**
 * Signs the browser in as the link's user in place of the signed-in one: `signIn` runs as if no
 * one were signed in (so the link's address is never attached to the other user) and writes a
 * new session — a new token, never the old one (no fixation). Once it has, the old database
 * session is deleted. When `signIn` starts no session (the `signIn` callback sent the user
 * elsewhere) or throws, the old session is left as it was.
 */
export async function replaceSession<T>(
  ctx: ActionContext,
  signIn: (ctx: ActionContext) => Promise<T>,
): Promise<T> {
  const database = ctx.config.session.strategy === "database"
  const oldToken = database ? sessionTokenOf(ctx) : undefined
  const result = await signIn({ ...ctx, cookies: withoutSessionCookie(ctx) })
  if (oldToken && wroteSession(ctx)) {
    if (ctx.config.adapter?.deleteSession) await deleteSessionOfToken(ctx, oldToken)
  }
  return result
}
