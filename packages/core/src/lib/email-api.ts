/**
 * Email providers that send the sign-in link through a mail service's HTTP API (Resend,
 * SendGrid, Postmark, Mailgun, Forward Email, Loops). Each provider describes its service as
 * data — the request it sends and how it reads a 2xx answer — and this module does the rest
 * once: the mail from the shared template (`renderSignInEmail`), the call with the provider's
 * `fetch` (`customFetch`) and a timeout, and one error for every failure (an error answer, a
 * rate limit, a server error, no answer), carrying the service's reason for the operator's log
 * and never the recipient's address. The email flow turns that error into `EmailSignin`.
 *
 * The same call sends any other message (`sendMail`, used for the Password provider's mails)
 * through a service that sends the content it is given. A template-only service (Loops fills
 * its own template with the link) cannot, and its provider has no `sendMail`.
 *
 * The start-up checks live here too (`finishEmailProvider`): a provider that sends with its
 * own sender needs an API key (`AUTH_<ID>_KEY`) and, for services that take one, a sender
 * address (`from` or `AUTH_EMAIL_FROM`).
 */
import type { Env } from "../config/env.js"
import { customFetch } from "../markers.js"
import { renderSignInEmail } from "../pages/email.js"
import type {
  EmailConfig,
  SendMailParams,
  SendVerificationRequestParams,
} from "../providers/email.js"
import type { ProviderFetch } from "../providers/oauth.js"

/** Seconds before a call to the mail service is abandoned. */
export const DEFAULT_EMAIL_API_TIMEOUT = 10

/**
 * Key of a provider's start-up step: it checks (and may complete) the provider once its
 * variables are filled in. A registered symbol, so that two copies of the package agree.
 */
export const finishEmailProvider: unique symbol = Symbol.for("latch.finish-email-provider") as never

/** What the start-up step receives. */
export interface EmailFinishContext {
  env: Env
  /** `AUTH_<ID>` for the provider's id: `AUTH_RESEND`. */
  envPrefix: string
  /** Refuses the configuration; the message follows the provider's name. */
  fail(message: string): never
}

/** An email provider that sends through a mail service's HTTP API. */
export interface EmailApiConfig extends EmailConfig {
  /** The service's API key. Filled from `AUTH_<ID>_KEY`. */
  apiKey?: string
  /** Seconds before a call to the service is abandoned. @default 10 */
  timeout?: number
  /** A `fetch` for the call to the service (tests, proxies). */
  [customFetch]?: ProviderFetch
}

/** What you pass to an email API provider: every option, none required. */
export type EmailApiUserConfig = Omit<Partial<EmailApiConfig>, "type" | "options">

/** A message, ready to send: the envelope and the rendered parts. */
export interface OutgoingMail {
  /** The recipient's address. */
  to: string
  /** The sender, as configured (`Example <no-reply@example.com>`); empty when not needed. */
  from: string
  subject: string
  /** The plain-text part. */
  text: string
  /** The HTML part. */
  html: string
}

/** The sign-in mail: the message, and what a template-only service fills its template with. */
export interface SignInMail extends OutgoingMail {
  /** The sign-in link. */
  url: string
  /** The site's host, e.g. `example.com`. */
  host: string
  expires: Date
  /** The code to type in the browser that asked, when the provider's `code` is on. */
  code?: string
}

/** One HTTP request to the service. */
export interface MailApiRequest {
  url: string
  headers: Record<string, string>
  /** A JSON text, or form fields (sent as `multipart/form-data`). */
  body: string | FormData
}

/** What every mail service describes. */
interface MailApiBase<C extends EmailApiConfig> {
  /** The service's name in errors: `"Resend"`. */
  service: string
  /** Whether the service needs a sender address (a template-based service may not). */
  needsFrom?: boolean
  /** Whether a 2xx answer means the mail was accepted. @default always */
  accepted?(body: unknown): boolean
  /** Checks or completes options of this service at start-up. */
  finish?(provider: C, context: EmailFinishContext): C
}

/** A service that sends the content it is given: the sign-in mail and any other message. */
export interface ContentMailApi<C extends EmailApiConfig = EmailApiConfig> extends MailApiBase<C> {
  templateOnly?: false
  /** The request that sends the message. It sees no link: the message may have none. */
  request(mail: OutgoingMail, provider: C): MailApiRequest
}

/**
 * A service that sends a template of its own, filled with the sign-in link (Loops): it cannot
 * send another message, so its provider has no `sendMail`.
 */
export interface TemplateMailApi<C extends EmailApiConfig = EmailApiConfig> extends MailApiBase<C> {
  templateOnly: true
  /** The request that sends the sign-in mail. */
  request(mail: SignInMail, provider: C): MailApiRequest
}

/**
 * A mail service, as data. Only a template-only service's `request` sees the sign-in link, so
 * that a request written for the sign-in mail cannot fail on a message without one.
 */
export type MailApi<C extends EmailApiConfig = EmailApiConfig> =
  ContentMailApi<C> | TemplateMailApi<C>

/** Why the mail service did not take the mail. Never names the recipient. */
export class EmailApiError extends Error {
  override name = "EmailApiError"
  constructor(
    message: string,
    /** The HTTP status of the service's answer, when it answered. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** `"Example" <no-reply@example.com>` → the address and the display name. */
export function parseMailbox(value: string): { email: string; name?: string } | undefined {
  const angled = /^\s*(.*?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(value)
  if (angled) {
    const name = angled[1]!.replace(/^"(.*)"$/, "$1").trim()
    return name ? { email: angled[2]!, name } : { email: angled[2]! }
  }
  const bare = value.trim()
  return /^[^\s<>@"]+@[^\s<>@"]+$/.test(bare) ? { email: bare } : undefined
}

/** `Basic` credentials for `user:password` (UTF-8, as RFC 7617 allows). */
export function basicAuth(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`)
  return `Basic ${btoa(String.fromCharCode(...bytes))}`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/** The JSON of an answer, or `undefined` when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

const REASON_LIMIT = 500

/**
 * The service's reason in an error answer. The services answer one of a few shapes: a
 * `message` with a `name` or `error` code (Resend, Forward Email, Mailgun, Loops), an
 * `ErrorCode` and `Message` (Postmark), an `errors` list (SendGrid), or plain text.
 */
export function reasonOf(body: unknown, text: string): string {
  if (isRecord(body)) {
    const parts: string[] = []
    const code = body.name ?? body.ErrorCode ?? body.code
    if (typeof code === "string" || typeof code === "number") parts.push(String(code))
    const message = body.message ?? body.Message
    if (typeof message === "string") parts.push(message)
    if (typeof body.error === "string") parts.push(body.error)
    else if (isRecord(body.error) && typeof body.error.message === "string") {
      parts.push(body.error.message)
    }
    if (Array.isArray(body.errors)) {
      for (const entry of body.errors) {
        if (!isRecord(entry) || typeof entry.message !== "string") continue
        parts.push(
          typeof entry.field === "string" ? `${entry.field}: ${entry.message}` : entry.message,
        )
      }
    }
    const reason = [...new Set(parts)].join(": ")
    if (reason) return reason.slice(0, REASON_LIMIT)
  }
  return text.replace(/\s+/g, " ").trim().slice(0, REASON_LIMIT)
}

/** Replaces every spelling of the address in a text the service wrote. */
function withoutAddress(text: string, address: string): string {
  if (!address) return text
  const pattern = new RegExp(address.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi")
  return text.replace(pattern, "[recipient]")
}

/**
 * What went wrong, for the operator: the service, what was sent (`"sign-in mail"`, `"mail"`),
 * the status, the service's reason.
 */
function failureOf(service: string, what: string, response: Response, reason: string): string {
  const status = `HTTP ${response.status}`
  const why = reason || response.statusText || "no reason given"
  if (response.status === 429) {
    const retry = response.headers.get("retry-after")
    const when = retry ? `, retry after ${retry}` : ""
    return `${service} rate-limited the ${what} (${status}${when}): ${why}`
  }
  if (response.status >= 500) return `${service} failed to send the ${what} (${status}): ${why}`
  if (response.status === 401) {
    return `${service} refused the API key (${status}): ${why}`
  }
  return `${service} refused the ${what} (${status}): ${why}`
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
}

/**
 * Sends one request to the service and reads its answer; throws `EmailApiError` when the mail
 * is not taken. `to` is taken out of every reason the service or the network gives, and `what`
 * names the mail in the error (`"sign-in mail"`, `"mail"`).
 */
async function deliver<C extends EmailApiConfig>(
  api: MailApi<C>,
  provider: C,
  request: MailApiRequest,
  to: string,
  what: string,
): Promise<void> {
  const seconds = provider.timeout ?? DEFAULT_EMAIL_API_TIMEOUT
  const send = provider[customFetch] ?? (fetch as ProviderFetch)
  let response: Response
  let text: string
  try {
    response = await send(request.url, {
      method: "POST",
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(seconds * 1000),
    })
    text = await response.text()
  } catch (error) {
    if (isTimeout(error)) {
      throw new EmailApiError(`${api.service} did not answer within ${seconds} s`, undefined, {
        cause: error,
      })
    }
    const why = error instanceof Error ? withoutAddress(error.message, to) : "unknown error"
    throw new EmailApiError(`${api.service} could not be reached: ${why}`, undefined, {
      cause: error,
    })
  }
  const body = parseJson(text)
  if (!response.ok) {
    const reason = withoutAddress(reasonOf(body, text), to)
    throw new EmailApiError(failureOf(api.service, what, response, reason), response.status)
  }
  if (api.accepted && !api.accepted(body)) {
    const reason = withoutAddress(reasonOf(body, text), to)
    throw new EmailApiError(
      `${api.service} did not accept the ${what} (HTTP ${response.status}): ${reason || "no reason given"}`,
      response.status,
    )
  }
}

/** Sends the sign-in mail through the service; throws `EmailApiError` when it is not taken. */
export async function sendThroughApi<C extends EmailApiConfig>(
  api: MailApi<C>,
  params: SendVerificationRequestParams,
): Promise<void> {
  const provider = params.provider as C
  const { identifier: to, url, expires, theme, code, codeExpires } = params
  const { host } = new URL(url)
  const mail: SignInMail = {
    ...renderSignInEmail({ url, host, expires, theme, code, codeExpires }),
    to,
    from: provider.from ?? "",
    url,
    host,
    expires,
    ...(code ? { code } : {}),
  }
  await deliver(api, provider, api.request(mail, provider), to, "sign-in mail")
}

/**
 * Sends any message through a service that sends the content it is given. The start-up check
 * asks for the key and the sender only when the provider sends the sign-in mail itself, so
 * they are checked here, with an `Error` that says what to set, before anything is sent.
 * Throws `EmailApiError` when the service does not take the message.
 */
export async function sendMailThroughApi<C extends EmailApiConfig>(
  api: ContentMailApi<C>,
  params: SendMailParams,
): Promise<void> {
  const provider = params.provider as C
  if (!provider.apiKey) {
    const variable = `AUTH_${provider.id.toUpperCase().replace(/-/g, "_")}_KEY`
    throw new Error(
      `${api.service} cannot send the mail without an API key: set ${variable} (or \`apiKey\`)`,
    )
  }
  if (api.needsFrom !== false && !parseMailbox(provider.from ?? "")) {
    throw new Error(
      `${api.service} cannot send the mail without a sender: set AUTH_EMAIL_FROM (or \`from\`) to one address`,
    )
  }
  const { to, subject, text, html } = params
  const mail: OutgoingMail = { to, from: provider.from ?? "", subject, text, html }
  await deliver(api, provider, api.request(mail, provider), to, "mail")
}

/**
 * An email provider of the service `api`: `id`, `name` and the sender, then the user's
 * options. Without a `sendVerificationRequest` of the user's, it sends through the service and
 * its start-up step requires the API key and the sender. Unless the service is template-only,
 * it has a `sendMail` too, which works with the user's `sendVerificationRequest` as well as
 * with its own, and checks the key and the sender when it is called.
 */
export function emailApiProvider<C extends EmailApiConfig>(
  base: Partial<C> & { id: string; name: string },
  api: MailApi<C>,
  config: Partial<C>,
): C {
  const sendVerificationRequest = (params: SendVerificationRequestParams) =>
    sendThroughApi(api, params)
  const anyMail = api.templateOnly
    ? {}
    : { sendMail: (params: SendMailParams) => sendMailThroughApi(api, params) }
  const finish = (provider: C, context: EmailFinishContext): C => {
    if (provider.sendVerificationRequest !== sendVerificationRequest) return provider
    if (!provider.apiKey) {
      context.fail(`has no apiKey: set ${context.envPrefix}_KEY (or \`apiKey\`)`)
    }
    if (api.needsFrom !== false) {
      if (!provider.from) {
        context.fail(
          "has no sender: set AUTH_EMAIL_FROM (or `from`), e.g. `Example <no-reply@example.com>`",
        )
      }
      if (!parseMailbox(provider.from)) {
        context.fail(
          'has a `from` that is not one address ("no-reply@example.com" or "Example <no-reply@example.com>")',
        )
      }
    }
    const timeout = provider.timeout
    if (timeout !== undefined && !(typeof timeout === "number" && timeout > 0)) {
      context.fail("has a timeout that is not a positive number of seconds")
    }
    return api.finish ? api.finish(provider, context) : provider
  }
  return {
    sendVerificationRequest,
    ...anyMail,
    ...base,
    ...config,
    type: "email",
    options: config,
    [finishEmailProvider]: finish,
  } as unknown as C
}
