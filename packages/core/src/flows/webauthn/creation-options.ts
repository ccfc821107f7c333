/**
 * The options of `navigator.credentials.create()` for a new credential of a user: the relying
 * party, the user's handle and names, and the credentials the user already has, excluded. One
 * place for what every registration shares — a passkey (`options.ts`) and a second-factor key
 * (`two-factor/key-options.ts`) differ only in what they ask of the authenticator.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterAuthenticator } from "../../adapters.js"
import type { WebAuthnConfig } from "../../providers/webauthn.js"
import { credentialDescriptor, userHandle } from "./encoding.js"
import { simpleWebAuthn } from "./library.js"
import { relyingParty } from "./relying-party.js"
import { credentialUserNames } from "./signals.js"

/** What a registration asks of the authenticator (WebAuthn Level 3 §5.4.4). */
export interface AuthenticatorAsk {
  residentKey: WebAuthnConfig["residentKey"]
  userVerification: WebAuthnConfig["userVerification"]
}

/**
 * The creation options for `user`'s new credential; `registered`: the user's credentials.
 * `extra`: the app's `registrationOptions`, for passkeys (a second-factor key's ask is kept).
 */
export async function creationOptions(
  ctx: ActionContext,
  provider: WebAuthnConfig,
  user: { id: string; email?: string | null; name?: string | null },
  registered: readonly AdapterAuthenticator[],
  ask: AuthenticatorAsk,
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { challenge: string }> {
  const [library, rp] = await Promise.all([simpleWebAuthn(provider), relyingParty(ctx, provider)])
  // The same names as the signals of signals.ts give the browser later.
  const names = credentialUserNames(user)
  return (await library.generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: names.name,
    userID: await userHandle(user.id),
    userDisplayName: names.displayName,
    timeout: provider.timeout,
    // Attestation identifies the authenticator's model to this site: asked for only when a
    // policy will judge it. "direct" rather than "enterprise", which would also identify the
    // individual device and is honoured only where the browser is managed to allow this site.
    attestationType: provider.attestation ? "direct" : "none",
    // The same credential twice on one account would only confuse the user.
    excludeCredentials: registered.map(credentialDescriptor),
    authenticatorSelection: {
      residentKey: ask.residentKey,
      requireResidentKey: ask.residentKey === "required",
      userVerification: ask.userVerification,
    },
    supportedAlgorithmIDs: provider.supportedAlgorithmIDs,
    ...extra,
  })) as Record<string, unknown> & { challenge: string }
}
