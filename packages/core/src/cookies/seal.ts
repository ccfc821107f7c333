/**
 * Sealed cookies: short-lived values (OAuth state, PKCE verifier, nonce, WebAuthn challenge)
 * encrypted like the session, under a key of their own (the cookie name is the salt), with an
 * expiry inside the ciphertext so that an old cookie replayed by hand is refused too.
 */
import type { ActionContext } from "../actions/context.js"
import type { ResolvedCookies } from "./defaults.js"
import { decryptJWE, encryptJWE } from "../lib/jwe.js"

type CheckCookie = keyof Pick<
  ResolvedCookies,
  "state" | "pkceCodeVerifier" | "nonce" | "webauthnChallenge"
>

type SealContext = Pick<ActionContext, "config" | "cookies" | "cookieOptions">

/** Encrypts `value` into the cookie, valid for the cookie's `maxAge` (15 minutes by default). */
export async function sealCookie(
  ctx: SealContext,
  cookie: CheckCookie,
  value: string,
): Promise<void> {
  const { name, options } = ctx.cookieOptions[cookie]
  const maxAge = options.maxAge ?? 900
  const [key] = await ctx.config.keys(name)
  const sealed = await encryptJWE({ value, exp: Math.floor(Date.now() / 1000) + maxAge }, key!)
  ctx.cookies.set(name, sealed, {
    ...options,
    maxAge,
    expires: new Date(Date.now() + maxAge * 1000),
  })
}

/**
 * Reads and deletes the cookie: a check value is used once, whatever the outcome. `undefined`
 * when it is missing, expired, or not ours.
 */
export async function unsealCookie(
  ctx: SealContext,
  cookie: CheckCookie,
): Promise<string | undefined> {
  const { name, options } = ctx.cookieOptions[cookie]
  const sealed = ctx.cookies.get(name)
  if (sealed === undefined) return undefined
  ctx.cookies.delete(name, options)
  const payload = (await decryptJWE(sealed, await ctx.config.keys(name))) as {
    value?: unknown
    exp?: unknown
  } | null
  if (!payload || typeof payload.value !== "string" || typeof payload.exp !== "number")
    return undefined
  return payload.exp > Date.now() / 1000 ? payload.value : undefined
}
