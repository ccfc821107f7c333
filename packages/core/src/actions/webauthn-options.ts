/** `GET {basePath}/webauthn-options/<provider>` — passkeys are not part of this version yet. */
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"

export async function webAuthnOptions(_ctx: ActionContext): Promise<ResponseInternal> {
  return {
    status: 404,
    body: {
      error: "WebAuthnNotEnabled",
      message: "Passkeys are not enabled: this version of @latch/core has no WebAuthn provider.",
    },
  }
}
