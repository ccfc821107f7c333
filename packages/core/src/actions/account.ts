/**
 * The signed-in user's sign-in methods (`session/sign-in-methods.ts`):
 *
 * ```
 * GET  {basePath}/account              → { methods, twoFactor?, passkeys? }, 401 when signed out
 * POST {basePath}/unlink/<provider>    → removes one (`id`: the account's or passkey's id)
 * POST {basePath}/passkey/rename       → renames a passkey of theirs (`id`, `name`)
 * ```
 *
 * `passkeys` is what the browser's WebAuthn Signal API takes (`flows/webauthn/signals.ts`).
 *
 * Linking a new method is a sign-in while signed in (`POST {basePath}/signin/<provider>`, or a
 * passkey registration), which links it to the signed-in user; both are CSRF-protected posts.
 */
import { AccountError, UnknownAction } from "../errors.js"
import { redirectTo } from "../response/redirect.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import { removeSignInMethod, signedInUser, signInMethodsOf } from "../session/sign-in-methods.js"
import type { ResponseInternal } from "../types.js"
import type { TwoFactorStatus } from "../flows/two-factor/status.js"
import type { ActionContext } from "./context.js"

export async function accountMethods(ctx: ActionContext): Promise<ResponseInternal> {
  let user
  try {
    user = await signedInUser(ctx)
  } catch (error) {
    if (error instanceof AccountError)
      return { status: 401, body: { error: "SessionRequired", message: "Sign in first." } }
    throw error
  }
  let twoFactor: TwoFactorStatus | undefined
  if (ctx.config.twoFactor) {
    const { twoFactorStatusOf } = await import("../flows/two-factor/status.js")
    twoFactor = await twoFactorStatusOf(ctx, user.id)
  }
  const { passkeySignalsOf } = await import("../flows/webauthn/signals.js")
  const passkeys = await passkeySignalsOf(ctx, user)
  return {
    status: 200,
    body: {
      methods: await signInMethodsOf(ctx, user),
      ...(twoFactor ? { twoFactor } : {}),
      ...(passkeys ? { passkeys } : {}),
    },
    headers: { "cache-control": "private, no-store" },
  }
}

export async function unlinkMethod(ctx: ActionContext): Promise<ResponseInternal> {
  const provider = ctx.request.providerId
  const { id } = ctx.request.body
  if (!provider || typeof id !== "string")
    throw new AccountError("name the method: /unlink/<provider> with an id", { code: "not_found" })
  const callbackUrl = await resolveCallbackUrl(ctx)
  await removeSignInMethod(ctx, { provider, id })
  return redirectTo(ctx, callbackUrl)
}

/** `POST {basePath}/passkey/rename` with `id` and `name`; then to `callbackUrl`. */
export async function passkeyAction(ctx: ActionContext): Promise<ResponseInternal> {
  if (ctx.request.providerId !== "rename")
    throw new UnknownAction(
      `no passkey action "${ctx.request.providerId ?? ""}": use /passkey/rename`,
    )
  const { id, name } = ctx.request.body
  const callbackUrl = await resolveCallbackUrl(ctx)
  const { renamePasskey } = await import("../session/rename-passkey.js")
  await renamePasskey(ctx, { id, name })
  return redirectTo(ctx, callbackUrl)
}
