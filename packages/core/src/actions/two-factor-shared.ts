/** What the two-factor actions share: the signed-in user, the recovery codes' answer, a sign-in completed. */
import type { AdapterUser } from "../adapters.js"
import { TwoFactorError } from "../errors.js"
import type { HeldSignIn } from "../flows/two-factor/pending.js"
import { htmlResponse } from "../response/html.js"
import { readDatabaseSession } from "../session/database-strategy.js"
import { emitEvent } from "../session/events.js"
import { startSession } from "../session/establish.js"
import { signedInUser as sessionUser } from "../session/signed-in.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"

/** The signed-in user, or `TwoFactorError("signed_out")`. */
export async function signedInUser(ctx: ActionContext): Promise<AdapterUser> {
  const user = await sessionUser(ctx)
  if (!user) throw new TwoFactorError("no session", { code: "signed_out" })
  return user
}

/** The request's database session token, to keep while ending the user's others. */
export async function currentToken(ctx: ActionContext): Promise<string | undefined> {
  if (ctx.config.session.strategy !== "database") return undefined
  return (await readDatabaseSession(ctx, { touch: false }))?.session.sessionToken
}

/** The recovery codes, as a page or as JSON for integrations. */
export async function showCodes(
  ctx: ActionContext,
  codes: string[],
  continueUrl: string,
  cookies?: ResponseInternal["cookies"],
): Promise<ResponseInternal> {
  if (ctx.returnRedirect)
    return { status: 200, body: { url: continueUrl, recoveryCodes: codes }, cookies }
  const { renderRecoveryCodesPage } = await import("../pages/two-factor.js")
  return {
    ...htmlResponse(renderRecoveryCodesPage({ theme: ctx.config.theme, codes, continueUrl })),
    cookies,
  }
}

/**
 * The pending sign-in's session, once its second factor passed (or was set up): the pending
 * state is spent first (a copy of it is refused), then the session starts, proven with the
 * second factor. Returns where to go.
 */
export async function completeSignIn(
  ctx: ActionContext,
  user: AdapterUser,
  pending: HeldSignIn,
  method: "totp" | "recovery" | "security-key",
): Promise<string> {
  const { spendSignIn } = await import("../flows/two-factor/pending.js")
  await spendSignIn(ctx, pending)
  const { account, profile, isNewUser, callbackUrl } = pending
  const { redirect } = await startSession(
    ctx,
    { user, account, profile, isNewUser, secondFactor: true },
    callbackUrl,
  )
  await emitEvent(ctx, "twoFactorVerified", { user, method })
  return redirect
}

/** The pending sign-in of `mode` and its user; `TwoFactorError("expired")` otherwise. */
export async function pendingOf(
  ctx: ActionContext,
  mode: HeldSignIn["mode"],
): Promise<{ pending: HeldSignIn; user: AdapterUser }> {
  const { pendingSignIn, dropSignIn } = await import("../flows/two-factor/pending.js")
  const { userById } = await import("../flows/two-factor/enrol.js")
  const pending = await pendingSignIn(ctx)
  const user = pending?.mode === mode ? await userById(ctx, pending.userId) : null
  if (!pending || !user) {
    if (mode === "verify") dropSignIn(ctx)
    throw new TwoFactorError("no pending sign-in", { code: "expired" })
  }
  return { pending, user }
}
