/**
 * One configurable mail API server on 127.0.0.1, for the email providers whose services cannot
 * be reached from here. Each service registers what its documentation says: the send endpoint,
 * how the API key must arrive (Bearer, HTTP Basic, a header of its own), the body (JSON or
 * form fields, and which fields carry the sender, the recipient, the subject and the parts),
 * and its answers: success, a refusal (400/404/422 with its message), a wrong key, a rate
 * limit, a server error. The server checks the request as the service would, records what it
 * accepted, and answers what the test asked for — or nothing at all, to prove timeouts.
 *
 * The providers keep their real `https://` URLs: the server's `fetch` (the provider's
 * `customFetch`) sends `https://<host>/<path>` to `http://127.0.0.1:<port>/<host>/<path>`, with
 * the method, headers, body and signal unchanged.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"

/** An answer of the service. */
export interface Reply {
  status: number
  /** A JSON body. */
  json?: unknown
  /** A plain-text body. */
  text?: string
  headers?: Record<string, string>
}

/** What the server makes of an accepted request, whatever the service calls the fields. */
export interface ReceivedMail {
  service: string
  to: string
  from?: string
  subject?: string
  text?: string
  html?: string
  /** Loops: the data variables. */
  dataVariables?: Record<string, unknown>
  /** The decoded body, as sent. */
  fields: Record<string, unknown>
  headers: IncomingMessage["headers"]
}

/** How the API key must arrive. */
export type KeyPlacement =
  | "bearer"
  | { basicUser: string } // Basic <user>:<key> (Mailgun: "api")
  | "basicKeyAsUser" // Basic <key>: (Forward Email)
  | { header: string } // the key alone in a header of the service's own (Postmark)

/** What the test makes the service answer. */
export type Mode = "success" | "invalid" | "rateLimited" | "serverError" | "hang"

/** A service, from its documentation. */
export interface MailApiSpec {
  /** The documented send endpoint (origin and path). */
  url: string
  key: KeyPlacement
  /** Headers the service requires besides the key, checked case-insensitively. */
  headers?: Record<string, string>
  body: "json" | "form"
  /** Reads the documented fields, or says what is wrong with them (answered as `invalid`). */
  read(
    fields: Record<string, unknown>,
  ): Omit<ReceivedMail, "service" | "fields" | "headers"> | string
  answers: {
    success: Reply
    /** A refusal with the service's message (it may name the recipient, as some do). */
    invalid: (to: string) => Reply
    /** The answer to a missing or wrong key. */
    unauthorized: Reply
    rateLimited: Reply
    serverError: Reply
  }
}

export interface MailApiServer {
  origin: string
  /** The providers' `fetch`: their `https://` URLs, answered by this server. */
  fetch: (input: string, init: RequestInit) => Promise<Response>
  /** Registers (or replaces) a service and the API key it accepts. */
  register(service: string, spec: MailApiSpec, apiKey: string): void
  /** What the service answers from now on to a well-formed request. @default "success" */
  mode(service: string, mode: Mode): void
  /** The mails accepted, oldest first. */
  received: ReceivedMail[]
  /** Requests the server refused because they were not as documented, with why. */
  refusals: string[]
  /** Every request: `METHOD host/path`. */
  requests: string[]
  stop(): Promise<void>
}

const str = (value: unknown): value is string => typeof value === "string" && value !== ""
const record = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The documented fields, at the documented places; a string names what is missing. */
function plain(
  names: Record<"from" | "to" | "subject" | "text" | "html", string>,
): MailApiSpec["read"] {
  return (fields) => {
    for (const [role, name] of Object.entries(names)) {
      if (!str(fields[name])) return `${name} (${role}) missing or not a string`
    }
    return {
      from: fields[names.from] as string,
      to: fields[names.to] as string,
      subject: fields[names.subject] as string,
      text: fields[names.text] as string,
      html: fields[names.html] as string,
    }
  }
}

/** The transactional email the Loops account has published. */
export const LOOPS_TRANSACTIONAL_ID = "cm0signinlink0000000000"

/** Each service's documented request and answers. */
export const mailApis: Record<
  "resend" | "sendgrid" | "postmark" | "mailgun" | "forwardemail" | "loops",
  MailApiSpec
> = {
  // https://resend.com/docs/api-reference/emails/send-email, …/errors
  resend: {
    url: "https://api.resend.com/emails",
    key: "bearer",
    headers: { "content-type": "application/json" },
    body: "json",
    read: plain({ from: "from", to: "to", subject: "subject", text: "text", html: "html" }),
    answers: {
      success: { status: 200, json: { id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" } },
      invalid: () => ({
        status: 422,
        json: {
          statusCode: 422,
          name: "validation_error",
          message:
            "Invalid `from` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.",
        },
      }),
      unauthorized: {
        status: 403,
        json: { statusCode: 403, name: "invalid_api_key", message: "API key is invalid" },
      },
      rateLimited: {
        status: 429,
        headers: { "retry-after": "1", "ratelimit-limit": "2", "ratelimit-remaining": "0" },
        json: {
          statusCode: 429,
          name: "rate_limit_exceeded",
          message: "Too many requests. You can only make 2 requests per second.",
        },
      },
      serverError: {
        status: 500,
        json: {
          statusCode: 500,
          name: "internal_server_error",
          message: "An unexpected error occurred.",
        },
      },
    },
  },
  // https://www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send, …/errors
  sendgrid: {
    url: "https://api.sendgrid.com/v3/mail/send",
    key: "bearer",
    headers: { "content-type": "application/json" },
    body: "json",
    read(fields) {
      const personalization = (fields.personalizations as unknown[] | undefined)?.[0]
      const to = record(personalization) ? (personalization.to as unknown[] | undefined)?.[0] : null
      if (!record(to) || !str(to.email)) return "personalizations[0].to[0].email missing"
      const from = fields.from
      if (!record(from) || !str(from.email) || from.email.includes("<")) {
        return "from must be { email, name? } with a plain address"
      }
      if (!str(fields.subject)) return "subject missing"
      const content = fields.content as Array<{ type?: unknown; value?: unknown }> | undefined
      // "If present, text/plain must be first, followed by text/html."
      if (content?.[0]?.type !== "text/plain" || content[1]?.type !== "text/html") {
        return "content must be text/plain, then text/html"
      }
      if (!str(content[0].value) || !str(content[1].value)) return "content values missing"
      return {
        to: to.email,
        from: str(from.name) ? `${from.name} <${from.email}>` : from.email,
        subject: fields.subject,
        text: content[0].value,
        html: content[1].value,
      }
    },
    answers: {
      success: { status: 202 },
      invalid: () => ({
        status: 400,
        json: {
          errors: [
            {
              message:
                "The from address does not match a verified Sender Identity. Mail cannot be sent until this error is resolved.",
              field: "from",
              help: null,
            },
          ],
        },
      }),
      unauthorized: {
        status: 401,
        json: {
          errors: [
            {
              field: null,
              message: "The provided authorization grant is invalid, expired, or revoked",
            },
          ],
        },
      },
      rateLimited: {
        status: 429,
        headers: { "x-ratelimit-limit": "600", "x-ratelimit-remaining": "0" },
        json: { errors: [{ field: null, message: "too many requests" }] },
      },
      serverError: {
        status: 500,
        json: { errors: [{ field: null, message: "internal error" }] },
      },
    },
  },
  // https://postmarkapp.com/developer/user-guide/send-email-with-api, …/api/overview
  postmark: {
    url: "https://api.postmarkapp.com/email",
    key: { header: "x-postmark-server-token" },
    headers: { accept: "application/json", "content-type": "application/json" },
    body: "json",
    read(fields) {
      if (fields.MessageStream !== undefined && !str(fields.MessageStream)) {
        return "MessageStream is not a stream id"
      }
      return plain({
        from: "From",
        to: "To",
        subject: "Subject",
        text: "TextBody",
        html: "HtmlBody",
      })(fields)
    },
    answers: {
      success: {
        status: 200,
        json: {
          To: "(the recipient)",
          SubmittedAt: "2026-01-01T10:00:00.0000000-05:00",
          MessageID: "0a129aee-e1cd-480d-b08d-4f48548ff48d",
          ErrorCode: 0,
          Message: "OK",
        },
      },
      // ErrorCode 406: Inactive recipient. Postmark names the address in its message.
      invalid: (to) => ({
        status: 422,
        json: {
          ErrorCode: 406,
          Message: `You tried to send to recipient(s) that have been marked as inactive. Found inactive addresses: ${to}. Inactive recipients are ones that have generated a hard bounce, a spam complaint, or a manual suppression.`,
        },
      }),
      unauthorized: {
        status: 401,
        json: {
          ErrorCode: 10,
          Message:
            "The Server Token you provided in the X-Postmark-Server-Token request header was invalid. Please verify that you are using a valid token.",
        },
      },
      rateLimited: { status: 429, json: { ErrorCode: 429, Message: "Rate limit exceeded" } },
      serverError: { status: 500, text: "Internal Server Error" },
    },
  },
  // https://documentation.mailgun.com/docs/mailgun/api-reference/send/mailgun/messages/…
  mailgun: {
    url: "https://api.mailgun.net/v3/mg.example.com/messages",
    key: { basicUser: "api" },
    body: "form",
    read: plain({ from: "from", to: "to", subject: "subject", text: "text", html: "html" }),
    answers: {
      success: {
        status: 200,
        json: {
          id: "<20260101100000.1.A1B2C3D4E5F6@mg.example.com>",
          message: "Queued. Thank you.",
        },
      },
      invalid: () => ({
        status: 400,
        json: { message: "'from' parameter is not a valid address. please check documentation" },
      }),
      unauthorized: { status: 401, text: "Forbidden" },
      rateLimited: { status: 429, json: { message: "Too many requests" } },
      serverError: { status: 500, json: { message: "Internal Server Error" } },
    },
  },
  // https://forwardemail.net/email-api#create-outbound-smtp-email
  forwardemail: {
    url: "https://api.forwardemail.net/v1/emails",
    key: "basicKeyAsUser",
    headers: { "content-type": "application/json" },
    body: "json",
    read: plain({ from: "from", to: "to", subject: "subject", text: "text", html: "html" }),
    answers: {
      success: {
        status: 200,
        json: { id: "65f1a2b3c4d5e6f7a8b9c0d1", object: "email", status: "queued" },
      },
      invalid: () => ({
        status: 400,
        json: {
          statusCode: 400,
          error: "Bad Request",
          message: "Domain is not configured for outbound SMTP.",
        },
      }),
      unauthorized: {
        status: 401,
        json: { statusCode: 401, error: "Unauthorized", message: "Invalid API token." },
      },
      rateLimited: {
        status: 429,
        headers: { "retry-after": "3600" },
        json: {
          statusCode: 429,
          error: "Too Many Requests",
          message: "Rate limit exceeded, retry in 1 hour.",
        },
      },
      serverError: {
        status: 500,
        json: {
          statusCode: 500,
          error: "Internal Server Error",
          message: "An internal server error occurred.",
        },
      },
    },
  },
  // https://loops.so/docs/api-reference/send-transactional-email, …/api-reference/intro
  loops: {
    url: "https://app.loops.so/api/v1/transactional",
    key: "bearer",
    headers: { "content-type": "application/json" },
    body: "json",
    read(fields) {
      if (!str(fields.email)) return "email missing"
      if (fields.transactionalId !== LOOPS_TRANSACTIONAL_ID) return "unknown transactionalId"
      if (!record(fields.dataVariables)) return "dataVariables missing"
      return { to: fields.email, dataVariables: fields.dataVariables }
    },
    answers: {
      success: { status: 200, json: { success: true } },
      invalid: () => ({
        status: 400,
        json: { success: false, message: "Transactional email is not published." },
      }),
      unauthorized: { status: 401, json: { success: false, message: "Invalid API key" } },
      rateLimited: {
        status: 429,
        headers: { "x-ratelimit-limit": "10", "x-ratelimit-remaining": "0" },
        json: { success: false, message: "Rate limit exceeded." },
      },
      serverError: { status: 500, json: { success: false, message: "Internal server error" } },
    },
  },
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers }
  let body = ""
  if (reply.json !== undefined) {
    headers["content-type"] = "application/json"
    body = JSON.stringify(reply.json)
  } else if (reply.text !== undefined) {
    headers["content-type"] = "text/plain"
    body = reply.text
  }
  res.writeHead(reply.status, headers)
  res.end(body)
}

/** `https://host/path` without the query, as the specs name endpoints. */
function where(url: URL): string {
  return `${url.host}${url.pathname}`
}

function keyPresented(req: IncomingMessage, placement: KeyPlacement): string | undefined {
  if (typeof placement === "object" && "header" in placement) {
    const value = req.headers[placement.header]
    return typeof value === "string" ? value : undefined
  }
  const authorization = req.headers.authorization ?? ""
  if (placement === "bearer") return /^Bearer (.+)$/.exec(authorization)?.[1]
  if (!authorization.startsWith("Basic ")) return undefined
  const decoded = Buffer.from(authorization.slice(6), "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  if (colon < 0) return undefined
  const [user, password] = [decoded.slice(0, colon), decoded.slice(colon + 1)]
  if (placement === "basicKeyAsUser") return password === "" ? user : undefined
  return user === placement.basicUser ? password : undefined
}

export async function startMailApiServer(): Promise<MailApiServer> {
  const services = new Map<string, { spec: MailApiSpec; apiKey: string; mode: Mode }>()
  const received: ReceivedMail[] = []
  const refusals: string[] = []
  const requests: string[] = []
  const sockets = new Set<Socket>()

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL) {
    const entry = [...services.entries()].find(
      ([, { spec }]) => where(new URL(spec.url)) === where(url),
    )
    if (!entry) {
      refusals.push(`no service at ${req.method} ${where(url)}`)
      return send(res, { status: 404, json: { message: "Not Found" } })
    }
    const [service, { spec, apiKey, mode }] = entry
    const raw = await bodyOf(req)
    const refuse = (why: string) => {
      refusals.push(`${service}: ${why}`)
      send(res, { status: 400, json: { message: `not as documented: ${why}` } })
    }
    if (req.method !== "POST") return refuse(`${req.method}, not POST`)
    if (keyPresented(req, spec.key) !== apiKey) {
      return send(res, spec.answers.unauthorized)
    }
    for (const [name, value] of Object.entries(spec.headers ?? {})) {
      const sent = req.headers[name.toLowerCase()]
      if (typeof sent !== "string" || !sent.toLowerCase().startsWith(value.toLowerCase())) {
        return refuse(`header ${name} is ${String(sent)}, not ${value}`)
      }
    }
    let fields: Record<string, unknown>
    const contentType = req.headers["content-type"] ?? ""
    if (spec.body === "json") {
      try {
        fields = JSON.parse(raw.toString("utf8")) as Record<string, unknown>
      } catch {
        return refuse("the body is not JSON")
      }
    } else {
      if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)/.test(contentType)) {
        return refuse(`content-type ${contentType}, not form fields`)
      }
      const form = await new Response(new Uint8Array(raw), {
        headers: { "content-type": contentType },
      }).formData()
      fields = Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)]))
    }
    const mail = spec.read(fields)
    if (typeof mail === "string") return refuse(mail)
    if (mode === "hang") return // never answers: the client's timeout must end the call
    if (mode !== "success")
      return send(res, mode === "invalid" ? spec.answers.invalid(mail.to) : spec.answers[mode])
    received.push({ ...mail, service, fields, headers: req.headers })
    send(res, spec.answers.success)
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://server")
    // The first path segment is the host the provider's URL named.
    const [, host = "", ...rest] = url.pathname.split("/")
    const original = new URL(`https://${host}/${rest.join("/")}${url.search}`)
    requests.push(`${req.method} ${where(original)}`)
    handle(req, res, original).catch((error: unknown) => {
      refusals.push(`server error: ${String(error)}`)
      if (!res.headersSent) send(res, { status: 500, text: String(error) })
    })
  })
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    origin,
    received,
    refusals,
    requests,
    register(service, spec, apiKey) {
      services.set(service, { spec, apiKey, mode: "success" })
    },
    mode(service, mode) {
      const entry = services.get(service)
      if (!entry) throw new Error(`no service registered as ${service}`)
      entry.mode = mode
    },
    fetch(input, init) {
      const url = new URL(input)
      if (url.protocol !== "https:") return fetch(input, init)
      return fetch(`${origin}/${url.host}${url.pathname}${url.search}`, init)
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
