/**
 * Checking a second factor: a TOTP code or a recovery code, for the pending sign-in's user (the
 * code step) or for the signed-in user (turning the factor off, new recovery codes, a new
 * authenticator). Attempts are counted per account in the shared counters, whatever the
 * outcome, before any check; a TOTP step is accepted once (RFC 6238 §5.2), through a counter
 * too, so that two instances of the app agree on it.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import { TwoFactorError, type FormPage } from "../../errors.js"
import { counterKey, counters } from "../../security/counter.js"
import { emitEvent } from "../../session/events.js"
import { normalizeRecoveryCode, storedSecret, useRecoveryCode } from "./store.js"
import { matchingStep, normalizeCode, TOTP_PERIOD, TOTP_WINDOW } from "./totp.js"

/** The default limit: 5 codes per account per 15 minutes. */
export const DEFAULT_ATTEMPTS = 5
export const DEFAULT_WINDOW = 900

function limitOf(ctx: ActionContext): { attempts: number; window: number } {
  const limit = ctx.config.twoFactor?.rateLimit
  return {
    attempts: limit?.attempts ?? DEFAULT_ATTEMPTS,
    window: limit?.window ?? DEFAULT_WINDOW,
  }
}

/** Counts an attempt for the account; refuses over the limit. */
async function countAttempt(ctx: ActionContext, user: AdapterUser, page: FormPage) {
  const { attempts, window } = limitOf(ctx)
  const key = await counterKey(ctx.config, "two-factor:user", user.id)
  const count = await counters(ctx.config)(key, new Date(Date.now() + window * 1000))
  if (count > attempts) {
    await emitEvent(ctx, "twoFactorFailed", { user, reason: "rate_limited" })
    throw new TwoFactorError("too many codes for this account", {
      code: "rate_limited",
      page,
      retryAfter: window,
    })
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

/** Checks a TOTP code against a secret (for a new authenticator, before it is stored). */
export async function checkTotp(
  ctx: ActionContext,
  user: AdapterUser,
  secret: string,
  value: unknown,
  page: FormPage,
): Promise<void> {
  await countAttempt(ctx, user, page)
  const code = normalizeCode(value)
  const step = code ? await matchingStep(secret, code, Date.now()) : null
  if (step === null) return refuse(ctx, user, page, "wrong_code")
  if (!(await takeStep(ctx, user.id, secret, step))) return refuse(ctx, user, page, "replayed_code")
}

/**
 * Checks the user's second factor: `code` (TOTP) or `recoveryCode` (used up when it matches).
 * Returns which one passed; throws `TwoFactorError` otherwise.
 */
export async function checkSecondFactor(
  ctx: ActionContext,
  user: AdapterUser,
  fields: { code?: unknown; recoveryCode?: unknown },
  page: FormPage,
): Promise<"totp" | "recovery"> {
  const secret = await storedSecret(ctx, user.id)
  if (!secret) throw new TwoFactorError("no second factor", { code: "not_enrolled", page })
  const recovery = normalizeRecoveryCode(fields.recoveryCode)
  if (fields.recoveryCode !== undefined && fields.recoveryCode !== "") {
    await countAttempt(ctx, user, page)
    if (!recovery || !(await useRecoveryCode(ctx, user.id, recovery)))
      return refuse(ctx, user, page, "wrong_code")
    await emitEvent(ctx, "recoveryCodeUsed", { user })
    return "recovery"
  }
  await checkTotp(ctx, user, secret, fields.code, page)
  return "totp"
}
