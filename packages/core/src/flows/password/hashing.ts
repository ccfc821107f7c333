/**
 * The password work of the Password provider's forms, bounded. In the order a request meets it:
 *
 * 1. Budgets, for the derivations anyone may ask for without an account, a link or a session:
 *    sign-ups. Counted in the shared counters before the hash, per client (an IPv4 address or an
 *    IPv6 /64: `ctx.client`) and then for the whole app (`withinHashingBudget`). Over either, the
 *    sign-up hashes nothing (sign-up.ts answers "check your email" as when the mail went out).
 * 2. The process's limiter (password/limiter.ts): a few derivations at once, sign-ins and
 *    account changes before sign-ups; past its queue, a refusal before any work, `code: "busy"`
 *    with `retryAfter` — a `PasswordError` on the forms, a `CredentialsSignin` on the sign-in,
 *    which response/from-error.ts answers with `Retry-After`.
 *
 * The other derivations are budgeted where they start: sign-ins by the credentials rate limit
 * (credentials/rate-limit.ts, before the account is looked up), new passwords by their link and
 * `withinNewPasswordLimit`, changes by the session and `withinChangeLimit`. They are not counted
 * again here. A sign-in of an unknown address waits in the same lane as one of a known address,
 * so that neither the wait nor a refusal says whether the address has an account.
 */
import type { ActionContext } from "../../actions/context.js"
import { CredentialsSignin, PasswordError, type FormPage } from "../../errors.js"
import { logThrottled } from "../../lib/log-throttle.js"
import {
  burnOne,
  hashPassword,
  verifyPassword,
  type HashingOptions,
  type PasswordCheck,
} from "../../password/hash.js"
import { burnWithOwn, hashWithOwn, verifyWithOwn } from "../../password/custom.js"
import { HashingBusy } from "../../password/limiter.js"
import type { HashingBudget, PasswordSettings } from "../../providers/password.js"
import { counterKey, counters } from "../../security/counter.js"

/**
 * A sign-in refused because password hashing is at capacity: `code = "busy"`, with the seconds
 * after which to try again (the `Retry-After` header). Says nothing about the account.
 */
export class HashingBusySignin extends CredentialsSignin {
  override code = "busy"
  /** Seconds until the queue will likely have drained. */
  retryAfter: number

  constructor(retryAfter: number, options: { cause: unknown }) {
    super("Password hashing is at capacity: the sign-in was refused before any work", options)
    this.retryAfter = retryAfter
  }
}

/** Where a refused derivation sends the user: a password form, or the sign-in page. */
type Refusal = FormPage | "signIn"

/** Logs a refusal for the operator, once a minute at most (many mean a flood). */
function logRefusal(ctx: ActionContext, kind: string, message: string): void {
  const error = new Error(message)
  logThrottled(ctx.logger, `password-hashing:${kind}`, error, (suppressed) => {
    const more = suppressed === 1 ? "1 more" : `${suppressed} more`
    return new Error(`${message} (and ${more} since it was last logged)`)
  })
}

/** A limiter's refusal as the user's error for `page`; anything else as it was. */
function refusal(ctx: ActionContext, page: Refusal) {
  return (error: unknown): never => {
    if (!(error instanceof HashingBusy)) throw error
    logRefusal(
      ctx,
      "busy",
      "Password hashing is at capacity: requests are refused with code=busy (the Password provider's hashing.concurrency and hashing.queue). Many of these mean a flood of sign-ups or sign-ins.",
    )
    if (page === "signIn") throw new HashingBusySignin(error.retryAfter, { cause: error })
    throw new PasswordError("password hashing is at capacity", {
      code: "busy",
      page,
      retryAfter: error.retryAfter,
      cause: error,
    })
  }
}

const lane = (settings: PasswordSettings, anonymous = false): HashingOptions => ({
  limits: settings.hashing,
  priority: anonymous ? "anonymous" : "account",
})

/** A new password's hash: a sign-up's (`page: "signUp"`, the anonymous lane) or an account's. */
export function hashNewPassword(
  ctx: ActionContext,
  settings: PasswordSettings,
  password: string,
  page: FormPage,
): Promise<string> {
  return newHash(settings, password, lane(settings, page === "signUp")).catch(refusal(ctx, page))
}

/** A new hash, with the deployer's `hash` or Latch's scrypt. */
const newHash = (settings: PasswordSettings, password: string, options: HashingOptions) =>
  settings.own
    ? hashWithOwn(settings.own, password, options)
    : hashPassword(password, settings.scrypt, options)

/** Checks a password against the account's hash, for a sign-in or a form. */
export function checkPassword(
  ctx: ActionContext,
  settings: PasswordSettings,
  password: string,
  hash: string,
  page: Refusal,
): Promise<PasswordCheck> {
  const check = settings.own
    ? verifyWithOwn(settings.own, password, hash, lane(settings))
    : verifyPassword(password, hash, settings.scrypt, lane(settings))
  return check.catch(refusal(ctx, page))
}

/** The work of a check, for a sign-in of an address without a password. */
export function burnSignIn(
  ctx: ActionContext,
  settings: PasswordSettings,
  password: string,
): Promise<void> {
  const burn = settings.own
    ? burnWithOwn(settings.own, password, lane(settings))
    : burnOne(password, settings.scrypt, lane(settings))
  return burn.catch(refusal(ctx, "signIn"))
}

/**
 * The hash of a password just checked against an outdated one, or `undefined` when hashing is at
 * capacity: the sign-in goes on, and a later one makes it.
 */
export async function rehashPassword(
  settings: PasswordSettings,
  password: string,
): Promise<string | undefined> {
  try {
    return await newHash(settings, password, lane(settings))
  } catch (error) {
    if (error instanceof HashingBusy) return undefined
    throw error
  }
}

/** Counts one against `budget` under `name`/`subject`; `true` within. */
async function spend(ctx: ActionContext, name: string, subject: string, budget: HashingBudget) {
  const key = await counterKey(ctx.config, `password:hash:${name}`, subject)
  const count = await counters(ctx.config)(key, new Date(Date.now() + budget.window * 1000))
  return count <= budget.max
}

/**
 * Counts a sign-up's derivation against the budgets, before it runs: this client's (when the
 * integration reported its address), then, if within, the app's (a client over its own budget
 * spends none of everyone's). `true` when both allow it.
 */
export async function withinHashingBudget(
  ctx: ActionContext,
  settings: PasswordSettings,
): Promise<boolean> {
  const { perClient, global } = settings.hashing
  if (perClient && ctx.client) {
    if (!(await spend(ctx, "client", ctx.client, perClient))) return false
  }
  if (global && !(await spend(ctx, "global", "sign-up", global))) {
    logRefusal(
      ctx,
      "global",
      `The Password provider's global budget of sign-ups (hashing.global: ${global.max} per ${global.window} s) was reached: further sign-ups hash nothing and send no mail until its window ends. Raise it if this is real traffic.`,
    )
    return false
  }
  return true
}
