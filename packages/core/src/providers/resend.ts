/**
 * Email sign-in ("magic links") sent through [Resend](https://resend.com)'s API
 * (`POST https://api.resend.com/emails`, `Authorization: Bearer <key>`).
 *
 * Create an API key with "Sending access" and verify the domain of the sender at Resend, then:
 *
 * ```ts
 * import Resend from "@latch/core/providers/resend"
 *
 * Resend({ from: "Example <no-reply@example.com>" }) // apiKey from AUTH_RESEND_KEY
 * ```
 *
 * - `AUTH_RESEND_KEY`: the API key (`re_…`), or `apiKey`.
 * - `AUTH_EMAIL_FROM`: the sender, or `from`; its domain must be verified at Resend.
 *
 * The mail is the default sign-in mail (an HTML and a plain-text part, see
 * `renderSignInEmail`). A refusal (a 4xx with Resend's `name` and `message`), a rate limit
 * (429), a server error or no answer within `timeout` seconds fails the sign-in with
 * `EmailSignin`; Resend's reason goes to the logger. See `@latch/core/providers/email` for the
 * flow, the adapter methods it needs and the rate limits.
 *
 * @see https://resend.com/docs/api-reference/emails/send-email
 * @see https://resend.com/docs/api-reference/errors
 * @module providers/resend
 */
import { emailApiProvider, type EmailApiConfig, type EmailApiUserConfig } from "../lib/email-api.js"

export type { EmailApiConfig, EmailApiUserConfig } from "../lib/email-api.js"

/** The email provider that sends its links through Resend. */
export default function Resend(config: EmailApiUserConfig = {}): EmailApiConfig {
  return emailApiProvider(
    { id: "resend", name: "Resend" },
    {
      service: "Resend",
      request: (mail, provider) => ({
        url: "https://api.resend.com/emails",
        headers: {
          Authorization: `Bearer ${provider.apiKey}`,
          "Content-Type": "application/json",
        },
        body: JSON.stringify({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
        }),
      }),
    },
    config,
  )
}
