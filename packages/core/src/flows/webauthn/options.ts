/**
 * `GET {basePath}/webauthn-options/<provider>?action=register|authenticate`: the options the
 * browser passes to `navigator.credentials.create()` or `.get()`, and the challenge cookie that
 * ties the response to them.
 *
 * Who may register:
 * - a signed-in user, for their own account;
 * - a visitor whose email (`getUserInfo`) belongs to no account yet, creating one.
 * A passkey is never added to an existing account by someone who is not signed in to it: that
 * would hand the account to whoever knows its address. Without `action`, a signed-in user or a
 * new address registers and everyone else authenticates.
 *
 * Authentication options list no credentials to anonymous visitors (a list would tell anyone
 * which accounts exist): passkeys are discoverable, the authenticator finds its own.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import { InvalidRequest } from "../../errors.js"
import { isPlainAddress } from "../email/address.js"
import type { WebAuthnConfig, WebAuthnUserInfo } from "../../providers/webauthn.js"
import { callAdapter } from "../../session/adapter-call.js"
import { signedInUserId } from "../../session/signed-in.js"
import type { WebAuthnOptionsResponseBody } from "../../types.js"
import { webAuthnAdapter } from "./adapter.js"
import { createCeremony } from "./challenge.js"
import { simpleWebAuthn } from "./library.js"
import { relyingParty, webAuthnRequest } from "./relying-party.js"
import { credentialDescriptor, userHandle } from "./encoding.js"

type Action = WebAuthnOptionsResponseBody["action"]

/** The action asked for in the query, checked. */
function requestedAction(ctx: ActionContext): Action | undefined {
  const action = ctx.request.query.action
  if (action === undefined || action === "") return undefined
  if (action === "register" || action === "authenticate") return action
  throw new InvalidRequest('"action" must be "register" or "authenticate"')
}

/** Who the ceremony is for: the signed-in user, or what `getUserInfo` says of the visitor. */
async function whoIsAsking(
  ctx: ActionContext,
  provider: WebAuthnConfig,
  requested: Action | undefined,
): Promise<{ current: AdapterUser | null; info: WebAuthnUserInfo | null }> {
  const adapter = webAuthnAdapter(ctx)
  const currentId = await signedInUserId(ctx)
  const current = currentId ? await callAdapter("getUser", () => adapter.getUser(currentId)) : null
  if (current || requested === "authenticate") return { current, info: null }
  const info = await provider.getUserInfo({ adapter, provider }, webAuthnRequest(ctx))
  return { current: null, info: info && typeof info.user?.email === "string" ? info : null }
}

/** The address of a new account: it becomes the user's email, so it must be one plain address. */
function newAccountEmail(info: WebAuthnUserInfo): string {
  const email = info.user.email.trim().toLowerCase()
  if (!isPlainAddress(email)) throw new InvalidRequest("The email address is not one plain address")
  return email
}

function decide(
  requested: Action | undefined,
  current: AdapterUser | null,
  info: WebAuthnUserInfo | null,
): Action {
  if (requested === "authenticate") return "authenticate"
  if (current) return "register"
  if (requested === "register") {
    if (!info) {
      throw new InvalidRequest(
        "Registering a passkey needs a signed-in user or an email address (the `email` parameter)",
      )
    }
    if (info.exists) {
      throw new InvalidRequest(
        "This email address already has an account: sign in to it to add a passkey",
      )
    }
    return "register"
  }
  return info && !info.exists ? "register" : "authenticate"
}

async function registrationOptions(
  ctx: ActionContext,
  provider: WebAuthnConfig,
  user: { id: string; email?: string; name?: string },
  exists: boolean,
): Promise<Record<string, unknown>> {
  const adapter = webAuthnAdapter(ctx)
  const [library, rp] = await Promise.all([simpleWebAuthn(provider), relyingParty(ctx, provider)])
  const registered = exists
    ? await callAdapter("listAuthenticatorsByUserId", () =>
        adapter.listAuthenticatorsByUserId(user.id),
      )
    : []
  const options = (await library.generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email ?? user.name ?? user.id,
    userID: await userHandle(user.id),
    userDisplayName: user.name ?? user.email ?? "",
    timeout: provider.timeout,
    attestationType: "none",
    // The same credential twice on one account would only confuse the user.
    excludeCredentials: registered.map(credentialDescriptor),
    authenticatorSelection: {
      residentKey: provider.residentKey,
      requireResidentKey: provider.residentKey === "required",
      userVerification: provider.userVerification,
    },
    supportedAlgorithmIDs: provider.supportedAlgorithmIDs,
    ...provider.registrationOptions,
  })) as Record<string, unknown> & { challenge: string }
  await createCeremony(ctx, {
    action: "register",
    provider: provider.id,
    challenge: options.challenge,
    user,
    exists,
  })
  return options
}

async function authenticationOptions(
  ctx: ActionContext,
  provider: WebAuthnConfig,
  current: AdapterUser | null,
): Promise<Record<string, unknown>> {
  const adapter = webAuthnAdapter(ctx)
  const [library, rp] = await Promise.all([simpleWebAuthn(provider), relyingParty(ctx, provider)])
  // A signed-in user confirming it is them may use any of their credentials, discoverable or not.
  const own = current
    ? await callAdapter("listAuthenticatorsByUserId", () =>
        adapter.listAuthenticatorsByUserId(current.id),
      )
    : []
  const options = (await library.generateAuthenticationOptions({
    rpID: rp.id,
    timeout: provider.timeout,
    userVerification: provider.userVerification,
    allowCredentials: own.map(credentialDescriptor),
    ...provider.authenticationOptions,
  })) as Record<string, unknown> & { challenge: string }
  await createCeremony(ctx, {
    action: "authenticate",
    provider: provider.id,
    challenge: options.challenge,
  })
  return options
}

/** The options for the ceremony this request calls for; sets the challenge cookie. */
export async function webAuthnCeremonyOptions(
  ctx: ActionContext,
  provider: WebAuthnConfig,
): Promise<WebAuthnOptionsResponseBody> {
  const requested = requestedAction(ctx)
  const { current, info } = await whoIsAsking(ctx, provider, requested)
  const action = decide(requested, current, info)
  if (action === "authenticate") {
    return { action, options: await authenticationOptions(ctx, provider, current) }
  }
  const user = current
    ? {
        id: current.id,
        email: current.email || undefined,
        name: current.name ?? undefined,
      }
    : {
        // The account's id, chosen now so that the credential's user handle names it.
        id: crypto.randomUUID(),
        email: newAccountEmail(info!),
        name: info!.user.name ?? undefined,
      }
  return { action, options: await registrationOptions(ctx, provider, user, current !== null) }
}
