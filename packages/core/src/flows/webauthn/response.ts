/**
 * The posted WebAuthn response (the `data` field: the JSON of a `PublicKeyCredential`, as
 * `@simplewebauthn/browser` makes it), and how a failed check becomes an error code.
 */
import type { ActionContext } from "../../actions/context.js"
import { AuthError, WebAuthnVerificationError, type WebAuthnErrorCode } from "../../errors.js"
import { isBase64url } from "../../lib/base64url.js"

/** The fields every WebAuthn response has; the library checks the rest. */
export interface CredentialResponse {
  id: string
  rawId: string
  type: "public-key"
  response: Record<string, unknown>
  clientExtensionResults?: Record<string, unknown>
  [field: string]: unknown
}

/** Refuses a ceremony with a code for the sign-in page. */
export function refuse(code: WebAuthnErrorCode, message: string, cause?: unknown): never {
  throw new WebAuthnVerificationError(message, { code, cause })
}

/** The `data` field as a credential response, or `invalid-response`. */
export function postedResponse(ctx: ActionContext): CredentialResponse {
  let data = ctx.request.body.data
  if (typeof data === "string") {
    try {
      data = JSON.parse(data)
    } catch (error) {
      refuse("invalid-response", "The WebAuthn response is not JSON", error)
    }
  }
  const response = data as Partial<CredentialResponse> | null
  const valid =
    typeof response === "object" &&
    response !== null &&
    typeof response.id === "string" &&
    response.id.length > 0 &&
    response.id.length <= 1366 && // 1,023 bytes at most (WebAuthn §5.8.3), base64url
    isBase64url(response.id) &&
    response.rawId === response.id &&
    response.type === "public-key" &&
    typeof response.response === "object" &&
    response.response !== null
  if (!valid) refuse("invalid-response", "The posted data is not a WebAuthn credential response")
  return response as CredentialResponse
}

/**
 * Runs one of the library's verifications: its failures become `verification` (or, where its
 * message names the check, `rp-id` or `user-verification`), never a server error.
 */
export async function verifyWith<T extends { verified: boolean }>(
  run: () => Promise<T>,
): Promise<T> {
  let result: T
  try {
    result = await run()
  } catch (error) {
    if (error instanceof AuthError) throw error
    const message = error instanceof Error ? error.message : String(error)
    const code: WebAuthnErrorCode = /RP ?ID/i.test(message)
      ? "rp-id"
      : /user (could not be |was not )?verif/i.test(message)
        ? "user-verification"
        : "verification"
    refuse(code, `WebAuthn verification failed: ${message}`, error)
  }
  if (!result.verified) refuse("verification", "The WebAuthn response did not verify")
  return result
}
