/**
 * The JWT session cookie written and deleted: the token encrypted with a fresh `iat`, `exp` and
 * `jti` (chunked when long). Shared by reading a session (`jwt-strategy.ts`, which re-issues it),
 * carrying one over from an old cookie name (`migrate.ts`) and signing in (`establish.ts`).
 */
import type { ActionContext } from "../actions/context.js"
import type { JWT } from "../jwt.js"
import { encryptJWE } from "../lib/jwe.js"

export type SessionContext = Pick<ActionContext, "config" | "cookies" | "cookieOptions">

/** Seconds since the epoch. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

/** The secret parameter of a configuration's own `jwt.encode`/`jwt.decode`: one, or the list. */
export function secretParam(ctx: SessionContext): string | string[] {
  const { secrets } = ctx.config
  return secrets.length === 1 ? secrets[0]! : secrets
}

/**
 * Encrypts `token` into the session cookie, with a fresh `iat`, `exp` and `jti`. Returns when the
 * session expires.
 */
export async function writeSessionToken(ctx: SessionContext, token: JWT): Promise<Date> {
  const { name, options } = ctx.cookieOptions.sessionToken
  const maxAge = ctx.config.jwt.maxAge
  const { iat: _iat, exp: _exp, jti: _jti, ...claims } = token
  let value: string
  if (ctx.config.builtInJWT) {
    const issuedAt = nowSeconds()
    const [key] = await ctx.config.sessionKeys(name)
    value = await encryptJWE(
      { ...claims, iat: issuedAt, exp: issuedAt + maxAge, jti: crypto.randomUUID() },
      key!,
    )
  } else {
    value = await ctx.config.jwt.encode({
      token: claims,
      secret: secretParam(ctx),
      salt: name,
      maxAge,
    })
  }
  const expires = new Date((nowSeconds() + maxAge) * 1000)
  ctx.cookies.setChunked(name, value, { ...options, expires })
  return expires
}

/** Deletes the session cookie and all of its chunks. */
export function clearSessionToken(ctx: SessionContext): void {
  const { name, options } = ctx.cookieOptions.sessionToken
  ctx.cookies.deleteChunked(name, options)
}
