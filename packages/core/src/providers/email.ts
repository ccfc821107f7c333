/**
 * Email sign-in ("magic links"): the user enters an address, receives a single-use link, and
 * following it signs them in. `Nodemailer` (`@latch/core/providers/nodemailer`) sends the link
 * over SMTP. `Email` is the same provider under the id `"email"`, kept for configurations written
 * before `Nodemailer` existed: give it `server` and `from` and it sends over SMTP too, or give it
 * your own `sendVerificationRequest`.
 *
 * On Cloudflare Workers and edge runtimes, send through a mail service's HTTP API (`Resend`,
 * `Postmark`, `SendGrid`, `Mailgun`… from `@latch/core/providers/*`), or give an email provider
 * object of your own: `{ id: "email", type: "email", name: "Email", sendVerificationRequest }`.
 * `Email` and `Nodemailer` name the `nodemailer` package (as Auth.js's do), so a bundler needs it
 * installed even when your own function sends, and its SMTP client needs Node.js's sockets.
 *
 * Email sign-in needs an adapter with `createVerificationToken`, `useVerificationToken`,
 * `getUserByEmail`, `getUserByAccount`, `createUser`, `updateUser` and `linkAccount`. Tokens
 * are stored hashed with the secret, expire after `maxAge` and are used once. Sending is rate
 * limited per address and per client IP address. The link opens a "Continue signing in" page
 * whose button signs in, so that mail scanners, which open every link, do not spend it
 * (`continuePage`); the mail may carry a short code too, for the device that asked (`code`).
 *
 * ```ts
 * import Email from "@latch/core/providers/email"
 *
 * Email({
 *   async sendVerificationRequest({ identifier, url, provider }) {
 *     await myMailApi.send({ to: identifier, from: provider.from, text: `Sign in: ${url}` })
 *   },
 * })
 * ```
 *
 * @module providers/email
 */
import Nodemailer, { type NodemailerConfig, type NodemailerUserConfig } from "./nodemailer.js"

export type { EmailProviderId } from "../types/provider-config.js"
export type {
  EmailCodeOptions,
  EmailConfig,
  EmailProviderSendVerificationRequestParams,
  EmailProviderType,
  EmailRateLimit,
  EmailUserConfig,
  SendMailParams,
  SendVerificationRequestParams,
} from "../types/email.js"

let warned = false

/**
 * `Nodemailer` under the id `"email"`: without a `sendVerificationRequest` of your own it sends
 * the link over SMTP through `server` (or `AUTH_EMAIL_SERVER`), and says once per process that
 * `Nodemailer` is the name to use.
 *
 * @deprecated Use `Nodemailer` from `@latch/core/providers/nodemailer` (the same provider with
 * the id `"nodemailer"`), or keep `Email` with your own `sendVerificationRequest`.
 *
 * @example
 * ```ts
 * import Email from "@latch/core/providers/email"
 *
 * Email({ server: process.env.EMAIL_SERVER, from: "Example <no-reply@example.com>" })
 * ```
 */
export default function Email(config: NodemailerUserConfig = {}): NodemailerConfig {
  if (typeof config.sendVerificationRequest !== "function" && !warned) {
    warned = true
    console.warn(
      '[latch][warn] email-provider-deprecated: Email() sends over SMTP as Nodemailer() does. Import Nodemailer from "@latch/core/providers/nodemailer" instead (its id is "nodemailer": keep `id: "email"` to keep your sign-in URLs).',
    )
  }
  return Nodemailer({ id: "email", name: "Email", ...config })
}
