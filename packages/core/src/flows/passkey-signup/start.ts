/**
 * `POST {basePath}/passkey-signup/<provider>` with `email`: a visitor asks for an account that
 * signs in with a passkey. The address is checked and the limits counted (`limits.ts`); then
 *
 * - an address nobody has: a 6-digit code is mailed, stored as an HMAC (of the address, the
 *   code, and a nonce that only this browser's sealed cookie holds) in the adapter's
 *   verification tokens, working once for ten minutes;
 * - an address that has an account — proven or not, with a password, a second factor, or only
 *   a passkey: no code; the owner is mailed that someone tried, and how to sign in. Proving a
 *   mailbox must not add a passkey to an account whose other factors it would then bypass; an
 *   unproven account is adopted by its address's owner through an email link or a password
 *   reset instead, which clean it first (`account/adopt.ts`).
 *
 * Either way the browser gets the same cookie (sealed: it says nothing) and the same page.
 *
 * Before any mail, the `signIn` callback is asked, as for an email link (`email:
 * { verificationRequest: true }`, the account `{ type: "webauthn" }`): `false` refuses with
 * `AccessDenied`, a URL sends the visitor there instead — so an app that limits who may sign up
 * (a domain, an invitation list) mails nobody else a code.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import { newCode } from "../../account/email-code.js"
import { sendAccountMail } from "../../account/mail.js"
import { AccessDenied, EmailSignInError, PasskeySignUpError } from "../../errors.js"
import { hmacSha256Hex, randomBase64url } from "../../lib/crypto.js"
import type { WebAuthnConfig } from "../../providers/webauthn.js"
import { callAdapter, requireMethods } from "../../session/adapter-call.js"
import { normalizeAddress } from "../email/address.js"
import { SENDS_PER_ADDRESS, STARTS_PER_CLIENT, within } from "./limits.js"
import { SIGN_UP_MAX_AGE, writeSignUp } from "./state.js"

/** The stored form of a code: an HMAC under the secret, naming the address and the browser. */
export function storedCode(
  secret: string,
  email: string,
  nonce: string,
  code: string,
): Promise<string> {
  return hmacSha256Hex(secret, `latch.passkey-signup\u0000${email}\u0000${nonce}\u0000${code}`)
}

export function signUpAdapter(ctx: Pick<ActionContext, "config">) {
  return requireMethods(
    ctx.config.adapter!,
    ["getUserByEmail", "createVerificationToken", "useVerificationToken"],
    "passkey sign-up",
  )
}

function address(ctx: ActionContext): string {
  try {
    return normalizeAddress(ctx.request.body.email)
  } catch (error) {
    if (!(error instanceof EmailSignInError)) throw error
    throw new PasskeySignUpError("The email address is not one plain address", {
      code: "invalid_email",
      cause: error,
    })
  }
}

/** The `signIn` callback's verdict on mailing `email`: `undefined` to go on, or where to go. */
async function allowed(
  ctx: ActionContext,
  provider: WebAuthnConfig,
  email: string,
  owner: AdapterUser | null,
): Promise<string | undefined> {
  let verdict: boolean | string
  try {
    verdict = await ctx.config.callbacks.signIn({
      user: owner ?? { id: email, email },
      account: { provider: provider.id, type: "webauthn", providerAccountId: email },
      email: { verificationRequest: true },
    })
  } catch (error) {
    const message = error instanceof Error ? error.message : "The signIn callback threw"
    throw new AccessDenied(message, { cause: error })
  }
  if (verdict === false) throw new AccessDenied("The signIn callback refused the passkey sign-up")
  if (typeof verdict !== "string") return undefined
  try {
    const checked = await ctx.config.callbacks.redirect({ url: verdict, baseUrl: ctx.origin })
    return new URL(checked, ctx.origin).href
  } catch {
    return ctx.origin
  }
}

/**
 * Starts a sign-up for the posted address, as the module's comment says; a URL when the
 * `signIn` callback sends the visitor elsewhere instead.
 */
export async function startSignUp(
  ctx: ActionContext,
  provider: WebAuthnConfig,
): Promise<string | undefined> {
  const email = address(ctx)
  const limited = (retryAfter: number) =>
    new PasskeySignUpError("Too many sign-up requests", { code: "rate_limited", retryAfter })
  if (!(await within(ctx, "address", email, SENDS_PER_ADDRESS)))
    throw limited(SENDS_PER_ADDRESS.window)
  if (ctx.client && !(await within(ctx, "client", ctx.client, STARTS_PER_CLIENT)))
    throw limited(STARTS_PER_CLIENT.window)

  const adapter = signUpAdapter(ctx)
  const nonce = randomBase64url(16)
  const host = new URL(ctx.origin).host
  const signInUrl = new URL(ctx.config.pages.signIn ?? `${ctx.actionBase}/signin`, ctx.origin).href
  const owner = await callAdapter("getUserByEmail", () => adapter.getUserByEmail(email))
  const elsewhere = await allowed(ctx, provider, email, owner)
  if (elsewhere !== undefined) return elsewhere
  const { renderPasskeySignUpCode, renderPasskeySignUpExists } =
    await import("../../pages/passkey-signup-email.js")
  let sent: boolean
  if (owner) {
    const mail = renderPasskeySignUpExists({ host, theme: ctx.config.theme, signInUrl })
    sent = await sendAccountMail(ctx, email, mail, "passkey sign-up (account exists)")
  } else {
    const code = newCode()
    const expires = new Date(Date.now() + SIGN_UP_MAX_AGE * 1000)
    const token = await storedCode(ctx.config.secrets[0]!, email, nonce, code)
    await callAdapter("createVerificationToken", () =>
      adapter.createVerificationToken({ identifier: email, token, expires }),
    )
    const mail = renderPasskeySignUpCode({
      host,
      theme: ctx.config.theme,
      signInUrl,
      code,
      expires,
    })
    sent = await sendAccountMail(ctx, email, mail, "passkey sign-up code")
  }
  if (!sent) throw new PasskeySignUpError("The mail could not be sent", { code: "mail_failed" })
  await writeSignUp(ctx, { stage: "code", provider: provider.id, email, nonce })
  return undefined
}
