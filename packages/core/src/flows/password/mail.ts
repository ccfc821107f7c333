/**
 * The Password provider's mails, and who sends them: the provider's own `sendMail`, else the
 * first email provider of the configuration that can send any message. Links in them start
 * from the site's configured origin (`ctx.actionBase`), never from a request header.
 */
import type { ActionContext } from "../../actions/context.js"
import { isEmailProvider } from "../../config/providers.js"
import { EmailSignInError, PasswordError, type FormPage } from "../../errors.js"
import { logThrottled, moreLikeIt, reasonOf } from "../../lib/log-throttle.js"
import { renderPasswordEmail, type PasswordEmailKind } from "../../pages/password-email.js"
import type { PasswordConfig, PasswordMail, PasswordSettings } from "../../providers/password.js"

type Sender = (message: PasswordMail) => Promise<void>

/**
 * How this configuration sends the Password provider's mails, if it can: the provider's own
 * `sendMail`, else the first email provider that can send any message.
 */
export function mailSender(
  config: ActionContext["config"],
  settings: Pick<PasswordSettings, "sendMail">,
): Sender | undefined {
  if (settings.sendMail) {
    const send = settings.sendMail
    return async (message) => {
      await send(message)
    }
  }
  for (const provider of config.providers.values()) {
    if (!isEmailProvider(provider) || typeof provider.sendMail !== "function") continue
    const send = provider.sendMail
    return async (message) => {
      await send.call(provider, { ...message, provider })
    }
  }
  return undefined
}

/** What a mail is built from, besides its kind and recipient. */
export interface MailInput {
  url?: string
  expires?: Date
  signUpUrl?: string
  resetUrl?: string
  when?: Date
}

/**
 * Renders and sends one mail. A failure is logged (once per kind per minute, as a mail server
 * that is down fails every request) and sends the user back to `page` with `code=mail_failed`,
 * unless `page` is `undefined`: a notification that could not go out must not undo the change
 * it reports. `decoy` is rendered too, and not sent.
 */
export async function sendPasswordMail(
  ctx: ActionContext,
  provider: PasswordConfig,
  settings: PasswordSettings,
  to: string,
  kind: PasswordEmailKind,
  input: MailInput,
  page: FormPage | undefined,
  decoy?: { kind: PasswordEmailKind; input: MailInput },
): Promise<void> {
  const send = mailSender(ctx.config, settings)
  const message = `Sending the "${kind}" mail of "${provider.id}" failed`
  try {
    if (!send) throw new Error("no email provider that can send it is configured")
    const host = new URL(ctx.origin).host
    const mail = renderPasswordEmail(kind, { ...input, host, theme: ctx.config.theme })
    // The mail the other answer would have sent, rendered and dropped: both answers then cost
    // the same (see reset.ts).
    if (decoy) renderPasswordEmail(decoy.kind, { ...decoy.input, host, theme: ctx.config.theme })
    await send({ to, subject: mail.subject, text: mail.text, html: mail.html })
  } catch (error) {
    logThrottled(
      ctx.logger,
      `password-mail\u0000${provider.id}\u0000${reasonOf(error)}`,
      new EmailSignInError(message, { cause: error }),
      (suppressed) => new EmailSignInError(`${message}${moreLikeIt(suppressed)}`, { cause: error }),
    )
    if (page) throw new PasswordError(message, { code: "mail_failed", page })
  }
}
