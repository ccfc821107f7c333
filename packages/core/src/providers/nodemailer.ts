/**
 * Email sign-in over SMTP with [nodemailer](https://nodemailer.com), an optional peer
 * dependency: `pnpm add nodemailer`.
 *
 * ```ts
 * import Nodemailer from "@latch/core/providers/nodemailer"
 *
 * Nodemailer({
 *   server: "smtps://user:password@smtp.example.com:465", // or AUTH_EMAIL_SERVER
 *   from: "Example <no-reply@example.com>", // or AUTH_EMAIL_FROM
 * })
 * ```
 *
 * The mail has a plain-text and an HTML part (see `renderSignInEmail`); pass your own
 * `sendVerificationRequest` to change it. Its `sendMail` sends other mail (the Password
 * provider's) through the same server and connection pool. See `@latch/core/providers/email`
 * for the flow, the adapter methods it needs and the rate limits.
 *
 * @module providers/nodemailer
 */
import { renderSignInEmail } from "../pages/email.js"
import type {
  EmailConfig,
  NodemailerServer,
  SendMailParams,
  SendVerificationRequestParams,
} from "../types/email.js"

export { renderSignInEmail } from "../pages/email.js"
export type { SignInEmail, SignInEmailInput } from "../pages/email.js"
export type {
  EmailConfig,
  EmailRateLimit,
  EmailUserConfig,
  NodemailerServer,
  SendMailParams,
  SendVerificationRequestParams,
} from "../types/email.js"

/** The configuration of the Nodemailer provider. */
export interface NodemailerConfig extends EmailConfig {
  /** The SMTP server. Filled from `AUTH_EMAIL_SERVER`. */
  server?: NodemailerServer
  /** The options the provider was created with. */
  options?: NodemailerUserConfig
}

/** What you pass to `Nodemailer(…)` (and `Email(…)`): every option, none required. */
export type NodemailerUserConfig = Omit<Partial<NodemailerConfig>, "options" | "type">

/** What nodemailer's `sendMail` resolves to, as far as Latch reads it. */
interface SentInfo {
  rejected?: unknown[]
  pending?: unknown[]
}

interface Transport {
  sendMail(message: Record<string, unknown>): Promise<SentInfo>
}

const transports = new WeakMap<object, Promise<Transport>>()

// `nodemailer` is named only here, in the provider's own module: an app that does not import
// this provider (or `Email`, which is this one) has no import of it in its bundle, and one that
// does gets it resolved by its bundler. Loaded by the first mail rather than with the module, so
// that a Node.js process that only checks sessions never pays for it.
async function createTransport(server: EmailConfig["server"]): Promise<Transport> {
  let nodemailer: { createTransport(options: unknown): Transport }
  try {
    const module = (await import("nodemailer")) as unknown as {
      default?: typeof nodemailer
    } & typeof nodemailer
    nodemailer = module.default ?? module
  } catch (error) {
    throw new Error("The nodemailer provider needs the nodemailer package: pnpm add nodemailer", {
      cause: error,
    })
  }
  return nodemailer.createTransport(server)
}

/** One transport (and its connection pool, if configured) per provider configuration. */
function transportOf(provider: EmailConfig): Promise<Transport> {
  const key = provider.options ?? provider
  let transport = transports.get(key)
  if (!transport) {
    if (provider.server === undefined || provider.server === "") {
      throw new Error("The nodemailer provider has no server: set AUTH_EMAIL_SERVER or `server`")
    }
    transport = createTransport(provider.server)
    transports.set(key, transport)
    transport.catch(() => transports.delete(key))
  }
  return transport
}

/**
 * Sends one message through the provider's SMTP server, from `provider.from`. Only the named
 * fields reach nodemailer, so that nothing a caller adds (`cc`, `attachments`) is sent. The
 * error does not name the recipient: it is logged, and grouped by its message.
 */
async function sendOverSmtp(
  provider: EmailConfig,
  { to, subject, text, html }: Omit<SendMailParams, "provider">,
): Promise<void> {
  const transport = await transportOf(provider)
  const info = await transport.sendMail({ to, from: provider.from, subject, text, html })
  const failed = [...(info.rejected ?? []), ...(info.pending ?? [])]
  if (failed.length) throw new Error("The SMTP server did not accept the mail")
}

/** Sends the default sign-in mail through the provider's SMTP server. */
export async function sendVerificationRequest(params: SendVerificationRequestParams) {
  const { identifier, url, expires, provider, theme, code, codeExpires } = params
  const { host } = new URL(url)
  const mail = renderSignInEmail({ url, host, expires, theme, code, codeExpires })
  await sendOverSmtp(provider, { to: identifier, ...mail })
}

/**
 * Sends any message through the provider's SMTP server. It needs only `server` (and `from`), so
 * it works as well when the sign-in mail is sent by a `sendVerificationRequest` of your own.
 */
export async function sendMail({ provider, to, subject, text, html }: SendMailParams) {
  await sendOverSmtp(provider, { to, subject, text, html })
}

/**
 * The email provider that sends its links through an SMTP server with nodemailer, and any other
 * mail through `sendMail`.
 */
export default function Nodemailer(config: NodemailerUserConfig = {}): NodemailerConfig {
  return {
    id: "nodemailer",
    name: "Email",
    sendVerificationRequest,
    sendMail,
    ...config,
    type: "email",
    options: config,
  }
}
