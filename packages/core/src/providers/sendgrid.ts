/**
 * Email sign-in ("magic links") sent through [SendGrid](https://sendgrid.com)'s v3 Mail Send
 * API (`POST https://api.sendgrid.com/v3/mail/send`, `Authorization: Bearer <key>`).
 *
 * Create an API key with the "Mail Send" permission and verify the sender (Single Sender
 * Verification or Domain Authentication) at SendGrid, then:
 *
 * ```ts
 * import SendGrid from "@latch/core/providers/sendgrid"
 *
 * SendGrid({ from: "Example <no-reply@example.com>" }) // apiKey from AUTH_SENDGRID_KEY
 * ```
 *
 * - `AUTH_SENDGRID_KEY`: the API key (`SG.…`), or `apiKey`.
 * - `AUTH_EMAIL_FROM`: the sender, or `from`.
 *
 * Quirks: SendGrid takes the sender as `{ email, name }`, so a `from` with a display name is
 * split; the plain-text part must come before the HTML part; a sent mail is answered
 * `202 Accepted` with no body, and a refusal with an `errors` list of `{ field, message }`.
 *
 * @see https://www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send
 * @see https://www.twilio.com/docs/sendgrid/api-reference/how-to-use-the-sendgrid-v3-api/errors
 * @module providers/sendgrid
 */
import {
  emailApiProvider,
  parseMailbox,
  type EmailApiConfig,
  type EmailApiUserConfig,
} from "../lib/email-api.js"

export type { EmailApiConfig, EmailApiUserConfig } from "../lib/email-api.js"

/** The email provider that sends its links through SendGrid. */
export default function SendGrid(config: EmailApiUserConfig = {}): EmailApiConfig {
  return emailApiProvider(
    { id: "sendgrid", name: "SendGrid" },
    {
      service: "SendGrid",
      request: (mail, provider) => ({
        url: "https://api.sendgrid.com/v3/mail/send",
        headers: {
          Authorization: `Bearer ${provider.apiKey}`,
          "Content-Type": "application/json",
        },
        body: JSON.stringify({
          personalizations: [{ to: [{ email: mail.to }] }],
          from: parseMailbox(mail.from) ?? { email: mail.from },
          subject: mail.subject,
          content: [
            { type: "text/plain", value: mail.text },
            { type: "text/html", value: mail.html },
          ],
        }),
      }),
    },
    config,
  )
}
