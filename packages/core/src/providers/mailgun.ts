/**
 * Email sign-in ("magic links") sent through [Mailgun](https://www.mailgun.com)'s API
 * (`POST https://api.mailgun.net/v3/<domain>/messages`, HTTP Basic `api:<key>`, form fields).
 *
 * Add and verify a sending domain at Mailgun and create an API key (a Domain Sending Key is
 * enough), then:
 *
 * ```ts
 * import Mailgun from "@latch/core/providers/mailgun"
 *
 * Mailgun({ from: "Example <no-reply@mg.example.com>", region: "EU" })
 * ```
 *
 * - `AUTH_MAILGUN_KEY`: the API key, or `apiKey`.
 * - `AUTH_EMAIL_FROM`: the sender, or `from`. Its domain is the sending domain in the URL.
 * - `region`: `"US"` (`api.mailgun.net`, the default) or `"EU"` (`api.eu.mailgun.net`), where
 *   the domain was created.
 *
 * Quirks: the message is sent as `multipart/form-data` fields (`from`, `to`, `subject`,
 * `text`, `html`); a sent mail is answered `{ id, message: "Queued. Thank you." }`, a refusal
 * with `{ message }`, and a wrong key with `401 Forbidden` in plain text.
 *
 * @see https://documentation.mailgun.com/docs/mailgun/api-reference/send/mailgun/messages/post-v3--domain-name--messages
 * @see https://documentation.mailgun.com/docs/mailgun/quickstart-guide/responses
 * @module providers/mailgun
 */
import { basicAuth, emailApiProvider, parseMailbox, type EmailApiConfig } from "../lib/email-api.js"

export type { EmailApiConfig, EmailApiUserConfig } from "../lib/email-api.js"

/** The Mailgun provider's configuration. */
export interface MailgunConfig extends EmailApiConfig {
  /** Where the sending domain lives: `api.mailgun.net` or `api.eu.mailgun.net`. @default "US" */
  region?: "US" | "EU"
}

/** What you pass to `Mailgun(…)`: every option, none required. */
export type MailgunUserConfig = Omit<Partial<MailgunConfig>, "type" | "options">

const hosts = { US: "api.mailgun.net", EU: "api.eu.mailgun.net" }

/** The email provider that sends its links through Mailgun. */
export default function Mailgun(config: MailgunUserConfig = {}): MailgunConfig {
  return emailApiProvider<MailgunConfig>(
    { id: "mailgun", name: "Mailgun" },
    {
      service: "Mailgun",
      request(mail, provider) {
        const address = parseMailbox(mail.from)?.email ?? mail.from
        const domain = address.slice(address.lastIndexOf("@") + 1)
        const body = new FormData()
        body.set("from", mail.from)
        body.set("to", mail.to)
        body.set("subject", mail.subject)
        body.set("text", mail.text)
        body.set("html", mail.html)
        return {
          url: `https://${hosts[provider.region ?? "US"]}/v3/${encodeURIComponent(domain)}/messages`,
          headers: { Authorization: basicAuth("api", provider.apiKey ?? "") },
          body,
        }
      },
      finish(provider, { fail }) {
        if (provider.region !== undefined && !(provider.region in hosts)) {
          fail(`has region "${String(provider.region)}": use "US" or "EU"`)
        }
        return provider
      },
    },
    config,
  )
}
