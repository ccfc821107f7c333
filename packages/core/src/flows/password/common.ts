/** What the Password provider's forms share: reading their fields, the policy, sessions. */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import { PasswordError, type FormPage } from "../../errors.js"
import { MAX_PASSWORD_LENGTH } from "../../password/hash.js"
import { checkNewPassword } from "../../password/policy.js"
import type { PasswordConfig, PasswordSettings } from "../../providers/password.js"
import type { Identity } from "../../session/identity.js"
import { withQuery } from "../../lib/url.js"

/** The longest name a sign-up keeps. */
const MAX_NAME_LENGTH = 200

/** A posted password: a string of sane size, else `""`. */
export function postedPassword(value: unknown): string {
  return typeof value === "string" && value.length <= MAX_PASSWORD_LENGTH * 4 ? value : ""
}

/** A posted display name: trimmed, without control characters, bounded; `undefined` if none. */
export function postedName(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined
  // eslint-disable-next-line no-control-regex
  const controls = /[\u0000-\u001f\u007f]/g
  const name = value.replace(controls, " ").trim().slice(0, MAX_NAME_LENGTH)
  return name || undefined
}

/** Refuses a new password the policy does not allow, sending the user back to `page`. */
export async function requireAllowedPassword(
  ctx: ActionContext,
  settings: PasswordSettings,
  password: string,
  account: { email?: string | null; name?: string | null },
  page: FormPage,
): Promise<void> {
  const code = await checkNewPassword(password, settings.policy, account, (error) =>
    ctx.logger.error(
      new Error("The policy's isBreached hook failed: the password was let through", {
        cause: error,
      }),
    ),
  )
  if (code) throw new PasswordError(`the new password breaks the policy: ${code}`, { code, page })
}

/** The "check your email" page, saying what kind of mail to look for. */
export function checkYourEmailUrl(
  ctx: ActionContext,
  provider: PasswordConfig,
  type: "signup" | "reset",
  address: string,
): string {
  const page = ctx.config.pages.verifyRequest ?? `${ctx.actionBase}/verify-request`
  const host = address.slice(address.lastIndexOf("@") + 1)
  return withQuery(new URL(page, ctx.origin).href, { provider: provider.id, type, host })
}

/** The identity a password account signs in with, once a link or a form has proven it. */
export function passwordIdentity(
  provider: PasswordConfig,
  user: AdapterUser,
  isNewUser = false,
): Identity {
  return {
    user,
    account: { provider: provider.id, type: "credentials", providerAccountId: user.id },
    isNewUser,
  }
}
