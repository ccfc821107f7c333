/**
 * `POST {basePath}/signup/<id>`: someone asks for a password account.
 *
 * With `requireEmailVerification` (the default) no account is created here. The chosen
 * password is hashed and sealed into a link mailed to the address; the account exists once the
 * link is followed (`verify.ts`) — with one click in this browser, or with the chosen password
 * typed in any other (`sign-up-browser.ts`), so that following a stranger's link creates
 * nothing. An address that already has an account gets a mail saying that someone tried to sign
 * up with it, offering to sign in or reset the password: nothing the stranger typed reaches the
 * account. Either way the same work is done (one lookup, one hash, one stored token, one mail)
 * and the answer is the same "check your email" page, so the form reveals nothing about who has
 * an account, and an unproven address never holds an account someone else could later adopt.
 *
 * Without verification the account is created and signed in at once (its address marked
 * unverified, and a confirming link mailed); an address that has an account gets the "exists"
 * mail and the "check your email" page, which — unlike the default — does tell the two apart.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import { AccessDenied, PasswordError } from "../../errors.js"
import type { PasswordConfig, PasswordSettings } from "../../providers/password.js"
import { callAdapter } from "../../session/adapter-call.js"
import { establishSession } from "../../session/establish.js"
import { emitEvent } from "../../session/events.js"
import { resolveCallbackUrl } from "../../security/redirect.js"
import { withQuery } from "../../lib/url.js"
import {
  checkYourEmailUrl,
  passwordIdentity,
  postedName,
  postedPassword,
  requireAllowedPassword,
} from "./common.js"
import { createLinkToken, type LinkClaims } from "./links.js"
import { bindToBrowser } from "./sign-up-browser.js"
import { sendPasswordMail } from "./mail.js"
import { hashNewPassword, withinHashingBudget } from "./hashing.js"
import { withinMailLimits } from "./rate-limit.js"
import { accountAddress, passwordAdapter } from "./sign-in.js"

/** The URL of a link of the provider's: `verify-email` for sign-ups. */
export function linkUrl(
  ctx: ActionContext,
  provider: PasswordConfig,
  action: "verify-email" | "new-password",
  token: string,
): string {
  return withQuery(`${ctx.actionBase}/${action}/${encodeURIComponent(provider.id)}`, { token })
}

/** Asks the `signIn` callback whether this address may have an account. */
async function allowSignUp(
  ctx: ActionContext,
  provider: PasswordConfig,
  email: string,
  name: string | undefined,
): Promise<void> {
  let verdict: boolean | string
  try {
    verdict = await ctx.config.callbacks.signIn({
      user: { id: email, email, ...(name ? { name } : {}) },
      account: { provider: provider.id, type: "credentials", providerAccountId: email },
      email: { verificationRequest: true },
      credentials: { email, ...(name ? { name } : {}) },
    })
  } catch (error) {
    const message = error instanceof Error ? error.message : "The signIn callback threw"
    throw new AccessDenied(message, { cause: error })
  }
  // A URL is where a sign-in would go instead; a sign-up has nowhere else to go: refused too.
  if (verdict !== true) throw new AccessDenied("The signIn callback refused the sign-up")
}

/**
 * Mails the sign-up link; or, to an address that has an account, a notice that someone tried to
 * sign up with it — with links to sign in and to reset the password, and nothing the stranger
 * typed. Either way the same work is done (a link token is stored, both mails are rendered, one
 * is sent), so neither the answer nor its timing says which it was.
 */
async function mailSignUpLink(
  ctx: ActionContext,
  provider: PasswordConfig,
  settings: PasswordSettings,
  claims: LinkClaims,
  exists: boolean,
): Promise<void> {
  // For an address with an account the token is a decoy: its link is never mailed.
  const { token, expires } = await createLinkToken(ctx, claims, settings.verifyMaxAge)
  const link = {
    kind: "verify",
    input: { url: linkUrl(ctx, provider, "verify-email", token), expires },
  } as const
  const signIn = ctx.config.pages.signIn ?? `${ctx.actionBase}/signin`
  const reset = ctx.config.pages.resetPassword ?? `${ctx.actionBase}/reset-password`
  const notice = {
    kind: "exists",
    input: {
      signInUrl: new URL(signIn, ctx.origin).href,
      resetUrl: new URL(reset, ctx.origin).href,
      when: new Date(),
    },
  } as const
  const [sent, decoy] = exists ? [notice, link] : [link, notice]
  await sendPasswordMail(
    ctx,
    provider,
    settings,
    claims.email,
    sent.kind,
    sent.input,
    "signUp",
    decoy,
  )
}

/** Creates an unverified account at once (`requireEmailVerification: false`) and signs it in. */
async function createNow(
  ctx: ActionContext,
  provider: PasswordConfig,
  settings: PasswordSettings,
  fields: { email: string; name?: string; hash: string; callbackUrl: string },
): Promise<string> {
  const adapter = passwordAdapter(ctx, ["createUser"])
  const user: AdapterUser = await callAdapter("createUser", () =>
    adapter.createUser({
      id: crypto.randomUUID(),
      email: fields.email,
      emailVerified: null,
      ...(fields.name ? { name: fields.name } : {}),
    }),
  )
  await callAdapter("setPasswordHash", () => adapter.setPasswordHash(user.id, fields.hash))
  await emitEvent(ctx, "createUser", { user })
  const claims = {
    purpose: "verify",
    email: fields.email,
    userId: user.id,
    callbackUrl: fields.callbackUrl,
  } as const
  const { token, expires } = await createLinkToken(ctx, claims, settings.verifyMaxAge)
  // The account exists either way: a mail that did not go out is logged, and can be asked again.
  await sendPasswordMail(
    ctx,
    provider,
    settings,
    fields.email,
    "verify",
    { url: linkUrl(ctx, provider, "verify-email", token), expires },
    undefined,
  )
  const { redirect } = await establishSession(
    ctx,
    passwordIdentity(provider, user, true),
    fields.callbackUrl,
  )
  return redirect
}

/** Handles the sign-up form; returns where the user goes. */
export async function signUp(
  ctx: ActionContext,
  provider: PasswordConfig,
  settings: PasswordSettings,
): Promise<string> {
  if (!settings.signUp)
    throw new PasswordError("sign-up is off", { code: "sign_up_closed", page: "signUp" })
  const { body } = ctx.request
  const email = accountAddress(body.email)
  if (!email)
    throw new PasswordError("not one plain address", { code: "invalid_email", page: "signUp" })
  const password = postedPassword(body.password)
  const name = postedName(body.name)
  await requireAllowedPassword(ctx, settings, password, { email, name }, "signUp")
  const callbackUrl = await resolveCallbackUrl(ctx)
  await allowSignUp(ctx, provider, email, name)
  // Whatever happens next (a link, a notice, a limit), this browser is the one that asked: its
  // own click on the link confirms at once (`sign-up-browser.ts`).
  const bind = await bindToBrowser(ctx, settings.verifyMaxAge)
  const next = checkYourEmailUrl(ctx, provider, "signup", email)
  if (!(await withinMailLimits(ctx, "signup", provider.id, email))) {
    ctx.logger.debug("password sign-up: rate limit reached, no mail sent", {
      provider: provider.id,
    })
    return next
  }
  // Budgeted before the derivation: over a budget, nothing is hashed and nothing is mailed.
  if (!(await withinHashingBudget(ctx, settings))) {
    ctx.logger.debug("password sign-up: hashing budget reached, no mail sent", {
      provider: provider.id,
    })
    return next
  }
  const adapter = passwordAdapter(ctx)
  const [hash, existing] = await Promise.all([
    hashNewPassword(ctx, settings, password, "signUp"),
    callAdapter("getUserByEmail", () => adapter.getUserByEmail(email)),
  ])
  if (!existing && !settings.requireEmailVerification)
    return createNow(ctx, provider, settings, { email, name, hash, callbackUrl })
  const claims: LinkClaims = {
    purpose: "signup",
    email,
    hash,
    callbackUrl,
    bind,
    ...(name ? { name } : {}),
  }
  await mailSignUpLink(ctx, provider, settings, claims, existing !== null)
  return next
}
