/**
 * Two-factor authentication, for SvelteKit pages of the app's own: `getTwoFactorStatus(event)`
 * says whether the signed-in user has it on; `beginTwoFactorSetup(event)` gives a setup page
 * what it shows (the QR code, the key) and posts back. The steps themselves are form actions of
 * `SvelteKitAuth`: `verifyTwoFactor`, `confirmTwoFactorSetup`, `disableTwoFactor`,
 * `regenerateRecoveryCodes`.
 */
import {
  beginTwoFactorSetup as beginSetup,
  getTwoFactorStatus as statusOf,
  type SecurityKeyDetails,
  type TwoFactorSetupData,
  type TwoFactorStatus,
} from "@latch/core"
import type { RequestEvent } from "@sveltejs/kit"
import { configOf } from "./request-config.js"

export type { SecurityKeyDetails, TwoFactorSetupData, TwoFactorStatus }

type Event = Pick<RequestEvent, "locals" | "request">

/**
 * The signed-in user's two-factor authentication: `enabled`, whether an authenticator `app` is
 * set up, and the `securityKeys` added as a second factor (each with its `id`, for
 * `{basePath}/two-factor/security-key-remove`); `null` when the request has no session. Needs an
 * adapter (the factors are stored there).
 *
 * @example
 * ```ts
 * // src/routes/settings/security/+page.server.ts
 * import { getTwoFactorStatus } from "@latch/sveltekit"
 *
 * export const load = async (event) => ({ twoFactor: await getTwoFactorStatus(event) })
 * ```
 */
export async function getTwoFactorStatus(event: Event): Promise<TwoFactorStatus | null> {
  return statusOf(event.request, configOf(event, "getTwoFactorStatus"))
}

/**
 * A new authenticator setup for the request's user: the signed-in user, or the user of a
 * sign-in that must set one up before its session (`twoFactor.required`); `null` for anyone
 * else. Nothing is stored until `confirmTwoFactorSetup` gets a code of the new secret; each call
 * makes a new secret, so call it in the page's `load`, not in a layout.
 *
 * The page shows `qrSvg` (`{@html}`: Latch draws it, nothing of the user's is in it) and
 * `secret` (to type by hand), and posts `setup` back in a hidden field with the `code`, and
 * `currentCode` when `replacing`.
 */
export async function beginTwoFactorSetup(event: Event): Promise<TwoFactorSetupData | null> {
  return beginSetup(event.request, configOf(event, "beginTwoFactorSetup"))
}
