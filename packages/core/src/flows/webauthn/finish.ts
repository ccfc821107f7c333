/**
 * `POST {basePath}/callback/<webauthn provider>` with `action` and `data`: the browser answered
 * the ceremony of the challenge cookie. The challenge is spent first, whatever happens next.
 */
import type { ActionContext } from "../../actions/context.js"
import type { WebAuthnConfig } from "../../providers/webauthn.js"
import type { Identity } from "../../session/identity.js"
import { verifyAuthentication } from "./authenticate.js"
import { useCeremony } from "./challenge.js"
import { verifyRegistration } from "./register.js"
import { postedResponse, refuse } from "./response.js"

/** Verifies the posted response; returns the identity to sign in. */
export async function finishWebAuthn(
  ctx: ActionContext,
  provider: WebAuthnConfig,
): Promise<Identity> {
  const ceremony = await useCeremony(ctx, provider.id)
  const action = ctx.request.body.action
  if (action !== undefined && action !== ceremony.action) {
    refuse(
      "challenge",
      `The response is for "${String(action)}", the challenge for "${ceremony.action}"`,
    )
  }
  // A second factor's ceremony is finished by its own step (`/two-factor/security-key…`).
  if (ceremony.action !== "register" && ceremony.action !== "authenticate")
    refuse("challenge", "The challenge is that of a second factor, not of a sign-in")
  const response = postedResponse(ctx)
  return ceremony.action === "register"
    ? verifyRegistration(ctx, provider, ceremony, response)
    : verifyAuthentication(ctx, provider, ceremony, response)
}
