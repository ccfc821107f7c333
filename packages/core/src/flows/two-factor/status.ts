/** What a user's page shows of their two-factor authentication. */
import type { ActionContext } from "../../actions/context.js"
import { securityKeyList, type SecurityKeyDetails } from "./keys.js"
import { hasTotp } from "./store.js"

/** A user's two-factor authentication, as `getTwoFactorStatus` and `GET {basePath}/account` give it. */
export interface TwoFactorStatus {
  /** Whether it is on: an authenticator app, or at least one security key. */
  enabled: boolean
  /** Whether an authenticator app (TOTP) is set up. */
  app: boolean
  /** The security keys (and passkeys) added as a second factor; `[]` without a WebAuthn adapter. */
  securityKeys: SecurityKeyDetails[]
}

export async function twoFactorStatusOf(
  ctx: Pick<ActionContext, "config">,
  userId: string,
): Promise<TwoFactorStatus> {
  const [app, securityKeys] = await Promise.all([
    hasTotp(ctx, userId),
    securityKeyList(ctx, userId),
  ])
  return { enabled: app || securityKeys.length > 0, app, securityKeys }
}
