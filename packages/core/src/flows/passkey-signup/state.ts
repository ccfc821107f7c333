/**
 * Where a passkey-first sign-up keeps what it knows between its requests: a sealed cookie
 * (encrypted and authenticated under the secret, like the session), ten minutes long, in the
 * browser that started it. Nothing the client posts later names the address: the registration
 * takes it from here, so a proof of one address can never create an account for another.
 *
 * Two stages: `code` (a code was mailed; `nonce` is mixed into the stored code, so the code
 * works in this browser only) and `proven` (the code was right; `id` names this proof, spent
 * when the account is created, so the cookie works once even if copied).
 */
import type { ActionContext } from "../../actions/context.js"
import { decryptJWE, encryptJWE } from "../../lib/jwe.js"

type Ctx = Pick<ActionContext, "config" | "cookies" | "cookieOptions">

/** How long each stage lasts, in seconds: the code's life, then the time to make the passkey. */
export const SIGN_UP_MAX_AGE = 600

/** What the cookie holds. */
export type SignUpState =
  | { stage: "code"; provider: string; email: string; nonce: string; exp: number }
  | { stage: "proven"; provider: string; email: string; id: string; exp: number }

/** A state before its expiry is set. */
type NewState = SignUpState extends infer S ? (S extends unknown ? Omit<S, "exp"> : never) : never

/** Seals the state into the cookie, for `SIGN_UP_MAX_AGE` seconds from now. */
export async function writeSignUp(ctx: Ctx, state: NewState): Promise<void> {
  const { name, options } = ctx.cookieOptions.passkeySignUp
  const exp = Math.floor(Date.now() / 1000) + SIGN_UP_MAX_AGE
  const [key] = await ctx.config.keys(name)
  ctx.cookies.set(name, await encryptJWE({ ...state, exp }, key!), {
    ...options,
    maxAge: SIGN_UP_MAX_AGE,
    expires: new Date(exp * 1000),
  })
}

function isState(value: unknown): value is SignUpState {
  const v = value as Record<string, unknown> | null
  if (typeof v !== "object" || v === null) return false
  const common =
    typeof v.provider === "string" && typeof v.email === "string" && typeof v.exp === "number"
  if (v.stage === "code") return common && typeof v.nonce === "string"
  return v.stage === "proven" && common && typeof v.id === "string"
}

/**
 * This browser's sign-up with `provider`, if it has one that has not expired; `expired` when
 * the cookie is there but too old (its `exp` is inside the seal, so a cookie kept by hand past
 * its `Max-Age` is still refused).
 */
export async function readSignUp(
  ctx: Ctx,
  provider: string,
): Promise<SignUpState | "expired" | undefined> {
  const { name } = ctx.cookieOptions.passkeySignUp
  const value = ctx.cookies.get(name)
  if (!value || value.length > 2048) return undefined
  const opened = await decryptJWE(value, await ctx.config.keys(name))
  if (!isState(opened) || opened.provider !== provider) return undefined
  return opened.exp > Date.now() / 1000 ? opened : "expired"
}

/** Forgets this browser's sign-up. */
export function clearSignUp(ctx: Ctx): void {
  const { name, options } = ctx.cookieOptions.passkeySignUp
  if (ctx.cookies.get(name) !== undefined) ctx.cookies.delete(name, options)
}
