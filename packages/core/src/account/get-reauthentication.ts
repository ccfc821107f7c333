/**
 * `getReauthentication(request, config)`: the re-authentication step as a page of the app's own
 * sees it. Loads the step's modules only when called.
 */
import type { AuthConfig } from "../types.js"
import type { ReauthenticationOptions } from "./reauthenticate.js"

export type { ReauthenticationMethod, ReauthenticationOptions } from "./reauthenticate.js"

/** What a page of the app's own needs to know about the request's user and the step. */
export interface Reauthentication extends ReauthenticationOptions {
  /**
   * Whether the session may change the account's ways in now, without the step: its proof is
   * fresh (and included the second factor, for a user who has one).
   */
  fresh: boolean
  /** Until when it may, when `fresh`. */
  freshUntil?: Date
}

/**
 * Whether the request's user may change their account's ways in now, and the ways they can
 * confirm it is them — for an app's own re-authentication page (`pages.reauthenticate`), or to
 * ask before starting a change (linking an account, adding a passkey). `null` without a session.
 * Post the confirmation to `{basePath}/reauthenticate` (see the action).
 *
 * @example
 * ```ts
 * const step = await getReauthentication(request, config)
 * if (step && !step.fresh) return redirect(`/auth/reauthenticate?callbackUrl=${here}`)
 * ```
 */
export async function getReauthentication(
  request: Request,
  config: AuthConfig,
): Promise<Reauthentication | null> {
  const [{ requestContext }, { signedInUser }, { reauthenticationOptions }, { freshProof }] =
    await Promise.all([
      import("../session/sign-in-methods.js"),
      import("../session/signed-in.js"),
      import("./reauthenticate.js"),
      import("./proof.js"),
    ])
  const ctx = requestContext(request, config, "Re-authentication")
  const user = await signedInUser(ctx)
  if (!user) return null
  const options = await reauthenticationOptions(ctx, user)
  const proof = await freshProof(ctx, user.id)
  const fresh = proof !== null && (!options.secondFactor || proof.secondFactor)
  return {
    ...options,
    fresh,
    ...(fresh
      ? { freshUntil: new Date((proof!.at + ctx.config.accountChanges.freshAge) * 1000) }
      : {}),
  }
}
