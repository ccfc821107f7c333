/**
 * The signed-in user's sign-in methods (`session/sign-in-methods.ts`):
 *
 * ```
 * GET  {basePath}/account              → { methods: SignInMethod[] }, 401 when signed out
 * POST {basePath}/unlink/<provider>    → removes one (`id`: the account's or passkey's id)
 * ```
 *
 * Linking a new method is a sign-in while signed in (`POST {basePath}/signin/<provider>`, or a
 * passkey registration), which links it to the signed-in user; both are CSRF-protected posts.
 */
import { AccountError } from "../errors.js"
import { redirectTo } from "../response/redirect.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import { removeSignInMethod, signedInUser, signInMethodsOf } from "../session/sign-in-methods.js"
import type { ResponseInternal } from "../types.js"
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
  let twoFactor: { enabled: boolean } | undefined
  if (ctx.config.twoFactor) {
    const { hasSecondFactor } = await import("../flows/two-factor/store.js")
    twoFactor = { enabled: await hasSecondFactor(ctx, user.id) }
  }
  return {
    status: 200,
    body: { methods: await signInMethodsOf(ctx, user), ...(twoFactor ? { twoFactor } : {}) },
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
