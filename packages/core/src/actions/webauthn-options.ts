/**
 * `GET {basePath}/webauthn-options/<provider>?action=register|authenticate` → `{ action, options }`:
 * the public-key options of a WebAuthn ceremony, with its challenge in a sealed cookie. A path
 * that names no WebAuthn provider is a 404 `WebAuthnNotEnabled`; a registration by a visitor who
 * is not signed in a 403 `WebAuthnRegistrationRequiresSignIn`; a registration by a signed-in user
 * whose session holds no fresh proof a 403 `ReauthenticationRequired` with the `url` of the
 * re-authentication step; too many anonymous requests from
 * one client address a 429 `WebAuthnRateLimited` with `Retry-After`.
 */
import { isWebAuthnProvider } from "../config/providers.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"

/** Options are per user and per challenge: never cached, whatever the answer. */
const NO_STORE = { "cache-control": "no-store" }

export async function webAuthnOptions(ctx: ActionContext): Promise<ResponseInternal> {
  const id = ctx.request.providerId
  const provider = id === undefined ? undefined : ctx.config.providers.get(id)
  if (!provider || !isWebAuthnProvider(provider)) {
    return {
      status: 404,
      body: {
        error: "WebAuthnNotEnabled",
        message: `No WebAuthn provider has the id ${JSON.stringify(id ?? "")}.`,
      },
    }
  }
  const { webAuthnCeremonyOptions } = await import("../flows/webauthn/options.js")
  const outcome = await webAuthnCeremonyOptions(ctx, provider)
  if ("body" in outcome) return { status: 200, headers: NO_STORE, body: outcome.body }
  const { status, error, message, retryAfter, url } = outcome.refusal
  const headers: Record<string, string> =
    retryAfter === undefined ? NO_STORE : { ...NO_STORE, "retry-after": String(retryAfter) }
  return { status, headers, body: { error, message, ...(url ? { url } : {}) } }
}
