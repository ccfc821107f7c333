/**
 * The end of every sign-in, whatever the provider: the `signIn` callback decides, the user is
 * matched to a stored one (with an adapter), the `jwt` callback shapes the token, the session
 * cookie is set and the `signIn` event fires.
 */
import type { ActionContext } from "../actions/context.js"
import { AccessDenied, CallbackRouteError } from "../errors.js"
import type { AdapterUser } from "../adapters.js"
import type { JWT } from "../jwt.js"
import type { Account, AccountChange, Profile, User } from "../types.js"
import { emitEvent } from "./events.js"
import type { Identity } from "./identity.js"
import { resolveUser, storeMethod, type MethodToAdd } from "./link-account.js"
import { createDatabaseSession } from "./database-strategy.js"
import { clearSessionToken, writeSessionToken } from "./jwt-cookie.js"
import { refreshingProvider, sessionTokensOf } from "./refresh-config.js"

/** A sign-in ready for its session: the user resolved, the second factor (if any) passed. */
export interface CompletedSignIn {
  user: User
  account: Account
  profile?: Profile
  isNewUser: boolean
  /**
   * Whether the sign-in proved the user's second factor: a code, or a passkey that verified the
   * user. Recorded with the session's proof (`account/proof.ts`).
   */
  secondFactor: boolean
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
    // As Auth.js calls it: `profile` for OAuth, `credentials` for credentials, each only there.
    const { user, account, profile, credentials } = identity
    verdict = await ctx.config.callbacks.signIn({
      user,
      account,
      ...(profile === undefined ? {} : { profile }),
      ...(credentials === undefined ? {} : { credentials }),
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
  const { user, isNewUser, adds } = await resolveUser(ctx, identity, options)
  if (adds) return addToSignedInUser(ctx, user as AdapterUser, adds, callbackUrl)
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
  const secondFactor = identity.account.type === "webauthn" && identity.userVerified === true
  return startSession(ctx, { user, account, profile, isNewUser, secondFactor }, callbackUrl)
}

/** What an added method is, as a change of the account. */
function changeOf({ account }: MethodToAdd): AccountChange {
  return account.type === "webauthn"
    ? { type: "passkeyAdded", credentialID: account.providerAccountId }
    : {
        type: "accountLinked",
        provider: account.provider,
        providerAccountId: account.providerAccountId,
      }
}

/**
 * A sign-in method for the signed-in user (another provider, a new passkey): stored through the
 * account-change module, which asks for fresh proof first — with the second factor when the user
 * has one, so a stolen session alone adds no way in. The session stays the one the user had: a
 * database session is kept as it is; a JWT session is re-issued (the `jwt` callback sees the new
 * account, as on any sign-in), with the proof it had.
 */
async function addToSignedInUser(
  ctx: ActionContext,
  user: AdapterUser,
  method: MethodToAdd,
  callbackUrl: string,
): Promise<SignInOutcome> {
  const { changeAccount } = await import("../account/change.js")
  await changeAccount(ctx, {
    user,
    change: changeOf(method),
    proof: "session",
    apply: () => storeMethod(ctx, user, method),
  })
  const { account, profile } = method
  if (ctx.config.session.strategy === "database") {
    // As Auth.js does on a link: the `signIn` event, though the session is the one there was.
    await emitEvent(ctx, "signIn", { user, account, profile, isNewUser: false })
    return { redirect: callbackUrl }
  }
  return startSession(
    ctx,
    { user, account, profile, isNewUser: false, secondFactor: false },
    callbackUrl,
    { recordProof: false },
  )
}

/**
 * The session of a completed sign-in: a database row, or the `jwt` callback's token in the
 * cookie; then the `signIn` event. Returns where the user goes.
 */
export async function startSession(
  ctx: ActionContext,
  { user, account, profile, isNewUser, secondFactor }: CompletedSignIn,
  callbackUrl: string,
  { recordProof = true }: { recordProof?: boolean } = {},
): Promise<SignInOutcome> {
  // A sign-in is the freshest proof there is of who is there (`account/proof.ts`).
  const proven = async () => {
    if (!recordProof || user.id === undefined || user.id === null) return
    const { recordProof: record } = await import("../account/proof.js")
    await record(ctx, String(user.id), { secondFactor })
  }
  if (ctx.config.session.strategy === "database") {
    await startDatabaseSession(ctx, user)
    await proven()
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
    // As Auth.js calls it: `profile` only for OAuth sign-ins, which have one.
    token = await ctx.config.callbacks.jwt({
      token: defaultToken,
      user,
      account,
      ...(profile === undefined ? {} : { profile }),
      isNewUser,
      trigger: isNewUser ? "signUp" : "signIn",
    })
  } catch (error) {
    throw new CallbackRouteError("The jwt callback threw during sign-in", { cause: error })
  }
  if (token) {
    // A session of an account whose address is unproven ends once its owner proves it.
    const mark = await unprovenMarkOf(ctx, user)
    if (mark) {
      const { UNPROVEN_CLAIM } = await import("../account/unproven.js")
      token[UNPROVEN_CLAIM] = mark
    }
    await writeSessionToken(ctx, token)
    await proven()
  } else clearSessionToken(ctx)
  await emitEvent(ctx, "signIn", { user, account, profile, isNewUser })
  return { redirect: destination(ctx, isNewUser, callbackUrl) }
}

/** The mark of a session of an unproven account (`account/unproven.ts`); never without an adapter. */
async function unprovenMarkOf(ctx: ActionContext, user: User): Promise<string | null> {
  const stored = user as Partial<AdapterUser>
  if (!ctx.config.adapter?.getPasswordHash || stored.emailVerified || !user.email) return null
  const { unprovenMark } = await import("../account/unproven.js")
  return unprovenMark(ctx, user as AdapterUser)
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
