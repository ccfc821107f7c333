/**
 * `POST {basePath}/change-password/<id>`: the signed-in user changes their password. The
 * current password is required — a session left open on a shared computer must not be enough
 * to lock its owner out — and its attempts are limited per account. Then the new password is
 * checked against the policy and stored, every other session of the user ends (database
 * strategy; this one stays), and a notification is mailed.
 *
 * An account without a password gets one through the reset link instead (`no_password`): a
 * mailed link proves the address, a session alone does not.
 */
import type { ActionContext } from "../../actions/context.js"
import { PasswordError } from "../../errors.js"
import { hashPassword, verifyPassword } from "../../password/hash.js"
import type { PasswordConfig, PasswordSettings } from "../../providers/password.js"
import { callAdapter } from "../../session/adapter-call.js"
import { readDatabaseSession } from "../../session/database-strategy.js"
import { signedInUserId } from "../../session/signed-in.js"
import { resolveCallbackUrl } from "../../security/redirect.js"
import { endSessions, postedPassword, requireAllowedPassword } from "./common.js"
import { PASSWORD_LIMITS, withinChangeLimit } from "./rate-limit.js"
import { notifyChanged } from "./reset.js"
import { passwordAdapter } from "./sign-in.js"

/** The session token of the request (database strategy), to keep while ending the others. */
async function currentSessionToken(ctx: ActionContext): Promise<string | undefined> {
  if (ctx.config.session.strategy !== "database") return undefined
  return (await readDatabaseSession(ctx, { touch: false }))?.session.sessionToken
}

/** Handles the change-password form; returns where the user goes. */
export async function changePassword(
  ctx: ActionContext,
  provider: PasswordConfig,
  settings: PasswordSettings,
): Promise<string> {
  const userId = await signedInUserId(ctx)
  if (!userId) throw new PasswordError("no session", { code: "signed_out", page: "changePassword" })
  const adapter = passwordAdapter(ctx, ["getUser"])
  const user = await callAdapter("getUser", () => adapter.getUser(userId))
  if (!user)
    throw new PasswordError("the session's user is gone", {
      code: "signed_out",
      page: "changePassword",
    })
  if (!(await withinChangeLimit(ctx, user.id)))
    throw new PasswordError("too many attempts", {
      code: "rate_limited",
      page: "changePassword",
      retryAfter: PASSWORD_LIMITS.changePerAccount.window,
    })
  const stored = await callAdapter("getPasswordHash", () => adapter.getPasswordHash(user.id))
  if (!stored)
    throw new PasswordError("the account has none", { code: "no_password", page: "changePassword" })
  const current = postedPassword(ctx.request.body.currentPassword)
  const check = await verifyPassword(current, stored, settings.scrypt)
  if (!check.ok)
    throw new PasswordError("wrong password", { code: "wrong_password", page: "changePassword" })

  const password = postedPassword(ctx.request.body.password)
  await requireAllowedPassword(ctx, settings, password, user, "changePassword")
  const hash = await hashPassword(password, settings.scrypt)
  await callAdapter("setPasswordHash", () => adapter.setPasswordHash(user.id, hash))
  await endSessions(ctx, user.id, (await currentSessionToken(ctx)) ?? "")
  await notifyChanged(ctx, provider, settings, user.email)
  return resolveCallbackUrl(ctx)
}
