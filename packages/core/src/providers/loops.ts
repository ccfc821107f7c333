/**
 * Email sign-in ("magic links") sent through a [Loops](https://loops.so) transactional email
 * (`POST https://app.loops.so/api/v1/transactional`, `Authorization: Bearer <key>`).
 *
 * Loops sends a mail designed in its editor: create and publish a transactional email with a
 * data variable named `url` where the sign-in link goes (a button's link), and an API key
 * (Settings → API), then:
 *
 * ```ts
 * import Loops from "@latch/core/providers/loops"
 *
 * Loops() // apiKey from AUTH_LOOPS_KEY, transactionalId from AUTH_LOOPS_TRANSACTIONAL_ID
 * ```
 *
 * - `AUTH_LOOPS_KEY`: the API key, or `apiKey`.
 * - `AUTH_LOOPS_TRANSACTIONAL_ID`: the transactional email's id, or `transactionalId`.
 *
 * Quirks: the sender, subject and body are the template's, so `from` is not used and the
 * default sign-in mail is not sent: the request carries the recipient and
 * `dataVariables: { url }` (and `code`, with the `code` option on: add it to the template). Loops answers `{ success: true }`, and a refusal with
 * `{ success: false, message }` (404 for an unknown transactional id, 400 otherwise).
 *
 * @see https://loops.so/docs/api-reference/send-transactional-email
 * @see https://loops.so/docs/transactional
 * @module providers/loops
 */
import { emailApiProvider, type EmailApiConfig } from "../lib/email-api.js"

export type { EmailApiConfig, EmailApiUserConfig } from "../lib/email-api.js"

/** The Loops provider's configuration. */
export interface LoopsConfig extends EmailApiConfig {
  /** The Loops API key. Filled from `AUTH_LOOPS_KEY`. */
  apiKey: string
  /** The id of the published transactional email. Filled from `AUTH_LOOPS_TRANSACTIONAL_ID`. */
  transactionalId: string
  /** The options the provider was created with. */
  options?: LoopsUserConfig
}

/** What you pass to `Loops(…)`: every option, none required. */
export type LoopsUserConfig = Omit<Partial<LoopsConfig>, "options" | "type">

/** The email provider that sends its links through a Loops transactional email. */
export default function Loops(config: LoopsUserConfig = {}): LoopsConfig {
  return emailApiProvider<LoopsConfig>(
    { id: "loops", name: "Loops", apiKey: "", transactionalId: "" },
    {
      service: "Loops",
      needsFrom: false,
      // Loops sends its own template: there is no message of Latch's to send, so no `sendMail`.
      templateOnly: true,
      request: (mail, provider) => ({
        url: "https://app.loops.so/api/v1/transactional",
        headers: {
          Authorization: `Bearer ${provider.apiKey}`,
          "Content-Type": "application/json",
        },
        body: JSON.stringify({
          transactionalId: provider.transactionalId,
          email: mail.to,
          dataVariables: { url: mail.url, ...(mail.code ? { code: mail.code } : {}) },
        }),
      }),
      accepted: (body) => (body as { success?: unknown } | undefined)?.success !== false,
      finish(provider, { env, envPrefix, fail }) {
        const transactionalId =
          provider.transactionalId || env[`${envPrefix}_TRANSACTIONAL_ID`] || ""
        if (!transactionalId) {
          fail(`has no transactionalId: set ${envPrefix}_TRANSACTIONAL_ID (or \`transactionalId\`)`)
        }
        return { ...provider, transactionalId }
      },
    },
    config,
  )
}
