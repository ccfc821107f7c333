/**
 * Email sign-in ("magic links") sent through [Forward Email](https://forwardemail.net)'s API
 * (`POST https://api.forwardemail.net/v1/emails`, HTTP Basic with the API token as the user
 * name and an empty password).
 *
 * Take the API token from My Account → Security and set up the sender's domain with outbound
 * SMTP at Forward Email, then:
 *
 * ```ts
 * import ForwardEmail from "@latch/core/providers/forwardemail"
 *
 * ForwardEmail({ from: "Example <no-reply@example.com>" }) // apiKey from AUTH_FORWARDEMAIL_KEY
 * ```
 *
 * - `AUTH_FORWARDEMAIL_KEY`: the API token, or `apiKey`.
 * - `AUTH_EMAIL_FROM`: the sender, or `from`.
 *
 * Errors are answered with a JSON `{ statusCode, error, message }`.
 *
 * @see https://forwardemail.net/email-api#create-outbound-smtp-email
 * @module providers/forwardemail
 */
import {
  basicAuth,
  emailApiProvider,
  type EmailApiConfig,
  type EmailApiUserConfig,
} from "../lib/email-api.js"

export type { EmailApiConfig, EmailApiUserConfig } from "../lib/email-api.js"

/** The email provider that sends its links through Forward Email. */
export default function ForwardEmail(config: EmailApiUserConfig = {}): EmailApiConfig {
  return emailApiProvider(
    { id: "forwardemail", name: "Forward Email" },
    {
      service: "Forward Email",
      request: (mail, provider) => ({
        url: "https://api.forwardemail.net/v1/emails",
        headers: {
          Authorization: basicAuth(provider.apiKey ?? "", ""),
          "Content-Type": "application/json",
        },
        body: JSON.stringify({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        }),
      }),
    },
    config,
  )
}
