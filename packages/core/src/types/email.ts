/** The configuration of an email provider (sign-in links), and what its functions receive. */
import type { Awaitable } from "./common.js"
import type { Theme } from "./pages.js"
import type { CommonProviderOptions } from "./provider-common.js"

/**
 * The SMTP server: a URL (`smtps://user:pass@smtp.example.com:465`), nodemailer's transport
 * options (`{ host, port, auth, … }`), or a nodemailer transport.
 */
export type NodemailerServer = string | object

/** The type of every email provider. */
export type EmailProviderType = "email"

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
  /**
   * The short code to type instead of following the link, when the provider's `code` option is
   * on (stored hashed; handle it as a password). It works only in the browser that asked.
   */
  code?: string
  /** When the code stops working (with `code`). */
  codeExpires?: Date
}

/** What `sendMail` receives: one message, already rendered. */
export interface SendMailParams {
  /** The recipient: one plain address, already checked (it is not parsed again). */
  to: string
  subject: string
  /** The plain-text part. */
  text: string
  /** The HTML part. */
  html: string
  /** The provider's configuration, as filled at start-up (`from`, `server`, `apiKey`, …). */
  provider: EmailConfig
}

/** How many links may be sent, per address and per client IP address, in a window. */
export interface EmailRateLimit {
  /** The window, in seconds. @default 600 (10 minutes) */
  window?: number
  /** Links per address per window. @default 5 */
  perAddress?: number
  /** Links per client IP address per window (when the address is known). @default 20 */
  perClient?: number
  /**
   * Whether the "check your email" page says that a limit stopped the mail ("too many links
   * for this address; try again in 10 minutes"), rather than looking as if a link was sent.
   * It reveals no more about the address than the limit itself: the page is the same whether
   * or not the address has an account. @default false
   */
  sayWhenReached?: boolean
}

/**
 * The short code a sign-in mail carries besides its link, for signing in on the device that
 * asked (a phone) while reading the mail on another (a laptop).
 */
export interface EmailCodeOptions {
  /** Characters in the code, from 6 to 8. @default 6 */
  length?: number
  /** How long the code works, in seconds (never longer than the link). @default 600 */
  maxAge?: number
}

/** What `sendVerificationRequest` receives (the name `@auth/core` gives it). */
export type EmailProviderSendVerificationRequestParams = SendVerificationRequestParams

/** An email provider's configuration. */
export interface EmailConfig extends CommonProviderOptions {
  type: "email"
  /** Sends the sign-in link. Throwing fails the sign-in with `EmailSignin`. */
  sendVerificationRequest: (params: SendVerificationRequestParams) => Awaitable<void>
  /**
   * Sends any message through the provider's mail service, from `provider.from`; throws when
   * the service does not take it. Latch uses it for the Password provider's mails (address
   * verification, password reset, notices), so that an app configures one mail service for
   * every mail it sends. `Nodemailer` and the mail API providers that send content of their
   * own choosing have it; a provider that only fills a template of its service (Loops) has not.
   */
  sendMail?: (params: SendMailParams) => Awaitable<void>
  /** The sender, e.g. `"Example <no-reply@example.com>"`. Filled from `AUTH_EMAIL_FROM`. */
  from?: string
  /**
   * The SMTP server: a URL (`smtps://user:pass@smtp.example.com:465`) or nodemailer transport
   * options. Filled from `AUTH_EMAIL_SERVER`. Used by `Nodemailer`.
   */
  server?: NodemailerServer
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
  /** Not read by Latch; a provider of your own may keep its mail API's key here. */
  apiKey?: string
  /** Not read by Latch; a provider of your own may keep a secret here. */
  secret?: string
  /** Rate limits of sending, or `false` to send without limit. */
  rateLimit?: EmailRateLimit | false
  /**
   * Where the user reads their mail (a webmail, or a development mailbox): the built-in "check
   * your email" page links to it, "Open your mailbox", after the provider's sign-in links and
   * after the Password provider's mails it sends. @default no link
   */
  inboxUrl?: string
  /**
   * Whether opening the link shows a "Continue signing in" page whose button signs in (a
   * CSRF-checked POST), rather than signing in at once. Mail scanners (Outlook Safe Links and
   * others) open every link in a mail; with the page, their visit spends nothing and the user's
   * own click still works. `false` signs in on the link's GET, as Auth.js does. @default true
   */
  continuePage?: boolean
  /**
   * A short code in the mail besides the link, typed on the "check your email" page of the
   * browser that asked (it is bound to that browser, works once, expires after `maxAge`, and
   * dies after 5 wrong tries). `true` for the defaults. @default false
   */
  code?: boolean | EmailCodeOptions
  /** The options the provider was created with. */
  options?: EmailUserConfig
}

/** What you pass to `Email(…)` or `Nodemailer(…)`. */
export type EmailUserConfig = Partial<Omit<EmailConfig, "type" | "options">>
