/**
 * `POST {basePath}/verify-email/<id>` with `token`, from the "Confirm your address" page the link
 * of a sign-up mail opens (or the link's own GET, with the provider's `continuePage: false`,
 * when the link is opened in the browser that asked for it): whoever follows the link reads the
 * address's mail. That alone proves the address, not that they are the one who typed the
 * password sealed in the link — so:
 *
 * - A sign-up link (`signup`) creates the account, with the address verified and the chosen
 *   password, when it is followed in the browser that signed up (`sign-up-browser.ts`) or with
 *   that password typed on the page: a stranger's sign-up, followed by the address's owner or
 *   their mail scanner, creates nothing. When the address has an account by now, the link is
 *   refused: it never sets a password on an existing account.
 * - A confirming link (`verify`, `requireEmailVerification: false`, mailed when the account was
 *   created) marks the address verified, keeping what the account holds, when it is followed
 *   by the one who created the account: in a browser signed in to it, or with its password typed
 *   on the page. Anyone else who follows it proves the address without knowing the password:
 *   they adopt the account clean (`account/adopt.ts`) — the password, second factor,
 *   passkeys and sessions someone set before the address was proven are removed.
 *
 * Either way the user is signed in and sent where the sign-up form was headed.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import { adoptAccount } from "../../account/adopt.js"
import { PasswordError, Verification } from "../../errors.js"
import type { PasswordConfig, PasswordSettings } from "../../providers/password.js"
import { counterKey, counters } from "../../security/counter.js"
import { callAdapter } from "../../session/adapter-call.js"
import { establishSession } from "../../session/establish.js"
import { emitEvent } from "../../session/events.js"
import { signedInUserId } from "../../session/signed-in.js"
import { passwordIdentity, postedPassword } from "./common.js"
import { checkPassword } from "./hashing.js"
import { readLinkToken, spendLinkToken, type LinkClaims } from "./links.js"
import { passwordAdapter } from "./sign-in.js"
import { forgetSignUp, isAskingBrowser } from "./sign-up-browser.js"

/** Tries at the password on one link's page before the link stops working. */
export const CONFIRM_ATTEMPTS = 5

function linkAdapter(ctx: Pick<ActionContext, "config">) {
  return passwordAdapter(ctx, ["createUser", "updateUser", "getUser"])
}

/**
 * Who follows the link, besides someone who reads the address's mail:
 * - `"asker"`: the browser that signed up, or one signed in to the link's account;
 * - `"password"`: someone who typed the password (checked later, when posted);
 * - `"stranger"`: neither (a sign-up link then needs the password; a confirming link adopts).
 */
export type LinkHolder = "asker" | "password" | "stranger"

/** Whether this browser asked for the link (the sign-up) or is signed in to its account. */
export async function isAskerOf(ctx: ActionContext, claims: LinkClaims): Promise<boolean> {
  if (claims.purpose === "signup") return isAskingBrowser(ctx, claims.bind)
  return claims.userId !== undefined && (await signedInUserId(ctx)) === claims.userId
}

/**
 * Counts a try at the password on the link's page: at most `CONFIRM_ATTEMPTS` per link, so that
 * the password sealed in a link found in someone's mail cannot be guessed there.
 */
async function countTry(ctx: ActionContext, token: string): Promise<void> {
  const key = await counterKey(ctx.config, "password:confirm", token)
  const count = await counters(ctx.config)(key, new Date(Date.now() + 24 * 60 * 60 * 1000))
  if (count > CONFIRM_ATTEMPTS)
    throw new PasswordError("too many tries at the link's password", {
      code: "rate_limited",
      page: "confirmEmail",
    })
}

/** Whether `password` is the one the link's sign-up chose, or the account's current one. */
async function knowsPassword(
  ctx: ActionContext,
  settings: PasswordSettings,
  claims: LinkClaims,
  password: string,
): Promise<boolean> {
  let hash: string | null | undefined = claims.hash
  if (claims.purpose === "verify") {
    const adapter = passwordAdapter(ctx)
    hash = await callAdapter("getPasswordHash", () => adapter.getPasswordHash(claims.userId!))
  }
  if (!hash || !password) return false
  return (await checkPassword(ctx, settings, password, hash, "confirmEmail")).ok
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

/** A sign-up link: the account it asked for, unless the address has one by now. */
async function finishSignUp(ctx: ActionContext, claims: LinkClaims): Promise<AdapterUser> {
  const adapter = linkAdapter(ctx)
  const hash = claims.hash
  if (!hash) throw new Verification("The sign-up link carries no password")
  const existing = await callAdapter("getUserByEmail", () => adapter.getUserByEmail(claims.email))
  // Never a password on an existing account: its owner signs in, or resets theirs.
  if (existing) throw new Verification("The address of the sign-up link has an account by now")
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
  return user
}

/**
 * A confirming link: the account it was mailed for, if it still has that address — verified,
 * and adopted clean unless its creator followed the link.
 */
async function finishVerify(
  ctx: ActionContext,
  claims: LinkClaims,
  holder: LinkHolder,
): Promise<AdapterUser> {
  const adapter = linkAdapter(ctx)
  const userId = claims.userId
  const user = userId ? await callAdapter("getUser", () => adapter.getUser(userId)) : null
  if (!user || user.email !== claims.email)
    throw new Verification("The account of the link is gone or has another address")
  if (holder === "stranger") return adoptAccount(ctx, user)
  return markVerified(ctx, user)
}

/** What the link's page posted besides the token. */
export interface ConfirmFields {
  /** The password chosen at sign-up, or the account's: its creator confirming elsewhere. */
  password?: unknown
  /** `"1"`: someone who did not create the account takes it over (a confirming link). */
  adopt?: unknown
}

/**
 * Redeems the link's token; returns where the user goes. Throws `PasswordError` with `page:
 * "confirmEmail"` when the page must ask again: the password is missing (`password_required`)
 * or wrong (`wrong_password`), or tried too often (`rate_limited`).
 */
export async function verifyEmail(
  ctx: ActionContext,
  provider: PasswordConfig,
  settings: PasswordSettings,
  token: unknown,
  fields: ConfirmFields,
): Promise<string> {
  const opened = await readLinkToken(ctx, token, ["signup", "verify"])
  const holder = await holderOf(ctx, settings, opened, token as string, fields)
  const claims = await spendLinkToken(ctx, token, ["signup", "verify"])
  if (claims.purpose === "signup") forgetSignUp(ctx)
  const isNewUser = claims.purpose === "signup"
  const user = isNewUser ? await finishSignUp(ctx, claims) : await finishVerify(ctx, claims, holder)
  const callbackUrl = await checkedCallbackUrl(ctx, claims.callbackUrl)
  const { redirect } = await establishSession(
    ctx,
    passwordIdentity(provider, user, isNewUser),
    callbackUrl,
  )
  return redirect
}

/** Who follows the link, from this browser and what the page posted; refuses when unsure. */
async function holderOf(
  ctx: ActionContext,
  settings: PasswordSettings,
  claims: LinkClaims,
  token: string,
  fields: ConfirmFields,
): Promise<LinkHolder> {
  if (await isAskerOf(ctx, claims)) return "asker"
  const password = postedPassword(fields.password)
  if (password) {
    await countTry(ctx, token)
    if (await knowsPassword(ctx, settings, claims, password)) return "password"
    throw new PasswordError("not the link's password", {
      code: "wrong_password",
      page: "confirmEmail",
    })
  }
  if (claims.purpose === "verify" && fields.adopt === "1") return "stranger"
  throw new PasswordError("the link's password is asked in another browser", {
    code: "password_required",
    page: "confirmEmail",
  })
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
