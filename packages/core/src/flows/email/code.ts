/**
 * The short code a sign-in mail carries besides its link (the provider's `code` option), for
 * signing in on the device that asked — a phone — while the mail is read on another.
 *
 * A code is short enough to type, so it is guarded where a link need not be: it is stored as an
 * HMAC under the secret (its own verification token, with its own expiry); the HMAC includes a
 * random nonce that only the asking browser's sealed cookie holds (`binding.ts`), so the code
 * works in that browser alone; it is spent by its first use; and a request dies after
 * `MAX_CODE_ATTEMPTS` tries (`finish-code.ts`). Guessing a 6-character code from 30 symbols in
 * 5 tries succeeds once in about 146 million requests — each one a mail to the address, under
 * the provider's rate limit.
 */
import type { ActionContext } from "../../actions/context.js"
import type { ResolvedConfig } from "../../config/resolved.js"
import { hmacSha256Hex, randomBase64url } from "../../lib/crypto.js"
import type { EmailConfig } from "../../providers/email.js"
import { callAdapter } from "../../session/adapter-call.js"
import { emailAdapter } from "./adapter.js"
import type { CodeRequest } from "./binding.js"
import { MAX_CODE_LENGTH, MIN_CODE_LENGTH, type CodeSettings } from "./code-options.js"

/**
 * Digits and capitals without those read or typed as one another: 0 and O, 1, I and L, and U
 * (read as V). 30 symbols.
 */
export const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"

/** Tries a request's code allows, right one included: after 5 wrong codes it is dead. */
export const MAX_CODE_ATTEMPTS = 5

/** A random code of `length` symbols, each equally likely (bytes past a multiple are redrawn). */
export function newCode(length: number): string {
  const limit = 256 - (256 % CODE_ALPHABET.length)
  let code = ""
  while (code.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && code.length < length) code += CODE_ALPHABET[byte % CODE_ALPHABET.length]
    }
  }
  return code
}

/**
 * What the user typed, as a code: capitals, without the spaces and hyphens people add; `null`
 * for anything that cannot be a code (too long, or symbols outside the alphabet).
 */
export function typedCode(input: unknown): string | null {
  if (typeof input !== "string" || input.length > 64) return null
  const code = input.replace(/[\s-]/g, "").toUpperCase()
  if (code.length < MIN_CODE_LENGTH || code.length > MAX_CODE_LENGTH) return null
  for (const symbol of code) if (!CODE_ALPHABET.includes(symbol)) return null
  return code
}

/** The stored form of a code under one secret: bound to the provider and the request's nonce. */
function hashCode(secret: string, provider: EmailConfig, nonce: string, code: string) {
  return hmacSha256Hex(secret, `latch.email-code\u0000${provider.id}\u0000${nonce}\u0000${code}`)
}

/** The code's hash under each secret, newest first (a code mailed before a rotation works). */
export function codeHashes(
  config: ResolvedConfig,
  provider: EmailConfig,
  nonce: string,
  code: string,
): Promise<string[]> {
  return Promise.all(config.secrets.map((secret) => hashCode(secret, provider, nonce, code)))
}

/**
 * What the asking browser will remember for a code: a fresh nonce, the code's expiry (its own
 * `maxAge`, never past the link's) and where the user is headed. Made even when no mail goes
 * out (a rate limit), so that the answer looks the same.
 */
export function codeRequest(
  settings: CodeSettings,
  linkExpires: Date,
  callbackUrl: string,
): CodeRequest {
  const expires = Math.min(linkExpires.getTime(), Date.now() + settings.maxAge * 1000)
  return { nonce: randomBase64url(32), expires: new Date(expires), callbackUrl }
}

/** Makes the request's code and stores its hash, under the address; returns the code. */
export async function issueCode(
  ctx: ActionContext,
  provider: EmailConfig,
  settings: CodeSettings,
  address: string,
  request: CodeRequest,
): Promise<string> {
  const code = newCode(settings.length)
  const adapter = emailAdapter(ctx)
  const stored = {
    identifier: address,
    token: await hashCode(ctx.config.secrets[0]!, provider, request.nonce, code),
    expires: request.expires,
  }
  await callAdapter("createVerificationToken", () => adapter.createVerificationToken(stored))
  return code
}
