/**
 * Email sign-in ("magic links"): the user enters an address, receives a single-use link, and
 * following it signs them in. `Email` is the generic provider: you send the mail yourself with
 * `sendVerificationRequest`. `Nodemailer` (`@latch/core/providers/nodemailer`) sends it over
 * SMTP.
 *
 * Email sign-in needs an adapter with `createVerificationToken`, `useVerificationToken`,
 * `getUserByEmail`, `getUserByAccount`, `createUser`, `updateUser` and `linkAccount`. Tokens
 * are stored hashed with the secret, expire after `maxAge` and are used once. Sending is rate
 * limited per address and per client IP address.
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
import type { Awaitable, Theme } from "../types.js"
import type { CommonProviderOptions } from "./index.js"

/** What `sendVerificationRequest` receives. */
export interface SendVerificationRequestParams {
  /** The normalized address to send the link to. */
  identifier: string
  /** The sign-in link. */
  url: string
  /** When the link stops working. */
  expires: Date
  /** The provider's configuration (`from`, `server`, …). */
  provider: EmailConfig
  /** The token in the link (stored hashed; handle it as a password). */
  token: string
  /** The configuration's theme, for the mail's colours. */
  theme: Theme
  /** The request that asked for the link. */
  request: Request
}

/** How many links may be sent, per address and per client IP address, in a window. */
export interface EmailRateLimit {
  /** The window, in seconds. @default 600 (10 minutes) */
  window?: number
  /** Links per address per window. @default 5 */
  perAddress?: number
  /** Links per client IP address per window (when the address is known). @default 20 */
  perClient?: number
}

/** An email provider's configuration. */
export interface EmailConfig extends CommonProviderOptions {
  type: "email"
  /** Sends the sign-in link. Throwing fails the sign-in with `EmailSignin`. */
  sendVerificationRequest: (params: SendVerificationRequestParams) => Awaitable<void>
  /** The sender, e.g. `"Example <no-reply@example.com>"`. Filled from `AUTH_EMAIL_FROM`. */
  from?: string
  /**
   * The SMTP server: a URL (`smtps://user:pass@smtp.example.com:465`) or nodemailer transport
   * options. Filled from `AUTH_EMAIL_SERVER`. Used by `Nodemailer`.
   */
  server?: string | Record<string, unknown>
  /** How long a link works, in seconds. @default 86400 (24 hours) */
  maxAge?: number
  /** The token in the link. @default 32 random bytes, base64url */
  generateVerificationToken?: () => Awaitable<string>
  /**
   * Turns what the user typed into the address to use. The default trims and lowercases, and
   * refuses anything but one plain address. Throw to refuse. Whatever it returns is still
   * checked to be one plain address, so that a lenient normalizer cannot open header injection.
   */
  normalizeIdentifier?: (identifier: string) => string
  /** Rate limits of sending, or `false` to send without limit. */
  rateLimit?: EmailRateLimit | false
  /** The options the provider was created with. */
  options?: EmailUserConfig
}

/** What you pass to `Email(…)` or `Nodemailer(…)`. */
export type EmailUserConfig = Partial<Omit<EmailConfig, "type" | "options">>

/**
 * The generic email provider: `sendVerificationRequest` is yours. Without one, the
 * configuration is refused with `InvalidProvider`.
 */
export default function Email(config: EmailUserConfig = {}): EmailConfig {
  return {
    id: "email",
    name: "Email",
    sendVerificationRequest: undefined as unknown as EmailConfig["sendVerificationRequest"],
    ...config,
    type: "email",
    options: config,
  }
}
