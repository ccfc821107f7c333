/**
 * Email sign-in ("magic links") sent through [Postmark](https://postmarkapp.com)'s API
 * (`POST https://api.postmarkapp.com/email`, `X-Postmark-Server-Token: <token>`).
 *
 * Take the Server API token of a Postmark server (API Tokens tab) and confirm a Sender
 * Signature or the sender's domain, then:
 *
 * ```ts
 * import Postmark from "@latch/core/providers/postmark"
 *
 * Postmark({ from: "Example <no-reply@example.com>" }) // apiKey from AUTH_POSTMARK_KEY
 * ```
 *
 * - `AUTH_POSTMARK_KEY`: the Server API token, or `apiKey`.
 * - `AUTH_EMAIL_FROM`: the sender, or `from`.
 *
 * Quirks: the fields are capitalised (`From`, `To`, `HtmlBody`, `TextBody`); the mail goes to
 * the default transactional stream (`MessageStream: "outbound"`); every answer carries an
 * `ErrorCode` (0 when sent) and a `Message`, and a refusal is a 422 whose message may name the
 * recipient (Latch replaces the address before logging it).
 *
 * @see https://postmarkapp.com/developer/user-guide/send-email-with-api
 * @see https://postmarkapp.com/developer/api/overview#response-codes
 * @module providers/postmark
 */
import { emailApiProvider, type EmailApiConfig, type EmailApiUserConfig } from "../lib/email-api.js"

export type { EmailApiConfig, EmailApiUserConfig } from "../lib/email-api.js"

/** The email provider that sends its links through Postmark. */
export default function Postmark(config: EmailApiUserConfig = {}): EmailApiConfig {
  return emailApiProvider(
    { id: "postmark", name: "Postmark" },
    {
      service: "Postmark",
      request: (mail, provider) => ({
        url: "https://api.postmarkapp.com/email",
        headers: {
          Accept: "application/json",
          "Content-Type": "application/json",
          "X-Postmark-Server-Token": provider.apiKey ?? "",
        },
        body: JSON.stringify({
          From: mail.from,
          To: mail.to,
          Subject: mail.subject,
          HtmlBody: mail.html,
          TextBody: mail.text,
          MessageStream: "outbound",
        }),
      }),
      // A 200 says ErrorCode 0; anything else was not sent.
      accepted: (body) => ((body as { ErrorCode?: unknown } | undefined)?.ErrorCode ?? 0) === 0,
    },
    config,
  )
}
