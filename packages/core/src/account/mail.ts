/**
 * Sending the mails of account changes (the owner's notices, the re-authentication code):
 * through the first Password provider's `sendMail`, else the first email provider of the
 * configuration that can send any message — the transports the Password provider's own mails
 * use. Links in them start from the site's configured origin, never from a request header.
 */
import type { ActionContext } from "../actions/context.js"
import { EmailSignInError } from "../errors.js"
import { mailSender } from "../flows/password/mail.js"
import { logThrottled, moreLikeIt, reasonOf } from "../lib/log-throttle.js"
import type { PasswordEmail } from "../pages/password-email.js"
import { passwordProviderOf } from "../config/providers.js"

type Ctx = Pick<ActionContext, "config" | "logger">

/** The way this configuration sends account mails, if it has one. */
export function accountMailer(config: Ctx["config"]) {
  return mailSender(config, passwordProviderOf(config.providers)?.settings ?? {})
}

/**
 * Sends one rendered mail to `to`. `false` when it could not go out (no transport, or the
 * transport failed): logged once per reason per minute, as a mail server that is down fails
 * every request.
 */
export async function sendAccountMail(
  ctx: Ctx,
  to: string,
  mail: PasswordEmail,
  what: string,
): Promise<boolean> {
  const message = `Sending the ${what} mail failed`
  try {
    const send = accountMailer(ctx.config)
    if (!send) throw new Error("no email provider that can send any message is configured")
    await send({ to, subject: mail.subject, text: mail.text, html: mail.html })
    return true
  } catch (error) {
    logThrottled(
      ctx.logger,
      `account-mail\u0000${what}\u0000${reasonOf(error)}`,
      new EmailSignInError(message, { cause: error }),
      (suppressed) => new EmailSignInError(`${message}${moreLikeIt(suppressed)}`, { cause: error }),
    )
    return false
  }
}
