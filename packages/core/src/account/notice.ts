/**
 * The owner's notice of a change to their account's ways in: mailed to the account's address,
 * saying what changed, when and from which browser, and how to secure the account if it was not
 * them. A notice that could not go out is logged; it never undoes the change it reports.
 */
import type { ActionContext } from "../actions/context.js"
import type { AdapterUser } from "../adapters.js"
import { renderAccountNotice } from "../pages/account-email.js"
import { renderPasswordEmail } from "../pages/password-email.js"
import { passwordProviderOf } from "../config/providers.js"
import { describeUserAgent } from "../session/device.js"
import type { AccountChange } from "../types.js"
import { sendAccountMail } from "./mail.js"

/** Where the owner secures the account: the reset form with a Password provider, else sign-in. */
function secureUrlOf(ctx: ActionContext): { url: string; byReset: boolean } {
  const { pages } = ctx.config
  const hasPassword = passwordProviderOf(ctx.config.providers) !== undefined
  const page = hasPassword
    ? (pages.resetPassword ?? `${ctx.actionBase}/reset-password`)
    : (pages.signIn ?? `${ctx.actionBase}/signin`)
  return { url: new URL(page, ctx.origin).href, byReset: hasPassword }
}

/** Mails the owner of `user` the notice of `change` (no address: nothing to send). */
export async function noticeOwner(
  ctx: ActionContext,
  user: Pick<AdapterUser, "email">,
  change: AccountChange,
): Promise<void> {
  if (!user.email) return
  const secure = secureUrlOf(ctx)
  const provider = "provider" in change ? ctx.config.providers.get(change.provider) : undefined
  const host = new URL(ctx.origin).host
  const isPassword = change.type === "passwordChanged" || change.type === "passwordReset"
  // A changed password keeps the Password provider's own notice, which offers the reset form.
  const mail = isPassword
    ? renderPasswordEmail("changed", {
        host,
        theme: ctx.config.theme,
        when: new Date(),
        resetUrl: secure.byReset ? secure.url : undefined,
      })
    : renderAccountNotice({
        host,
        theme: ctx.config.theme,
        change,
        when: new Date(),
        device: describeUserAgent(ctx.request.headers.get("user-agent")),
        providerName: provider?.name,
        secureUrl: secure.url,
        secureByReset: secure.byReset,
      })
  await sendAccountMail(ctx, user.email, mail, `"${change.type}" notice`)
}
