/**
 * Resetting a forgotten password.
 *
 * `POST {basePath}/reset-password/<id>` (the request): an address with an account gets a reset
 * link, bound to the password it replaces; an address without one gets a mail saying there is
 * no account (and where to create one). Both do the same work — one user lookup, one hash
 * lookup, one stored token, one mail — and answer the same "check your email" page, so neither
 * the answer nor its timing says whether the address has an account.
 *
 * `POST {basePath}/new-password/<id>` (the link's form): the new password is checked against the
 * policy before the link is spent (a refused password leaves the link usable); then the link is
 * spent, the address marked verified (the link proved it: an account whose address was unproven
 * is adopted clean, see `account/adopt.ts`), the password set, every session of the account
 * ended, the owner notified (`account/change.ts`), and the user signed in.
 */
import type { ActionContext } from "../../actions/context.js"
import { PasswordError, Verification } from "../../errors.js"
import type { PasswordConfig, PasswordSettings } from "../../providers/password.js"
import { callAdapter } from "../../session/adapter-call.js"
import { establishSession } from "../../session/establish.js"
import { resolveCallbackUrl } from "../../security/redirect.js"
import { adoptAccount } from "../../account/adopt.js"
import { endUserSessions } from "../../session/end-sessions.js"
import {
  checkYourEmailUrl,
  passwordIdentity,
  postedPassword,
  requireAllowedPassword,
} from "./common.js"
import {
  createLinkToken,
  passwordFingerprint,
  readLinkToken,
  spendLinkToken,
  type LinkClaims,
} from "./links.js"
import { hashNewPassword } from "./hashing.js"
import { sendPasswordMail } from "./mail.js"
import { PASSWORD_LIMITS, withinMailLimits, withinNewPasswordLimit } from "./rate-limit.js"
import { accountAddress, passwordAdapter } from "./sign-in.js"
import { linkUrl } from "./sign-up.js"
import { checkedCallbackUrl } from "./verify.js"

/** Handles the reset request; returns where the user goes ("check your email"). */
export async function requestReset(
  ctx: ActionContext,
  provider: PasswordConfig,
  settings: PasswordSettings,
): Promise<string> {
  const email = accountAddress(ctx.request.body.email)
  if (!email)
    throw new PasswordError("not one plain address", {
      code: "invalid_email",
      page: "resetPassword",
    })
  const callbackUrl = await resolveCallbackUrl(ctx)
  const next = checkYourEmailUrl(ctx, provider, "reset", email)
  if (!(await withinMailLimits(ctx, "reset", provider.id, email))) {
    ctx.logger.debug("password reset: rate limit reached, no mail sent", { provider: provider.id })
    return next
  }
  const adapter = passwordAdapter(ctx)
  const user = await callAdapter("getUserByEmail", () => adapter.getUserByEmail(email))
  // An id no account has, for the same lookup as an address with an account.
  const userId = user?.id ?? crypto.randomUUID()
  const current = await callAdapter("getPasswordHash", () => adapter.getPasswordHash(userId))
  const claims = {
    purpose: "reset",
    email,
    userId,
    replaces: await passwordFingerprint(ctx, current),
    callbackUrl,
  } as const
  // Stored for an unknown address too (it can never be used: no account has its id), so that
  // both answers cost the same.
  const { token, expires } = await createLinkToken(ctx, claims, settings.resetMaxAge)
  const signUpUrl = settings.signUp
    ? (ctx.config.pages.signUp ?? `${ctx.actionBase}/signup`)
    : undefined
  const link = {
    kind: "reset",
    input: { url: linkUrl(ctx, provider, "new-password", token), expires },
  } as const
  const notice = {
    kind: "no-account",
    input: { signUpUrl: signUpUrl && new URL(signUpUrl, ctx.origin).href, when: new Date() },
  } as const
  // Both mails are rendered whichever goes out, for the same work either way.
  const [sent, decoy] = user ? [link, notice] : [notice, link]
  await sendPasswordMail(
    ctx,
    provider,
    settings,
    email,
    sent.kind,
    sent.input,
    "resetPassword",
    decoy,
  )
  return next
}

/**
 * Opens a reset link without spending it, for the new-password form: refused when it is not
 * ours, expired, for an account that is gone, or for a password that has changed since (a
 * spent link shows the form, and is refused at its post: the adapter cannot look a token up
 * without using it up).
 */
export async function checkResetLink(ctx: ActionContext, token: unknown): Promise<void> {
  const opened = await readLinkToken(ctx, token, ["reset"])
  await linkAccount(ctx, opened)
}

/** The account a reset link is for, if it still has the link's address and password. */
async function linkAccount(ctx: ActionContext, opened: LinkClaims) {
  const adapter = passwordAdapter(ctx, ["getUser", "updateUser"])
  const user = opened.userId
    ? await callAdapter("getUser", () => adapter.getUser(opened.userId!))
    : null
  if (!user || user.email !== opened.email)
    throw new Verification("The account of the reset link is gone or has another address")
  const current = await callAdapter("getPasswordHash", () => adapter.getPasswordHash(user.id))
  if (opened.replaces !== (await passwordFingerprint(ctx, current)))
    throw new Verification("The password changed since the reset link was sent")
  return { adapter, user }
}

/** Handles the new password of a reset link; returns where the user goes (signed in). */
export async function setNewPassword(
  ctx: ActionContext,
  provider: PasswordConfig,
  settings: PasswordSettings,
): Promise<string> {
  const { token } = ctx.request.body
  if (!(await withinNewPasswordLimit(ctx)))
    throw new PasswordError("too many new passwords", {
      code: "rate_limited",
      page: "newPassword",
      retryAfter: PASSWORD_LIMITS.newPasswordPerClient.window,
    })
  const opened = await readLinkToken(ctx, token, ["reset"])
  const { adapter, user } = await linkAccount(ctx, opened)
  const password = postedPassword(ctx.request.body.password)
  await requireAllowedPassword(ctx, settings, password, user, "newPassword")

  // Hashed before the link is spent: a refusal at capacity (`busy`) leaves the link usable.
  const hash = await hashNewPassword(ctx, settings, password, "newPassword")
  // Spent now, and checked again: another request may have changed the password meanwhile.
  const claims = await spendLinkToken(ctx, token, ["reset"])
  await linkAccount(ctx, opened)
  // The link proved the address: an account that was unproven is adopted clean first (what a
  // squatter set — factor, passkeys, sessions — goes), then the password is the link's owner's.
  const updated = await adoptAccount(ctx, user)
  const { changeAccount } = await import("../../account/change.js")
  await changeAccount(ctx, {
    user: updated,
    change: { type: "passwordReset" },
    proof: "link",
    apply: async () => {
      await callAdapter("setPasswordHash", () => adapter.setPasswordHash(user.id, hash))
      await endUserSessions(ctx, user.id)
    },
  })
  const callbackUrl = await checkedCallbackUrl(ctx, claims.callbackUrl)
  const { redirect } = await establishSession(ctx, passwordIdentity(provider, updated), callbackUrl)
  return redirect
}
