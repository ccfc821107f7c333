/**
 * Security keys (or passkeys) as a second factor, the two-factor actions' `security-key…` steps:
 *
 * ```
 * GET  {basePath}/two-factor/security-key         → { options }: assertion options for the
 *                                                  code step of this browser's pending sign-in
 *                                                  (without one: the signed-in user's
 *                                                  re-authentication step)
 * POST {basePath}/two-factor/security-key         `data`: the assertion; completes the sign-in
 * GET  {basePath}/two-factor/security-key-setup   → { options }: registration options (signed
 *                                                  in with fresh proof, or a pending sign-in
 *                                                  that must set a factor up)
 * POST {basePath}/two-factor/security-key-setup   `data`: the registration; stores the key
 * POST {basePath}/two-factor/security-key-remove  `id`: removes one of the user's keys
 * ```
 *
 * Options are JSON, never cached. A signed-in setup whose session holds no fresh proof is a 403
 * `ReauthenticationRequired` with the `url` of the re-authentication step.
 */
import type { AdapterUser } from "../adapters.js"
import { reauthenticationUrl } from "../account/step-url.js"
import { ReauthenticationRequired } from "../errors.js"
import { redirectTo } from "../response/redirect.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import type { HeldSignIn } from "../flows/two-factor/pending.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"
import {
  completeSignIn,
  currentToken,
  pendingOf,
  showCodes,
  signedInUser,
} from "./two-factor-shared.js"

const NO_STORE = { "cache-control": "no-store" }

/** `{ action, options }`, as `webauthn-options` answers (the browser clients read `action`). */
function optionsAnswer(
  action: "authenticate" | "register",
  options: Record<string, unknown>,
): ResponseInternal {
  return { status: 200, headers: NO_STORE, body: { action, options } }
}

/**
 * What the built-in pages offer: the key step's URL when keys can be used here (a WebAuthn
 * provider, an adapter with Latch's passkey fields) — for the code step, only when the pending
 * sign-in's user has a credential to answer with.
 */
export async function keyUrls(
  ctx: ActionContext,
  pending?: HeldSignIn,
): Promise<{ keyUrl?: string; keySetupUrl?: string }> {
  const { keyAdapter, keyProvider } = await import("../flows/two-factor/keys.js")
  try {
    keyProvider(ctx)
    keyAdapter(ctx)
  } catch {
    return {}
  }
  const base = `${ctx.actionBase}/two-factor`
  if (!pending) return { keySetupUrl: `${base}/security-key-setup` }
  const { codeStepCredentials } = await import("../flows/two-factor/key-options.js")
  const usable = (await codeStepCredentials(ctx, pending)).length > 0
  return usable ? { keyUrl: `${base}/security-key` } : {}
}

/**
 * GET `security-key`: assertion options bound to this browser's pending sign-in; without one,
 * for the signed-in user's re-authentication step (`method=securityKey`).
 */
export async function keyOptions(ctx: ActionContext): Promise<ResponseInternal> {
  const { keyAssertionOptions } = await import("../flows/two-factor/key-options.js")
  const { pendingSignIn } = await import("../flows/two-factor/pending.js")
  if ((await pendingSignIn(ctx))?.mode !== "verify") {
    const { signedInUser: sessionUser } = await import("../session/signed-in.js")
    const user = await sessionUser(ctx)
    if (user) return optionsAnswer("authenticate", await keyAssertionOptions(ctx, { user }))
  }
  const { pending } = await pendingOf(ctx, "verify")
  return optionsAnswer("authenticate", await keyAssertionOptions(ctx, { pending }))
}

/** POST `security-key`: the code step answered with a key. */
export async function keyAnswer(ctx: ActionContext): Promise<ResponseInternal> {
  const { pending, user } = await pendingOf(ctx, "verify")
  const { checkKeyAtCodeStep } = await import("../flows/two-factor/key-verify.js")
  await checkKeyAtCodeStep(ctx, user, pending)
  return redirectTo(ctx, await completeSignIn(ctx, user, pending, "security-key"))
}

/** The pending sign-in that must set a factor up, if this browser has one. */
async function enrolling(ctx: ActionContext) {
  const { pendingSignIn } = await import("../flows/two-factor/pending.js")
  const held = await pendingSignIn(ctx)
  return held?.mode === "enrol" ? pendingOf(ctx, "enrol") : null
}

/** The refusal for a signed-in user without fresh proof, asked before the ceremony. */
async function unlessFresh(
  ctx: ActionContext,
  user: AdapterUser,
): Promise<ResponseInternal | undefined> {
  const { requireFreshProof } = await import("../account/change.js")
  try {
    await requireFreshProof(ctx, user)
    return undefined
  } catch (error) {
    if (!(error instanceof ReauthenticationRequired)) throw error
    const url = reauthenticationUrl(ctx, await resolveCallbackUrl(ctx), error.code)
    const message = "Confirm it is you, then add the security key."
    return {
      status: 403,
      headers: NO_STORE,
      body: { error: "ReauthenticationRequired", message, url },
    }
  }
}

/** GET `security-key-setup`: registration options for a new second-factor key. */
export async function keySetupOptions(ctx: ActionContext): Promise<ResponseInternal> {
  const { keyRegistrationOptions } = await import("../flows/two-factor/key-options.js")
  const signIn = await enrolling(ctx)
  if (signIn)
    return optionsAnswer("register", await keyRegistrationOptions(ctx, signIn.user, signIn.pending))
  const user = await signedInUser(ctx)
  const refusal = await unlessFresh(ctx, user)
  return refusal ?? optionsAnswer("register", await keyRegistrationOptions(ctx, user))
}

/** POST `security-key-setup`: stores the key; shows recovery codes when it is the first factor. */
export async function keySetup(ctx: ActionContext): Promise<ResponseInternal> {
  const { enrolKey } = await import("../flows/two-factor/key-enrol.js")
  const signIn = await enrolling(ctx)
  if (signIn) {
    const codes = await enrolKey(ctx, signIn.user, { pending: signIn.pending })
    const next = await completeSignIn(ctx, signIn.user, signIn.pending, "security-key")
    return codes ? showCodes(ctx, codes, next) : redirectTo(ctx, next)
  }
  const user = await signedInUser(ctx)
  const codes = await enrolKey(ctx, user, { keepSession: await currentToken(ctx) })
  const next = await resolveCallbackUrl(ctx)
  return codes ? showCodes(ctx, codes, next) : redirectTo(ctx, next)
}

/** POST `security-key-remove`: removes one of the signed-in user's keys (`id`). */
export async function keyRemove(ctx: ActionContext): Promise<ResponseInternal> {
  const user = await signedInUser(ctx)
  const { removeKey } = await import("../flows/two-factor/key-enrol.js")
  await removeKey(ctx, user, ctx.request.body.id)
  return redirectTo(ctx, await resolveCallbackUrl(ctx))
}
