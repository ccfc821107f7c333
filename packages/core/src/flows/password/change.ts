/**
 * `POST {basePath}/change-password/<id>`: the signed-in user changes their password. The
 * current password is required — a session left open on a shared computer must not be enough
 * to lock its owner out — and its attempts are limited per account. Then the new password is
 * checked against the policy and stored, every other session of the user ends (database
 * strategy; this one stays), and a notification is mailed. It is a change of the account's ways
 * in (`account/change.ts`): for a user with a second factor, the session must also hold fresh
 * proof of that factor. The current password again is refused (`same_password`).
 *
 * An account without a password gets one through the reset link instead (`no_password`): a
 * mailed link proves the address, a session alone does not.
 */
import type { ActionContext } from "../../actions/context.js"
import { PasswordError } from "../../errors.js"
import { normalizePassword } from "../../password/hash.js"
import type { PasswordConfig, PasswordSettings } from "../../providers/password.js"
import { callAdapter } from "../../session/adapter-call.js"
import { readDatabaseSession } from "../../session/database-strategy.js"
import { signedInUserId } from "../../session/signed-in.js"
import { resolveCallbackUrl } from "../../security/redirect.js"
import { postedPassword, requireAllowedPassword } from "./common.js"
import { endUserSessions } from "../../session/end-sessions.js"
import { checkPassword, hashNewPassword } from "./hashing.js"
import { PASSWORD_LIMITS, withinChangeLimit } from "./rate-limit.js"
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
  const { changeAccount } = await import("../../account/change.js")
  await changeAccount(ctx, {
    user,
    change: { type: "passwordChanged" },
    // The current password is the proof (with the second factor's, for a user who has one).
    proof: "password",
    apply: async () => {
      if (!(await withinChangeLimit(ctx, user.id)))
        throw new PasswordError("too many attempts", {
          code: "rate_limited",
          page: "changePassword",
          retryAfter: PASSWORD_LIMITS.changePerAccount.window,
        })
      const stored = await callAdapter("getPasswordHash", () => adapter.getPasswordHash(user.id))
      if (!stored)
        throw new PasswordError("the account has none", {
          code: "no_password",
          page: "changePassword",
        })
      const current = postedPassword(ctx.request.body.currentPassword)
      const check = await checkPassword(ctx, settings, current, stored, "changePassword")
      if (!check.ok)
        throw new PasswordError("wrong password", {
          code: "wrong_password",
          page: "changePassword",
        })
      const password = postedPassword(ctx.request.body.password)
      // The one just checked: a "change" that changes nothing would still end the other
      // sessions and mail a notice of a change that did not happen.
      if (normalizePassword(password) === normalizePassword(current))
        throw new PasswordError("the new password is the current one", {
          code: "same_password",
          page: "changePassword",
        })
      await requireAllowedPassword(ctx, settings, password, user, "changePassword")
      const hash = await hashNewPassword(ctx, settings, password, "changePassword")
      await callAdapter("setPasswordHash", () => adapter.setPasswordHash(user.id, hash))
      await endUserSessions(ctx, user.id, (await currentSessionToken(ctx)) ?? "")
    },
  })
  return resolveCallbackUrl(ctx)
}
