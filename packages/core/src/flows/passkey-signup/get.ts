/**
 * `getPasskeySignUp(request, config, provider?)`: where this browser is in a passkey-first
 * sign-up, for an app's own page (`pages.passkeySignUp`). Reads the sealed cookie; spends and
 * changes nothing.
 */
import type { AuthConfig } from "../../types.js"

/** Where a browser is in a passkey-first sign-up. */
export interface PasskeySignUp {
  /**
   * `email`: nothing started (or it expired): ask for the address. `code`: a mail went out: ask
   * for its code. `passkey`: the address is proven: run the registration
   * (`webauthn-options/<provider>?action=register`, then the callback).
   */
  stage: "email" | "code" | "passkey"
  /** The address being proven (stages `code` and `passkey`), as the visitor typed it. */
  email?: string
  /** The WebAuthn provider's id. */
  provider: string
}

/**
 * Where the request's browser is in its passkey-first sign-up with `provider` (default
 * `"passkey"`). Post the address and the code to `{basePath}/passkey-signup/<provider>`.
 *
 * @example
 * ```ts
 * const { stage, email } = await getPasskeySignUp(request, config)
 * ```
 */
export async function getPasskeySignUp(
  request: Request,
  config: AuthConfig,
  provider = "passkey",
): Promise<PasskeySignUp> {
  const [{ requestContext }, { readSignUp }] = await Promise.all([
    import("../../session/sign-in-methods.js"),
    import("./state.js"),
  ])
  const ctx = requestContext(request, config, "Passkey sign-up")
  const state = await readSignUp(ctx, provider)
  if (!state || state === "expired") return { stage: "email", provider }
  return { stage: state.stage === "code" ? "code" : "passkey", email: state.email, provider }
}
