/**
 * A code mailed to the user's verified address, as a way to confirm it is them (for a user
 * without a second factor: the mailbox that can reset their password anyway). Six digits, good
 * for one use within ten minutes; stored as an HMAC in the adapter's verification tokens (under
 * the address, like every mailed token), so a database reader learns none. Sends are limited
 * per account (3 per 10 minutes), tries too (5 per 15 minutes, counted before the check, so
 * that parallel guesses are counted as well).
 */
import type { ActionContext } from "../actions/context.js"
import type { AdapterUser } from "../adapters.js"
import { ReauthenticationRequired } from "../errors.js"
import { hmacSha256Hex, timingSafeEqual } from "../lib/crypto.js"
import { renderReauthenticationCode } from "../pages/account-email.js"
import { counterKey, counters } from "../security/counter.js"
import { callAdapter, requireMethods } from "../session/adapter-call.js"
import { accountMailer, sendAccountMail } from "./mail.js"

/** How long a code works, in seconds. */
export const CODE_MAX_AGE = 600
/** Codes mailed per account per window. */
export const SENDS = { max: 3, window: 600 }
/** Tries per account per window. */
export const TRIES = { max: 5, window: 900 }

function tokenAdapter(ctx: Pick<ActionContext, "config">) {
  return requireMethods(
    ctx.config.adapter!,
    ["createVerificationToken", "useVerificationToken"],
    "codes mailed to confirm it is the user",
  )
}

/** Whether the user can be mailed a code: a verified address, and a way to send mail. */
export function canMailCode(ctx: Pick<ActionContext, "config">, user: AdapterUser): boolean {
  const adapter = ctx.config.adapter
  return (
    Boolean(user.email && user.emailVerified) &&
    typeof adapter?.createVerificationToken === "function" &&
    typeof adapter.useVerificationToken === "function" &&
    accountMailer(ctx.config) !== undefined
  )
}

/** The stored form of a code: an HMAC under the secret, naming the user. */
function storedCode(secret: string, userId: string, code: string): Promise<string> {
  return hmacSha256Hex(secret, `latch.reauthentication-code\u0000${userId}\u0000${code}`)
}

/** Six random digits, without modulo bias. */
export function newCode(): string {
  const limit = Math.floor(2 ** 32 / 1_000_000) * 1_000_000
  const word = new Uint32Array(1)
  do crypto.getRandomValues(word)
  while (word[0]! >= limit)
  return String(word[0]! % 1_000_000).padStart(6, "0")
}

async function within(
  ctx: ActionContext,
  name: string,
  userId: string,
  limit: { max: number; window: number },
): Promise<boolean> {
  const key = await counterKey(ctx.config, `reauthentication:${name}`, userId)
  const count = await counters(ctx.config)(key, new Date(Date.now() + limit.window * 1000))
  return count <= limit.max
}

/** Mails the user a new code. */
export async function mailCode(ctx: ActionContext, user: AdapterUser): Promise<void> {
  if (!canMailCode(ctx, user))
    throw new ReauthenticationRequired("no verified address or no mail", { code: "no_method" })
  if (!(await within(ctx, "send", user.id, SENDS)))
    throw new ReauthenticationRequired("too many codes mailed", {
      code: "rate_limited",
      retryAfter: SENDS.window,
    })
  const code = newCode()
  const expires = new Date(Date.now() + CODE_MAX_AGE * 1000)
  const adapter = tokenAdapter(ctx)
  const token = await storedCode(ctx.config.secrets[0]!, user.id, code)
  await callAdapter("createVerificationToken", () =>
    adapter.createVerificationToken({ identifier: user.email, token, expires }),
  )
  const mail = renderReauthenticationCode({
    host: new URL(ctx.origin).host,
    theme: ctx.config.theme,
    code,
    expires,
  })
  if (!(await sendAccountMail(ctx, user.email, mail, "re-authentication code")))
    throw new ReauthenticationRequired("the code could not be mailed", { code: "mail_failed" })
}

/** Uses a mailed code up; throws `ReauthenticationRequired` unless it is a live code of the user's. */
export async function useMailedCode(
  ctx: ActionContext,
  user: AdapterUser,
  value: unknown,
): Promise<void> {
  if (!(await within(ctx, "try", user.id, TRIES)))
    throw new ReauthenticationRequired("too many tries", {
      code: "rate_limited",
      retryAfter: TRIES.window,
    })
  const code = typeof value === "string" ? value.replace(/\s/g, "") : ""
  if (!/^\d{6}$/.test(code))
    throw new ReauthenticationRequired("not a code", { code: "wrong_code" })
  const adapter = tokenAdapter(ctx)
  // Under each secret, newest first: a code mailed before a rotation still works.
  for (const secret of ctx.config.secrets) {
    const token = await storedCode(secret, user.id, code)
    const record = await callAdapter("useVerificationToken", () =>
      adapter.useVerificationToken({ identifier: user.email, token }),
    )
    if (!record) continue
    if (
      typeof record.token !== "string" ||
      !timingSafeEqual(record.token, token) ||
      record.identifier !== user.email
    )
      break
    if (!(new Date(record.expires).getTime() > Date.now()))
      throw new ReauthenticationRequired("the code expired", { code: "code_expired" })
    return
  }
  throw new ReauthenticationRequired("wrong code", { code: "wrong_code" })
}
