/**
 * The end of every sign-in, whatever the provider: the `signIn` callback decides, the user is
 * matched to a stored one (with an adapter), the `jwt` callback shapes the token, the session
 * cookie is set and the `signIn` event fires.
 */
import type { ActionContext } from "../actions/context.js"
import { AccessDenied, CallbackRouteError } from "../errors.js"
import type { AdapterAuthenticator } from "../adapters.js"
import type { JWT } from "../jwt.js"
import type { Account, Profile, User } from "../types.js"
import { emitEvent } from "./events.js"
import { resolveUser } from "./link-account.js"
import { createDatabaseSession } from "./database-strategy.js"
import { clearSessionToken, writeSessionToken } from "./jwt-strategy.js"
import { refreshingProvider, sessionTokensOf } from "./refresh-config.js"

/** Who signed in, as a flow found out. */
export interface Identity {
  user: User
  account: Account
  profile?: Profile
  /** The submitted form, for credentials sign-ins. */
  credentials?: Record<string, unknown>
  /** A WebAuthn credential to store for the user (a registration). */
  authenticator?: Omit<AdapterAuthenticator, "userId">
  /** Whether the flow creates the user (a WebAuthn registration without a signed-in user). */
  isNewUser?: boolean
  /** A passkey sign-in whose authenticator verified the user (two factors in one). */
  userVerified?: boolean
}

/** A sign-in ready for its session: the user resolved, the second factor (if any) passed. */
export interface CompletedSignIn {
  user: User
  account: Account
  profile?: Profile
  isNewUser: boolean
}

/** The outcome: where to send the user. */
export type SignInOutcome = { redirect: string }

/**
 * Runs the `signIn` callback. `false` or a throw → `AccessDenied` carrying the thrown message;
 * a string → the URL to send the user to instead.
 */
async function allowSignIn(ctx: ActionContext, identity: Identity): Promise<true | string> {
  let verdict: boolean | string
  try {
    verdict = await ctx.config.callbacks.signIn({
      user: identity.user,
      account: identity.account,
      profile: identity.profile,
      credentials: identity.credentials,
    })
  } catch (error) {
    const message = error instanceof Error ? error.message : "The signIn callback threw"
    throw new AccessDenied(message, { cause: error })
  }
  if (verdict === false) throw new AccessDenied("The signIn callback refused the sign-in")
  if (typeof verdict === "string") return new URL(verdict, ctx.origin).href
  return true
}

/** Starts the session for an identity and returns where the user goes next. */
export async function establishSession(
  ctx: ActionContext,
  identity: Identity,
  callbackUrl: string,
  options: { allowEmailLinking: boolean } = { allowEmailLinking: false },
): Promise<SignInOutcome> {
  const allowed = await allowSignIn(ctx, identity)
  if (allowed !== true) return { redirect: allowed }
  const { account, profile } = identity
  const { user, isNewUser } = await resolveUser(ctx, identity, options)
  // Every primary method ends here: a user with a second factor gets no session before its code.
  if (ctx.config.twoFactor) {
    const { secondFactorStep } = await import("../flows/two-factor/gate.js")
    const step = await secondFactorStep(ctx, user, identity)
    if (step !== "none") {
      const { holdSignIn } = await import("../flows/two-factor/pending.js")
      await holdSignIn(ctx, {
        userId: String(user.id),
        account,
        ...(profile ? { profile } : {}),
        isNewUser,
        callbackUrl: destination(ctx, isNewUser, callbackUrl),
        mode: step,
      })
      const page = step === "enrol" ? ctx.config.pages.twoFactorSetup : ctx.config.pages.twoFactor
      return { redirect: new URL(page ?? `${ctx.actionBase}/two-factor`, ctx.origin).href }
    }
  }
  return startSession(ctx, { user, account, profile, isNewUser }, callbackUrl)
}

/**
 * The session of a completed sign-in: a database row, or the `jwt` callback's token in the
 * cookie; then the `signIn` event. Returns where the user goes.
 */
export async function startSession(
  ctx: ActionContext,
  { user, account, profile, isNewUser }: CompletedSignIn,
  callbackUrl: string,
): Promise<SignInOutcome> {
  if (ctx.config.session.strategy === "database") {
    await startDatabaseSession(ctx, user)
    await emitEvent(ctx, "signIn", { user, account, profile, isNewUser })
    return { redirect: destination(ctx, isNewUser, callbackUrl) }
  }
  const defaultToken: JWT = {
    name: user.name,
    email: user.email,
    picture: user.image,
    sub: user.id === undefined ? undefined : String(user.id),
  }
  // A provider with `refresh` on: the session keeps its tokens, to renew them when due.
  if (refreshingProvider(ctx.config, account.provider) && account.access_token) {
    defaultToken.oauth = sessionTokensOf(account)
  }
  let token: JWT | null
  try {
    token = await ctx.config.callbacks.jwt({
      token: defaultToken,
      user,
      account,
      profile,
      isNewUser,
      trigger: isNewUser ? "signUp" : "signIn",
    })
  } catch (error) {
    throw new CallbackRouteError("The jwt callback threw during sign-in", { cause: error })
  }
  if (token) await writeSessionToken(ctx, token)
  else clearSessionToken(ctx)
  await emitEvent(ctx, "signIn", { user, account, profile, isNewUser })
  return { redirect: destination(ctx, isNewUser, callbackUrl) }
}

/** New users go to `pages.newUser` when it is set. */
function destination(ctx: ActionContext, isNewUser: boolean, callbackUrl: string): string {
  const { newUser } = ctx.config.pages
  return isNewUser && newUser ? new URL(newUser, ctx.origin).href : callbackUrl
}

/** A database session for the (stored) user, with the device it signed in on. */
async function startDatabaseSession(ctx: ActionContext, user: User): Promise<void> {
  await createDatabaseSession(ctx, String(user.id), {
    userAgent: ctx.request.headers.get("user-agent"),
    clientAddress: ctx.clientAddress,
  })
}
