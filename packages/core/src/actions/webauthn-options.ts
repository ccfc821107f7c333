/**
 * `GET {basePath}/webauthn-options/<provider>?action=register|authenticate` → `{ action, options }`:
 * the public-key options of a WebAuthn ceremony, with its challenge in a sealed cookie.
 */
import { isWebAuthnProvider } from "../config/providers.js"
import { InvalidRequest } from "../errors.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"
import { providerOf } from "./provider.js"

export async function webAuthnOptions(ctx: ActionContext): Promise<ResponseInternal> {
  const provider = providerOf(ctx)
  if (!isWebAuthnProvider(provider)) {
    throw new InvalidRequest(`Provider "${provider.id}" is not a WebAuthn provider`)
  }
  const { webAuthnCeremonyOptions } = await import("../flows/webauthn/options.js")
  return {
    status: 200,
    headers: { "cache-control": "no-store" },
    body: await webAuthnCeremonyOptions(ctx, provider),
  }
}
