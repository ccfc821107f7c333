/**
 * `GET {basePath}/webauthn-options/<provider>?action=register|authenticate`: the options the
 * browser passes to `navigator.credentials.create()` or `.get()`, and the challenge cookie that
 * ties the response to them.
 *
 * Who may register:
 * - a signed-in user, for their own account;
 * - a visitor `getUserInfo` vouches for as the owner of a new address (`exists: false`),
 *   creating an account. The default `getUserInfo` vouches for nobody: an address typed into a
 *   form is a claim, and an account made from a claim is a trap for the address's real owner.
 * A passkey is never added to an existing account by someone who is not signed in to it: that
 * would hand the account to whoever knows its address. Without `action`, a signed-in user or a
 * vouched-for new address registers and everyone else authenticates.
 *
 * What it may reveal: to a visitor who is not signed in, the default answer is the same for
 * every address (authenticate, or the refusal to register), so it tells nobody which addresses
 * have accounts. A custom `getUserInfo` decides for itself. Authentication options list no
 * credentials to anonymous visitors (a list would tell anyone which accounts exist): passkeys
 * are discoverable, the authenticator finds its own. Anonymous requests that consult an app's own
 * `getUserInfo` are rate-limited per client address.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import { InvalidRequest, ReauthenticationRequired } from "../../errors.js"
import { reauthenticationUrl } from "../../account/step-url.js"
import { resolveCallbackUrl } from "../../security/redirect.js"
import { isPlainAddress } from "../email/address.js"
import type { WebAuthnConfig, WebAuthnUserInfo } from "../../providers/webauthn.js"
import { defaultGetUserInfo } from "./user-info.js"
import { callAdapter } from "../../session/adapter-call.js"
import { signedInUser } from "../../session/signed-in.js"
import type { WebAuthnOptionsResponseBody } from "../../types.js"
import { webAuthnAdapter } from "./adapter.js"
import { createCeremony } from "./challenge.js"
import { simpleWebAuthn } from "./library.js"
import { optionsRetryAfter } from "./rate-limit.js"
import { relyingParty, webAuthnRequest } from "./relying-party.js"
import { creationOptions } from "./creation-options.js"
import { credentialDescriptor } from "./encoding.js"

type Action = WebAuthnOptionsResponseBody["action"]

/** Why no options were made: answered as JSON `{ error, message }` with `status`. */
export interface OptionsRefusal {
  status: 403 | 429
  error: "WebAuthnRegistrationRequiresSignIn" | "WebAuthnRateLimited" | "ReauthenticationRequired"
  message: string
  /** Seconds until the client may ask again (429). */
  retryAfter?: number
  /** Where to confirm it is the user (`ReauthenticationRequired`), coming back to the page. */
  url?: string
}

/** The options, or why there are none. */
export type OptionsOutcome = { body: WebAuthnOptionsResponseBody } | { refusal: OptionsRefusal }

const SIGN_IN_FIRST: OptionsRefusal = {
  status: 403,
  error: "WebAuthnRegistrationRequiresSignIn",
  message: "Sign in first, then add a passkey from your account.",
}

function tooMany(retryAfter: number): OptionsRefusal {
  return {
    status: 429,
    error: "WebAuthnRateLimited",
    message: `Too many passkey requests from your network. Try again in ${retryAfter} seconds.`,
    retryAfter,
  }
}

/** The refusal to send a signed-in user who must confirm it is them first, or `undefined`. */
async function unlessFreshProof(
  ctx: ActionContext,
  user: AdapterUser,
): Promise<OptionsRefusal | undefined> {
  const { requireFreshProof } = await import("../../account/change.js")
  try {
    await requireFreshProof(ctx, user)
    return undefined
  } catch (error) {
    if (!(error instanceof ReauthenticationRequired)) throw error
    return {
      status: 403,
      error: "ReauthenticationRequired",
      message: "Confirm it is you, then add the passkey.",
      url: reauthenticationUrl(ctx, await resolveCallbackUrl(ctx), error.code),
    }
  }
}

/** The action asked for in the query, checked. */
function requestedAction(ctx: ActionContext): Action | undefined {
  const action = ctx.request.query.action
  if (action === undefined || action === "") return undefined
  if (action === "register" || action === "authenticate") return action
  throw new InvalidRequest('"action" must be "register" or "authenticate"')
}

/** What `getUserInfo` says of an anonymous visitor: a new account it vouches for, or null. */
async function newAccountInfo(
  ctx: ActionContext,
  provider: WebAuthnConfig,
): Promise<WebAuthnUserInfo | null> {
  const adapter = webAuthnAdapter(ctx)
  const info = await provider.getUserInfo({ adapter, provider }, webAuthnRequest(ctx))
  const valid = info && typeof info.user?.email === "string" && info.exists === false
  return valid ? info : null
}

/** The address of a new account: it becomes the user's email, so it must be one plain address. */
function newAccountEmail(info: WebAuthnUserInfo): string {
  const email = info.user.email.trim().toLowerCase()
  if (!isPlainAddress(email)) throw new InvalidRequest("The email address is not one plain address")
  return email
}

async function registrationOptions(
  ctx: ActionContext,
  provider: WebAuthnConfig,
  user: { id: string; email?: string; name?: string },
  exists: boolean,
  signUp?: string,
): Promise<Record<string, unknown>> {
  const adapter = webAuthnAdapter(ctx)
  const registered = exists
    ? await callAdapter("listAuthenticatorsByUserId", () =>
        adapter.listAuthenticatorsByUserId(user.id),
      )
    : []
  const options = await creationOptions(
    ctx,
    provider,
    user,
    registered,
    provider,
    provider.registrationOptions,
  )
  await createCeremony(ctx, {
    action: "register",
    provider: provider.id,
    challenge: options.challenge,
    user,
    exists,
    ...(signUp ? { signUp } : {}),
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
    // Not the keys kept as a second factor: they sign nobody in.
    allowCredentials: own.filter((a) => a.secondFactor !== true).map(credentialDescriptor),
    ...provider.authenticationOptions,
  })) as Record<string, unknown> & { challenge: string }
  await createCeremony(ctx, {
    action: "authenticate",
    provider: provider.id,
    challenge: options.challenge,
  })
  return options
}

async function authenticate(
  ctx: ActionContext,
  provider: WebAuthnConfig,
  current: AdapterUser | null,
): Promise<OptionsOutcome> {
  return {
    body: { action: "authenticate", options: await authenticationOptions(ctx, provider, current) },
  }
}

async function register(
  ctx: ActionContext,
  provider: WebAuthnConfig,
  user: { id: string; email?: string; name?: string },
  exists: boolean,
  signUp?: string,
): Promise<OptionsOutcome> {
  const options = await registrationOptions(ctx, provider, user, exists, signUp)
  return { body: { action: "register", options } }
}

/** The options for the ceremony this request calls for; sets the challenge cookie. */
export async function webAuthnCeremonyOptions(
  ctx: ActionContext,
  provider: WebAuthnConfig,
): Promise<OptionsOutcome> {
  const requested = requestedAction(ctx)
  const current = await signedInUser(ctx)
  if (current) {
    if (requested === "authenticate") return authenticate(ctx, provider, current)
    // A new passkey is a change of the account: asked for before the ceremony, so that the
    // user confirms who they are first rather than after (the callback asks again).
    const refusal = await unlessFreshProof(ctx, current)
    if (refusal) return { refusal }
    const { id, email, name } = current
    return register(ctx, provider, { id, email: email || undefined, name: name ?? undefined }, true)
  }

  // A passkey-first sign-up whose address this browser proved with the mailed code: the new
  // account's address comes from the sealed proof, never from the request.
  if (provider.signUp === true && requested !== "authenticate") {
    const { provenSignUp } = await import("../passkey-signup/proof.js")
    const proven = await provenSignUp(ctx, provider.id)
    if (proven) {
      const user = { id: crypto.randomUUID(), email: proven.email }
      return register(ctx, provider, user, false, proven.id)
    }
  }
  // Only an app's own getUserInfo can tell addresses apart; the default answers every address
  // alike, so counting its requests (a counter write per sign-in page view) would buy nothing.
  const asksApp = requested !== "authenticate" && provider.getUserInfo !== defaultGetUserInfo
  if (asksApp) {
    const retryAfter = await optionsRetryAfter(ctx, provider)
    if (retryAfter !== undefined) return { refusal: tooMany(retryAfter) }
  }
  const info = asksApp ? await newAccountInfo(ctx, provider) : null
  if (info) {
    // The account's id is chosen now, so that the credential's user handle names it.
    const user = {
      id: crypto.randomUUID(),
      email: newAccountEmail(info),
      name: info.user.name ?? undefined,
    }
    return register(ctx, provider, user, false)
  }
  // Nobody vouched for a new account: the same refusal whether the address has one or not.
  if (requested === "register") return { refusal: SIGN_IN_FIRST }
  return authenticate(ctx, provider, null)
}
