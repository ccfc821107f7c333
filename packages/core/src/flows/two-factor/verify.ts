/**
 * Checking a second factor: a TOTP code or a recovery code, for the pending sign-in's user (the
 * code step) or for the signed-in user (turning the factor off, new recovery codes, a new
 * authenticator). A TOTP step is accepted once (RFC 6238 §5.2), through a counter, so that two
 * instances of the app agree on it.
 *
 * Codes are counted before they are checked, by the credentials limiter's machinery
 * (`admitCounted`, credentials/rate-limit.ts) under a scope of its own, the user's id as the
 * account, in fixed windows of `rateLimit.window` (default 15 minutes):
 *
 * - per pair (account, client: an IPv4 address or an IPv6 /64), `attempts` (default 5);
 * - per client across accounts, 10 × `attempts`: one client holding many passwords;
 * - per account across clients, `attempts`: many clients guessing one account's codes.
 *
 * A right code offsets its own attempt (successes do not count), and a pair's also the wrong
 * ones before it. A pair that passed a code is "known" for 30 to 60 days and exempt from the
 * client's and the account's limits, so someone with only the password, however many clients
 * they use, fills the account's limit for strangers and not for the owner's devices. A recovery
 * code (50 random bits, ten per account: nothing to guess) counts against its pair alone, so it
 * stays a way in for the owner on a new device while the account's limit is full; so does the
 * code of a new authenticator, which whoever confirms it has on screen. Without a client address
 * there is no pair, and every code counts per account.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import { TwoFactorError, WebAuthnVerificationError, type FormPage } from "../../errors.js"
import { counterKey, counters } from "../../security/counter.js"
import { emitEvent } from "../../session/events.js"
import { admitCounted, type Attempt, type Refusal, type Scope } from "../credentials/rate-limit.js"
import { hasSecondFactor, normalizeRecoveryCode, storedSecret, useRecoveryCode } from "./store.js"
import { matchingStep, normalizeCode, TOTP_PERIOD, TOTP_WINDOW } from "./totp.js"

/** The default limit: 5 codes per account and client per 15 minutes. */
export const DEFAULT_ATTEMPTS = 5
export const DEFAULT_WINDOW = 900
/** The per-client limit, as a multiple of `attempts`. */
const PER_CLIENT = 10

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (Number.isSafeInteger(value) && value > 0) return value
  throw new TypeError(`"twoFactor.rateLimit.${name}" must be a positive integer`)
}

/** A refusal of the limiter, turned into a `TwoFactorError` by `admitCode`. */
class CodeLimitReached extends Error {
  constructor(readonly refusal: Refusal) {
    super(`the per-${refusal.limit} limit refused a code`)
  }
}

/** The code step's scope in the limiter, from `twoFactor.rateLimit`. */
function scopeOf(ctx: ActionContext): Scope {
  const option = ctx.config.twoFactor?.rateLimit
  const attempts = positiveInteger(option?.attempts, DEFAULT_ATTEMPTS, "attempts")
  const window = positiveInteger(option?.window, DEFAULT_WINDOW, "window")
  return {
    prefix: "two-factor",
    id: "code",
    limits: {
      window: window * 1000,
      perPair: attempts,
      perIdentifier: attempts,
      perClient: attempts * PER_CLIENT,
    },
    // A user's id is counted as it is: ids that differ only in case are different users.
    identifier: (userId) => userId,
    refuse: (_ctx, refusal) => {
      throw new CodeLimitReached(refusal)
    },
  }
}

/**
 * Counts a code of the user's, or refuses it (`rate_limited`). `pairOnly`: a recovery code or a
 * new authenticator's code, counted against its pair alone (see the module's comment).
 */
async function admitCode(
  ctx: ActionContext,
  user: AdapterUser,
  page: FormPage,
  options: { pairOnly: boolean },
): Promise<Attempt | undefined> {
  try {
    return await admitCounted(ctx, scopeOf(ctx), user.id, options)
  } catch (error) {
    if (!(error instanceof CodeLimitReached)) throw error
    const { limit, retryAfter } = error.refusal
    ctx.logger.debug(`two-factor rate limit: the per-${limit} limit refused a code`, {
      retryAfter,
    })
    await emitEvent(ctx, "twoFactorFailed", { user, reason: "rate_limited" })
    throw new TwoFactorError("too many codes", { code: "rate_limited", page, retryAfter })
  }
}

/**
 * Takes a TOTP step of one secret of the account, once: `false` when it was taken already. Per
 * secret: replacing an authenticator checks a code of the old one and of the new one, both of
 * the same step. (The key is an HMAC: the secret is not stored in the counters.)
 */
async function takeStep(
  ctx: ActionContext,
  userId: string,
  secret: string,
  step: number,
): Promise<boolean> {
  const key = await counterKey(
    ctx.config,
    "two-factor:step",
    `${userId}\u0000${secret}\u0000${step}`,
  )
  // Kept until the step can no longer match: the window's last step, and a margin.
  const expires = new Date((step + TOTP_WINDOW + 2) * TOTP_PERIOD * 1000)
  return (await counters(ctx.config)(key, expires)) === 1
}

async function refuse(
  ctx: ActionContext,
  user: AdapterUser,
  page: FormPage,
  code: "wrong_code" | "replayed_code",
): Promise<never> {
  await emitEvent(ctx, "twoFactorFailed", { user, reason: code })
  throw new TwoFactorError(code === "wrong_code" ? "wrong code" : "code used already", {
    code,
    page,
  })
}

/** Checks a TOTP code against a secret, counted; a right one offsets its attempt. */
async function verifyTotp(
  ctx: ActionContext,
  user: AdapterUser,
  secret: string,
  value: unknown,
  page: FormPage,
  options: { pairOnly: boolean },
): Promise<void> {
  const attempt = await admitCode(ctx, user, page, options)
  const code = normalizeCode(value)
  const step = code ? await matchingStep(secret, code, Date.now()) : null
  if (step === null) return refuse(ctx, user, page, "wrong_code")
  if (!(await takeStep(ctx, user.id, secret, step))) return refuse(ctx, user, page, "replayed_code")
  await attempt?.succeeded()
}

/** Checks a recovery code and uses it up, counted against its pair alone. */
async function verifyRecoveryCode(
  ctx: ActionContext,
  user: AdapterUser,
  value: unknown,
  page: FormPage,
): Promise<void> {
  const attempt = await admitCode(ctx, user, page, { pairOnly: true })
  const code = normalizeRecoveryCode(value)
  if (!code || !(await useRecoveryCode(ctx, user.id, code)))
    return refuse(ctx, user, page, "wrong_code")
  await attempt?.succeeded()
  await emitEvent(ctx, "recoveryCodeUsed", { user })
}

/**
 * Checks a TOTP code against a new secret (for a new authenticator, before it is stored).
 * Counted against its pair alone: the secret is on the screen of whoever confirms it.
 */
export async function checkTotp(
  ctx: ActionContext,
  user: AdapterUser,
  secret: string,
  value: unknown,
  page: FormPage,
): Promise<void> {
  await verifyTotp(ctx, user, secret, value, page, { pairOnly: true })
}

/** Whether a form field holds anything but blanks. */
function isFilled(value: unknown): boolean {
  return typeof value === "string" ? value.trim() !== "" : value !== undefined && value !== null
}

/**
 * Checks the user's second factor: `code` (TOTP) or `recoveryCode` (used up when it matches).
 * With both filled, the TOTP code is tried first and the recovery code only when it fails (wrong,
 * used already, or over the limit): a right code is never refused for what the other field
 * holds, and a recovery code is not spent when the app's code did. Returns which one passed;
 * throws `TwoFactorError` otherwise (the recovery code's refusal when both were tried).
 */
export async function checkSecondFactor(
  ctx: ActionContext,
  user: AdapterUser,
  fields: { code?: unknown; recoveryCode?: unknown },
  page: FormPage,
): Promise<"totp" | "recovery"> {
  const secret = await storedSecret(ctx, user.id)
  if (!secret) return checkWithoutApp(ctx, user, fields, page)
  if (!isFilled(fields.recoveryCode)) {
    await verifyTotp(ctx, user, secret, fields.code, page, { pairOnly: false })
    return "totp"
  }
  if (isFilled(fields.code)) {
    try {
      await verifyTotp(ctx, user, secret, fields.code, page, { pairOnly: false })
      return "totp"
    } catch (error) {
      if (!(error instanceof TwoFactorError)) throw error
    }
  }
  await verifyRecoveryCode(ctx, user, fields.recoveryCode, page)
  return "recovery"
}

/**
 * A user whose second factor is a key alone has recovery codes but no app: a recovery code is
 * checked; a typed code cannot be right, and is counted and refused like a wrong one.
 */
async function checkWithoutApp(
  ctx: ActionContext,
  user: AdapterUser,
  fields: { code?: unknown; recoveryCode?: unknown },
  page: FormPage,
): Promise<"recovery"> {
  if (!(await hasSecondFactor(ctx, user.id)))
    throw new TwoFactorError("no second factor", { code: "not_enrolled", page })
  if (isFilled(fields.recoveryCode)) {
    await verifyRecoveryCode(ctx, user, fields.recoveryCode, page)
    return "recovery"
  }
  await admitCode(ctx, user, page, { pairOnly: false })
  return refuse(ctx, user, page, "wrong_code")
}

/**
 * Checks a security key's assertion at the code step within the same limits as a code: counted
 * first (`rate_limited` over the limit), a refused assertion is a failure like a wrong code
 * (`key_refused`, the `twoFactorFailed` event), and a verified one offsets its attempt.
 */
export async function checkKeyAttempt(
  ctx: ActionContext,
  user: AdapterUser,
  verify: () => Promise<void>,
): Promise<void> {
  const attempt = await admitCode(ctx, user, "twoFactor", { pairOnly: false })
  try {
    await verify()
  } catch (error) {
    if (!(error instanceof WebAuthnVerificationError)) throw error
    await emitEvent(ctx, "twoFactorFailed", { user, reason: "key_refused" })
    throw new TwoFactorError(`security key refused: ${error.message}`, {
      code: "key_refused",
      page: "twoFactor",
      cause: error,
    })
  }
  await attempt?.succeeded()
}
