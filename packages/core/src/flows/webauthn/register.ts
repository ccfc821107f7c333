/**
 * A registration response: a new credential for the ceremony's user, verified against the
 * challenge, origin and RP id, and not registered before. The identity it returns carries the
 * authenticator to store once the user is resolved.
 */
import type { ActionContext } from "../../actions/context.js"
import type { Account, User } from "../../types.js"
import type { AdapterAuthenticator } from "../../adapters.js"
import type { WebAuthnConfig } from "../../providers/webauthn.js"
import { callAdapter } from "../../session/adapter-call.js"
import type { Identity } from "../../session/identity.js"
import { signedInUserId } from "../../session/signed-in.js"
import { webAuthnAdapter } from "./adapter.js"
import { checkAttestation } from "./attestation.js"
import type { Ceremony } from "./challenge.js"
import { checkClientData } from "./client-data.js"
import { storedCredentialIds, toBase64 } from "./encoding.js"
import { simpleWebAuthn } from "./library.js"
import { newPasskeyFields } from "./passkey-fields.js"
import { relyingParty } from "./relying-party.js"
import { refuse, verifyWith, type CredentialResponse } from "./response.js"

type Registration = Extract<Ceremony, { action: "register" }>

/** What `verifyRegistrationResponse` returns on success (the fields Latch stores). */
interface VerifiedRegistration {
  verified: boolean
  registrationInfo?: {
    credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] }
    credentialDeviceType: string
    credentialBackedUp: boolean
    /** The model's AAGUID, all zeros when the authenticator names none. */
    aaguid?: string
  }
}

/** The user the credential is for, still as the ceremony left them. */
async function registeringUser(ctx: ActionContext, ceremony: Registration): Promise<User> {
  const adapter = webAuthnAdapter(ctx)
  const currentId = await signedInUserId(ctx)
  if (ceremony.exists) {
    const current =
      currentId === ceremony.user.id
        ? await callAdapter("getUser", () => adapter.getUser(currentId))
        : null
    if (!current) refuse("session", "The signed-in user changed during the registration")
    return current
  }
  if (currentId) refuse("session", "A user signed in during the registration of a new account")
  const email = ceremony.user.email!
  if (ceremony.signUp !== undefined) {
    // A passkey-first sign-up: the proof of the address is spent now, and must be the one the
    // options were made for, for this very address.
    const { spendSignUpProof } = await import("../passkey-signup/proof.js")
    const proven = await spendSignUpProof(ctx, ceremony.provider, ceremony.signUp)
    if (proven !== email) refuse("session", "The proof of the address is for another address")
  }
  const taken = await callAdapter("getUserByEmail", () => adapter.getUserByEmail(email))
  if (taken) refuse("email-in-use", "The new account's email address belongs to another user")
  return { id: ceremony.user.id, email, name: ceremony.user.name ?? null, image: null }
}

/** A new credential, verified, as it is to be stored (without its user). */
export type NewCredential = Omit<AdapterAuthenticator, "userId">

/**
 * Verifies a new credential's registration response against `challenge` (this site's origin and
 * RP id, the attestation policy) and checks it is not registered already; returns it as it is to
 * be stored.
 */
export async function verifyNewCredential(
  ctx: ActionContext,
  provider: WebAuthnConfig,
  response: CredentialResponse,
  { challenge, requireUserVerification }: { challenge: string; requireUserVerification: boolean },
): Promise<NewCredential> {
  const rp = await relyingParty(ctx, provider)
  checkClientData(response, { type: "webauthn.create", challenge, rp })
  const library = await simpleWebAuthn(provider)
  const { registrationInfo } = await verifyWith<VerifiedRegistration>(() =>
    library.verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification,
      supportedAlgorithmIDs: provider.supportedAlgorithmIDs,
      ...provider.verifyRegistrationOptions,
    }),
  )
  if (!registrationInfo) refuse("verification", "The registration carried no credential")
  await checkAttestation(provider, response)
  const { credential } = registrationInfo
  const adapter = webAuthnAdapter(ctx)
  // Stored as Auth.js stores it (padded standard base64), so that a move back keeps it working;
  // a row in the form Latch wrote before (base64url) counts as registered too.
  const forms = storedCredentialIds(credential.id)
  if (forms.length === 0) refuse("invalid-response", "The credential id is not base64url")
  for (const form of forms) {
    const known = await callAdapter("getAuthenticator", () => adapter.getAuthenticator(form))
    if (known) refuse("credential-exists", "This credential is registered already")
  }
  const credentialID = forms[0]!
  return {
    credentialID,
    providerAccountId: credentialID,
    credentialPublicKey: toBase64(credential.publicKey),
    counter: credential.counter,
    credentialDeviceType: registrationInfo.credentialDeviceType,
    credentialBackedUp: registrationInfo.credentialBackedUp,
    transports: credential.transports?.length ? credential.transports.join(",") : null,
    // Stored only by adapters that keep Latch's passkey fields (see passkey-fields.ts).
    ...newPasskeyFields(registrationInfo.aaguid, ctx.request.headers.get("user-agent")),
  }
}

/** Verifies a registration; returns the identity to sign in, with the new authenticator. */
export async function verifyRegistration(
  ctx: ActionContext,
  provider: WebAuthnConfig,
  ceremony: Registration,
  response: CredentialResponse,
): Promise<Identity> {
  const authenticator = await verifyNewCredential(ctx, provider, response, {
    challenge: ceremony.challenge,
    requireUserVerification: provider.userVerification === "required",
  })
  const user = await registeringUser(ctx, ceremony)
  const account: Account = {
    provider: provider.id,
    type: "webauthn",
    providerAccountId: authenticator.credentialID,
  }
  return {
    user,
    account,
    authenticator,
    isNewUser: !ceremony.exists,
    ...(ceremony.signUp !== undefined ? { emailProven: true } : {}),
  }
}
