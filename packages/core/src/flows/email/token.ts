/**
 * Verification tokens: a random token goes in the link; the adapter stores only its HMAC under
 * the secret, so a database leak yields no working link.
 */
import type { ResolvedConfig } from "../../config/resolved.js"
import { hmacSha256Hex, randomBase64url } from "../../lib/crypto.js"
import type { EmailConfig } from "../../providers/email.js"

/** The token for a new link: the provider's, or 32 random bytes. */
export async function newToken(provider: EmailConfig): Promise<string> {
  const token = await provider.generateVerificationToken?.()
  if (typeof token === "string" && token.length > 0) return token
  return randomBase64url(32)
}

/** The stored form of a token under one secret. */
export function hashToken(token: string, secret: string): Promise<string> {
  return hmacSha256Hex(secret, `latch.email-token\u0000${token}`)
}

/** The token's hash under each secret, newest first (rotation: older links still work). */
export function tokenHashes(config: ResolvedConfig, token: string): Promise<string[]> {
  return Promise.all(config.secrets.map((secret) => hashToken(token, secret)))
}
