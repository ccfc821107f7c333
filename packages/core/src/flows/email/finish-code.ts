/**
 * `POST {basePath}/callback/<email provider>` with `code` (CSRF-checked): the user typed the
 * code from the mail on the "check your email" page of the browser that asked for it.
 *
 * The browser's request cookie (`binding.ts`) names the address and holds the nonce the code's
 * hash was made with: without it — another browser, or a request already redeemed — there is
 * nothing to check a code against (`no_request`). Past the code's expiry: `expired`. Each try is
 * counted before anything is looked up, in the counter store under a key of the nonce, so that
 * tries sent together cannot slip past the limit: once `MAX_CODE_ATTEMPTS` tries are spent, the
 * request is dead whatever the code (`too_many_attempts`). Then the code is spent (one
 * `useVerificationToken` per secret until one answers); no record is a `wrong_code`. A right
 * code signs in as the link does — switching users in a browser signed in as another, since this
 * browser asked — and the request is forgotten, so the code works once.
 */
import type { ActionContext } from "../../actions/context.js"
import type { VerificationToken } from "../../adapters.js"
import { EmailCodeError } from "../../errors.js"
import { timingSafeEqual } from "../../lib/crypto.js"
import type { EmailConfig } from "../../providers/email.js"
import { counterKey, counters } from "../../security/counter.js"
import { callAdapter } from "../../session/adapter-call.js"
import { emailAdapter } from "./adapter.js"
import { forgetLinkRequest, linkRequestOf } from "./binding.js"
import { codeHashes, MAX_CODE_ATTEMPTS, typedCode } from "./code.js"
import { codeSettings } from "./code-options.js"
import { emailIdentity, type EmailSignIn } from "./finish.js"
import { linkSwitchesUser } from "./signed-in.js"

/** A redeemed code, and where the request was headed. */
export interface CodeSignIn extends EmailSignIn {
  /** The `callbackUrl` the link was asked with (check it again before use). */
  callbackUrl: string
}

/** Spends the code under the newest secret it was made with; the record, or null. */
async function useCode(
  ctx: ActionContext,
  address: string,
  hashes: string[],
): Promise<{ record: VerificationToken; hash: string } | null> {
  const adapter = emailAdapter(ctx)
  for (const hash of hashes) {
    const record = await callAdapter("useVerificationToken", () =>
      adapter.useVerificationToken({ identifier: address, token: hash }),
    )
    if (record) return { record, hash }
  }
  return null
}

/** Counts a try at the request's code; whether it is within the limit. */
async function withinAttempts(
  ctx: ActionContext,
  provider: EmailConfig,
  nonce: string,
  expires: Date,
): Promise<boolean> {
  const key = await counterKey(ctx.config, `email:code:${provider.id}`, nonce)
  return (await counters(ctx.config)(key, expires)) <= MAX_CODE_ATTEMPTS
}

/** Redeems the typed code; returns the identity to sign in and where to go. */
export async function finishCodeSignIn(
  ctx: ActionContext,
  provider: EmailConfig,
): Promise<CodeSignIn> {
  const request = codeSettings(provider) ? await linkRequestOf(ctx, provider) : null
  const code = request?.code
  if (!request || !code) {
    throw new EmailCodeError("This browser has no request for a code", { code: "no_request" })
  }
  if (!(code.expires.getTime() > Date.now())) {
    throw new EmailCodeError("The code has expired", { code: "expired" })
  }
  if (!(await withinAttempts(ctx, provider, code.nonce, code.expires))) {
    throw new EmailCodeError("Too many codes were tried for this request", {
      code: "too_many_attempts",
    })
  }
  const typed = typedCode(ctx.request.body.code)
  if (!typed) throw new EmailCodeError("The code is not one of ours", { code: "wrong_code" })
  const { address } = request
  const switchesUser = await linkSwitchesUser(ctx, provider, address, true)
  const used = await useCode(
    ctx,
    address,
    await codeHashes(ctx.config, provider, code.nonce, typed),
  )
  if (!used) throw new EmailCodeError("The code is wrong or was used", { code: "wrong_code" })
  const { record, hash } = used
  // Whatever the adapter looked the record up by, it must be this code's, for this address.
  if (
    typeof record.token !== "string" ||
    !timingSafeEqual(record.token, hash) ||
    record.identifier !== address
  ) {
    throw new EmailCodeError("The adapter returned a token that does not match the code")
  }
  if (!(new Date(record.expires).getTime() > Date.now())) {
    throw new EmailCodeError("The code has expired", { code: "expired" })
  }
  forgetLinkRequest(ctx)
  return {
    identity: await emailIdentity(ctx, provider, address),
    switchesUser,
    callbackUrl: code.callbackUrl,
  }
}
