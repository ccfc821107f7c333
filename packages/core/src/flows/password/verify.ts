/**
 * `POST {basePath}/verify-email/<id>` with `token`, from the "Confirm your address" page the link
 * of a sign-up mail opens (or the link's own GET, with the provider's `continuePage: false`):
 * the link was followed, which proves that whoever asked controls the address.
 *
 * - A sign-up link (`signup`): the account is created with the address verified and the chosen
 *   password; or, when the address has an account by now, that account gets the password (the
 *   "exists" mail offered exactly that) and its address is marked verified — the password it
 *   had, and every session, end, as after a reset: what an unproven sign-up may have left
 *   (account pre-hijacking) is gone.
 * - A confirming link (`verify`, `requireEmailVerification: false`): the account's address is
 *   marked verified.
 *
 * Either way the user is signed in and sent where the sign-up form was headed.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import { Verification } from "../../errors.js"
import type { PasswordConfig } from "../../providers/password.js"
import { callAdapter } from "../../session/adapter-call.js"
import { establishSession } from "../../session/establish.js"
import { emitEvent } from "../../session/events.js"
import { endSessions, passwordIdentity } from "./common.js"
import { spendLinkToken, type LinkClaims } from "./links.js"
import { passwordAdapter } from "./sign-in.js"

function linkAdapter(ctx: ActionContext) {
  return passwordAdapter(ctx, ["createUser", "updateUser", "getUser"])
}

/** Marks the user's address verified, once. */
async function markVerified(ctx: ActionContext, user: AdapterUser): Promise<AdapterUser> {
  if (user.emailVerified) return user
  const adapter = linkAdapter(ctx)
  const updated = await callAdapter("updateUser", () =>
    adapter.updateUser({ id: user.id, emailVerified: new Date() }),
  )
  await emitEvent(ctx, "updateUser", { user: updated })
  return updated
}

/** A sign-up link: the account it asked for, or the existing one with the chosen password. */
async function finishSignUp(
  ctx: ActionContext,
  claims: LinkClaims,
): Promise<{ user: AdapterUser; isNewUser: boolean }> {
  const adapter = linkAdapter(ctx)
  const hash = claims.hash
  if (!hash) throw new Verification("The sign-up link carries no password")
  const existing = await callAdapter("getUserByEmail", () => adapter.getUserByEmail(claims.email))
  if (existing) {
    await callAdapter("setPasswordHash", () => adapter.setPasswordHash(existing.id, hash))
    await endSessions(ctx, existing.id)
    return { user: await markVerified(ctx, existing), isNewUser: false }
  }
  const user = await callAdapter("createUser", () =>
    adapter.createUser({
      id: crypto.randomUUID(),
      email: claims.email,
      emailVerified: new Date(),
      ...(claims.name ? { name: claims.name } : {}),
    }),
  )
  await callAdapter("setPasswordHash", () => adapter.setPasswordHash(user.id, hash))
  await emitEvent(ctx, "createUser", { user })
  return { user, isNewUser: true }
}

/** A confirming link: the account it was mailed for, if it still has that address. */
async function finishVerify(ctx: ActionContext, claims: LinkClaims): Promise<AdapterUser> {
  const adapter = linkAdapter(ctx)
  const userId = claims.userId
  const user = userId ? await callAdapter("getUser", () => adapter.getUser(userId)) : null
  if (!user || user.email !== claims.email)
    throw new Verification("The account of the link is gone or has another address")
  return markVerified(ctx, user)
}

/** Redeems the link's token; returns where the user goes. */
export async function verifyEmail(
  ctx: ActionContext,
  provider: PasswordConfig,
  token: unknown,
): Promise<string> {
  const claims = await spendLinkToken(ctx, token, ["signup", "verify"])
  const { user, isNewUser } =
    claims.purpose === "signup"
      ? await finishSignUp(ctx, claims)
      : { user: await finishVerify(ctx, claims), isNewUser: false }
  const callbackUrl = await checkedCallbackUrl(ctx, claims.callbackUrl)
  const { redirect } = await establishSession(
    ctx,
    passwordIdentity(provider, user, isNewUser),
    callbackUrl,
  )
  return redirect
}

/**
 * The `callbackUrl` the form was posted with, through the `redirect` callback again (it was
 * checked then; the configuration may have changed since the mail went out).
 */
export async function checkedCallbackUrl(ctx: ActionContext, url: string): Promise<string> {
  try {
    const checked = await ctx.config.callbacks.redirect({ url, baseUrl: ctx.origin })
    return new URL(checked, ctx.origin).href
  } catch {
    return ctx.origin
  }
}
