/**
 * The session JWT: an encrypted JWT (JWE, `alg: "dir"`, `enc: "A256CBC-HS512"`) whose key is
 * derived from the secret with HKDF-SHA-256, the cookie name being the salt — Auth.js's format,
 * so that a token one of them wrote, the other reads. `decode` also reads tokens of earlier
 * Latch releases.
 *
 * @example
 * ```ts
 * import { getToken } from "@latch/core/jwt"
 * const token = await getToken({ req: request, secret: process.env.AUTH_SECRET })
 * ```
 *
 * @module jwt
 */
import { parseCookie } from "cookie"
import { joinChunks } from "./cookies/chunks.js"
import { processEnv } from "./config/env.js"
import { decryptJWE, encryptJWE } from "./lib/jwe.js"
import { deriveKey } from "./security/keys.js"
import {
  AUTHJS_SESSION_COOKIES,
  LEGACY_SESSION_COOKIES,
  sessionKeys,
} from "./session/session-cookies.js"
import type {
  JWTFields,
  GetTokenParams,
  JWT,
  JWTDecodeParams,
  JWTEncodeParams,
} from "./types/jwt.js"

export type {
  GetTokenParams,
  JWT,
  JWTDecodeParams,
  JWTEncodeParams,
  JWTOptions,
  ProviderTokens,
} from "./types/jwt.js"

/**
 * The claims Latch puts in a session token by default: what `JWT` extends. Declared in this
 * module, not only re-exported, so that an augmentation of "@latch/core/jwt" may name it without
 * importing it, as it may in Auth.js.
 */
export interface DefaultJWT extends JWTFields {}

/** 30 days, in seconds. */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60

/** Clock skew tolerated when checking `exp` and `nbf`, in seconds. */
const CLOCK_TOLERANCE = 15

const now = () => Math.floor(Date.now() / 1000)

function secretsOf(secret: string | string[]): string[] {
  const list = Array.isArray(secret) ? secret : [secret]
  if (list.length === 0 || list.some((s) => typeof s !== "string" || s.length === 0)) {
    throw new TypeError("secret must be a non-empty string or a non-empty array of them")
  }
  return list
}

/**
 * Encrypts a token with the first secret. Adds `iat`, `exp` (`iat + maxAge`) and a random `jti`.
 */
export async function encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  const { token = {}, salt, maxAge = DEFAULT_MAX_AGE } = params
  const key = await deriveKey(secretsOf(params.secret)[0]!, salt, "Auth.js")
  const issuedAt = now()
  return encryptJWE(
    { ...token, iat: issuedAt, exp: issuedAt + maxAge, jti: crypto.randomUUID() },
    key,
  )
}

/** Whether decrypted claims are a token that is valid now. */
export function isCurrentToken(payload: unknown): payload is JWT {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return false
  const { exp, nbf } = payload as Record<string, unknown>
  const time = now()
  if (exp !== undefined && (typeof exp !== "number" || exp + CLOCK_TOLERANCE <= time)) return false
  if (nbf !== undefined && (typeof nbf !== "number" || nbf - CLOCK_TOLERANCE > time)) return false
  return true
}

/**
 * Decrypts a token with any of the secrets. Returns `null` for a missing, malformed, foreign or
 * expired token. `Payload` types the claims you expect; they are not validated beyond `exp` and
 * `nbf`.
 */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  if (!params.token) return null
  const keys = await sessionKeys(secretsOf(params.secret), params.salt)
  const payload = await decryptJWE(params.token, keys)
  return isCurrentToken(payload) ? (payload as Payload) : null
}

function headerOf(req: GetTokenParams["req"], name: string): string | null {
  const { headers } = req
  if (headers instanceof Headers) return headers.get(name)
  const value = headers[name]
  return Array.isArray(value) ? value.join("; ") : (value ?? null)
}

function envSecret(): string[] | undefined {
  // Read safely: Deno without --allow-env refuses, and then only `secret` can be used.
  const value = processEnv().AUTH_SECRET
  if (!value) return undefined
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
}

/** Sends a `getToken` message to the caller's logger; a broken logger never breaks a request. */
function report(logger: GetTokenParams["logger"], message: string): void {
  try {
    logger?.debug(`getToken: ${message}`)
  } catch {
    // A logger that throws must not turn a token read into a failure.
  }
}

/**
 * Reads the session token of a request: from the session cookie (under the `__Secure-` name or
 * the plain one, chunked or not) or from an `Authorization: Bearer` header. With `raw: true`
 * it returns the encrypted token; otherwise the decrypted claims, or `null`.
 */
export async function getToken<R extends boolean = false>(
  params: GetTokenParams<R>,
): Promise<R extends true ? string : JWT | null>
export async function getToken(params: GetTokenParams<boolean>): Promise<JWT | string | null> {
  const { logger } = params
  const secret = params.secret ?? envSecret()
  if (!secret) throw new TypeError("getToken: no secret (set `secret` or AUTH_SECRET)")
  const cookies = parseCookie(headerOf(params.req, "cookie") ?? "")
  const names = params.cookieName
    ? [params.cookieName]
    : params.secureCookie === true
      ? [AUTHJS_SESSION_COOKIES[0]!, LEGACY_SESSION_COOKIES[0]!]
      : params.secureCookie === false
        ? [AUTHJS_SESSION_COOKIES[1]!, LEGACY_SESSION_COOKIES[1]!]
        : [...AUTHJS_SESSION_COOKIES, ...LEGACY_SESSION_COOKIES]
  let token: string | undefined
  let found = names[0]!
  let cookieFound = false
  for (const name of names) {
    token = joinChunks(cookies, name)
    if (token) {
      found = name
      cookieFound = true
      break
    }
  }
  if (!token) {
    const authorization = headerOf(params.req, "authorization")
    if (authorization?.startsWith("Bearer ")) token = authorization.slice(7).trim()
    if (token) report(logger, "token read from the Authorization header")
  } else {
    report(logger, `token read from the cookie ${found}`)
  }
  if (!token) {
    report(logger, `no token (looked for ${names.join(", ")} and a Bearer header)`)
    return null
  }
  if (params.raw) return token
  const decoder = params.decode ?? decode
  // A bearer token does not say which cookie name salted its key: try each candidate.
  const salts = params.salt ? [params.salt] : cookieFound ? [found] : names
  for (const salt of salts) {
    try {
      const payload = await decoder({ token, secret, salt })
      if (payload) return payload
    } catch (error) {
      // Not under this salt.
      report(logger, `decoding with salt ${salt} failed: ${String(error)}`)
    }
  }
  report(logger, "a token is present but could not be decrypted, or has expired")
  return null
}
