/**
 * `POST {basePath}/passkey-signup/<provider>` with `code`: the code mailed to the address of
 * this browser's sign-up. A right one is used up and turns the cookie into a proof of the
 * address (`state.ts`, stage `proven`) for the passkey's registration; a wrong one counts
 * against the code's tries.
 */
import type { ActionContext } from "../../actions/context.js"
import { PasskeySignUpError } from "../../errors.js"
import { randomBase64url, timingSafeEqual } from "../../lib/crypto.js"
import type { WebAuthnConfig } from "../../providers/webauthn.js"
import { callAdapter } from "../../session/adapter-call.js"
import { TRIES_PER_CODE, within } from "./limits.js"
import { signUpAdapter, storedCode } from "./start.js"
import { readSignUp, writeSignUp } from "./state.js"

/** Checks the posted code; on success the browser holds the proof of its address. */
export async function confirmSignUpCode(
  ctx: ActionContext,
  provider: WebAuthnConfig,
): Promise<void> {
  const state = await readSignUp(ctx, provider.id)
  if (state === "expired")
    throw new PasskeySignUpError("The sign-up's code expired", { code: "expired" })
  if (!state || state.stage !== "code")
    throw new PasskeySignUpError("No sign-up was started in this browser", { code: "no_request" })
  if (!(await within(ctx, "try", state.nonce, TRIES_PER_CODE)))
    throw new PasskeySignUpError("Too many tries of the code", {
      code: "rate_limited",
      retryAfter: TRIES_PER_CODE.window,
    })
  const value = ctx.request.body.code
  const code = typeof value === "string" ? value.replace(/\s/g, "") : ""
  if (!/^\d{6}$/.test(code)) throw new PasskeySignUpError("Not a code", { code: "wrong_code" })

  const adapter = signUpAdapter(ctx)
  // Under each secret, newest first: a code mailed before a rotation still works.
  for (const secret of ctx.config.secrets) {
    const token = await storedCode(secret, state.email, state.nonce, code)
    const record = await callAdapter("useVerificationToken", () =>
      adapter.useVerificationToken({ identifier: state.email, token }),
    )
    if (!record) continue
    if (
      typeof record.token !== "string" ||
      !timingSafeEqual(record.token, token) ||
      record.identifier !== state.email
    )
      break
    if (!(new Date(record.expires).getTime() > Date.now()))
      throw new PasskeySignUpError("The code expired", { code: "expired" })
    await writeSignUp(ctx, {
      stage: "proven",
      provider: provider.id,
      email: state.email,
      id: randomBase64url(16),
    })
    return
  }
  throw new PasskeySignUpError("Wrong code", { code: "wrong_code" })
}
