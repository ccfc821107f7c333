/**
 * `GET {basePath}/webauthn-options/<provider>?action=register|authenticate` → `{ action, options }`:
 * the public-key options of a WebAuthn ceremony, with its challenge in a sealed cookie. A path
 * that names no WebAuthn provider is a 404 `WebAuthnNotEnabled`.
 */
import { isWebAuthnProvider } from "../config/providers.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"

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
  return {
    status: 200,
    headers: { "cache-control": "no-store" },
    body: await webAuthnCeremonyOptions(ctx, provider),
  }
}
