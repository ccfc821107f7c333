/**
 * `sendMail`, the email providers' "send this message" (the Password provider's mails): through
 * Nodemailer to a real SMTP server (smtp-server on 127.0.0.1) and to one that refuses, and
 * through each mail API provider to the local server that speaks each service's protocol — what
 * arrives (envelope, subject, parts), what a refusal throws (never the address), and that a
 * template-only service (Loops) has no `sendMail`.
 */
import { startMailbox, type Mailbox } from "latch-mailbox"
import { createServer, type AddressInfo, type Server, type Socket } from "node:net"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { customFetch } from "../../src/index.js"
import { normalizeProviders } from "../../src/config/providers.js"
import { EmailApiError } from "../../src/lib/email-api.js"
import Email, { type EmailConfig, type SendMailParams } from "../../src/providers/email.js"
import ForwardEmail from "../../src/providers/forwardemail.js"
import Loops from "../../src/providers/loops.js"
import Mailgun from "../../src/providers/mailgun.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import Postmark from "../../src/providers/postmark.js"
import Resend from "../../src/providers/resend.js"
import SendGrid from "../../src/providers/sendgrid.js"
import {
  LOOPS_TRANSACTIONAL_ID,
  mailApis,
  startMailApiServer,
  type MailApiServer,
} from "../helpers/mail-api-server.js"

let counter = 0
/** A fresh address per test, so tests never see each other's mail. */
const newAddress = () => `user${++counter}.${Date.now()}@example.org`

/** A message as the Password provider sends one: a non-ASCII subject, a link in both parts. */
function message(to: string): Omit<SendMailParams, "provider"> {
  return {
    to,
    subject: "Réinitialiser le mot de passe — example.com",
    text: `Reset your password: https://example.com/auth/reset?token=abc&n=${counter}`,
    html: `<p>Reset your password: <a href="https://example.com/auth/reset?token=abc">reset</a> ✓</p>`,
  }
}

/** Calls the provider's `sendMail` as Latch does: with the provider itself. */
function send(provider: EmailConfig, to: string): Promise<void> {
  expect(provider.sendMail).toBeTypeOf("function")
  return Promise.resolve(provider.sendMail!({ ...message(to), provider }))
}

describe("Nodemailer", () => {
  const FROM = "Example <no-reply@example.com>"
  let mailbox: Mailbox
  beforeAll(async () => {
    mailbox = await startMailbox()
  })
  afterAll(() => mailbox.close())

  const server = () => ({ host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true })

  it("sends the message through the SMTP server: envelope, from, subject, both parts", async () => {
    const provider = Nodemailer({ server: server(), from: FROM })
    const address = newAddress()
    await send(provider, address)
    const mail = await mailbox.nextFor(address)
    const sent = message(address)
    expect(mail.envelope).toEqual({ from: "no-reply@example.com", to: [address] })
    expect(mail.to).toBe(address)
    expect(mail.from).toBe(FROM)
    expect(mail.subject).toBe(sent.subject)
    expect(mail.text?.trim()).toBe(sent.text)
    expect(mail.html?.trim()).toBe(sent.html)
  })

  it("sends only the message's fields: nothing a caller adds reaches the server", async () => {
    const provider = Nodemailer({ server: server(), from: FROM })
    const address = newAddress()
    const extra = { cc: "other@example.org", bcc: "hidden@example.org", headers: { "X-A": "1" } }
    await provider.sendMail!({ ...message(address), provider, ...extra } as SendMailParams)
    const mail = await mailbox.nextFor(address)
    expect(mail.envelope.to).toEqual([address])
    expect(mail.headers).not.toHaveProperty("cc")
    expect(mail.headers).not.toHaveProperty("x-a")
  })

  it("works with a sendVerificationRequest of the user's, and as Email()", async () => {
    const own = { sendVerificationRequest: () => {}, server: server(), from: FROM }
    for (const provider of [Nodemailer(own), Email(own)]) {
      const address = newAddress()
      await send(provider, address)
      expect((await mailbox.nextFor(address)).subject).toBe(message(address).subject)
    }
  })

  it("sends through the server and sender filled in from AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM", async () => {
    const [provider] = normalizeProviders([Nodemailer()], {
      AUTH_EMAIL_SERVER: `smtp://127.0.0.1:${mailbox.port}`,
      AUTH_EMAIL_FROM: FROM,
    }).values()
    const address = newAddress()
    await send(provider as EmailConfig, address)
    const mail = await mailbox.nextFor(address)
    expect(mail.from).toBe(FROM)
    expect(mail.subject).toBe(message(address).subject)
  })

  it("keeps a sendMail of the user's", async () => {
    const sent: SendMailParams[] = []
    const provider = Nodemailer({ server: server(), sendMail: (params) => void sent.push(params) })
    await send(provider, "a@example.org")
    expect(sent.map((params) => params.to)).toEqual(["a@example.org"])
    await expect(mailbox.nextFor("a@example.org", 200)).rejects.toThrow(/no mail/)
  })

  it("throws without a server", async () => {
    await expect(send(Nodemailer({ from: FROM }), newAddress())).rejects.toThrow(
      /has no server: set AUTH_EMAIL_SERVER/,
    )
  })

  describe("an SMTP server that refuses", () => {
    let refusing: RefusingServer
    beforeAll(async () => {
      refusing = await startRefusingServer()
    })
    afterAll(() => refusing.close())

    it.each(["RCPT", "DATA"] as const)("at %s: throws, and nothing is delivered", async (at) => {
      refusing.refuseAt = at
      const provider = Nodemailer({
        server: { host: "127.0.0.1", port: refusing.port, secure: false, ignoreTLS: true },
        from: FROM,
      })
      const address = newAddress()
      await expect(send(provider, address)).rejects.toThrow(/55[04]/)
      expect(refusing.commands).toContain(`RCPT TO:<${address}>`)
      expect(refusing.delivered).toBe(0)
    })
  })
})

interface RefusingServer {
  port: number
  /** The command the server answers with a permanent failure. */
  refuseAt: "RCPT" | "DATA"
  /** Every command received, as sent. */
  commands: string[]
  /** Messages accepted: always 0. */
  delivered: number
  close(): Promise<void>
}

/**
 * A minimal SMTP server (RFC 5321) that refuses mail: `550` to the recipient, or `554` to the
 * message once it has been transferred.
 */
async function startRefusingServer(): Promise<RefusingServer> {
  const sockets = new Set<Socket>()
  const state: RefusingServer = {
    port: 0,
    refuseAt: "RCPT",
    commands: [],
    delivered: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
    socket.setEncoding("utf8")
    const reply = (line: string) => socket.write(`${line}\r\n`)
    let buffer = ""
    let inData = false
    reply("220 refusing.test ESMTP")
    socket.on("data", (chunk: string) => {
      buffer += chunk
      let end: number
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        if (inData) {
          if (line !== ".") continue
          inData = false
          reply("554 5.7.1 Message refused")
          continue
        }
        state.commands.push(line)
        const verb = line.split(/[\s:]/, 1)[0]!.toUpperCase()
        if (verb === "EHLO" || verb === "HELO") reply("250 refusing.test")
        else if (verb === "MAIL" || verb === "RSET" || verb === "NOOP") reply("250 OK")
        else if (verb === "RCPT") {
          reply(state.refuseAt === "RCPT" ? "550 5.1.1 Mailbox unavailable" : "250 OK")
        } else if (verb === "DATA") {
          inData = true
          reply("354 End data with <CR><LF>.<CR><LF>")
        } else if (verb === "QUIT") {
          reply("221 Bye")
          socket.end()
        } else reply("502 5.5.1 Command not implemented")
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  state.port = (server.address() as AddressInfo).port
  return state
}

describe("the mail API providers", () => {
  const KEY = "key-0123456789abcdef"
  const FROM = "Example <no-reply@mg.example.com>"
  const providers = [
    { id: "resend", make: Resend },
    { id: "sendgrid", make: SendGrid },
    { id: "postmark", make: Postmark },
    { id: "mailgun", make: Mailgun },
    { id: "forwardemail", make: ForwardEmail },
  ] as const

  let server: MailApiServer
  beforeAll(async () => {
    server = await startMailApiServer()
    for (const [id, spec] of Object.entries(mailApis)) server.register(id, spec, KEY)
  })
  afterAll(() => server.stop())
  afterEach(() => {
    for (const id of Object.keys(mailApis)) server.mode(id, "success")
  })

  describe.each(providers)("$id", ({ id, make }) => {
    const ready = () => make({ apiKey: KEY, from: FROM, [customFetch]: server.fetch })

    it("sends the message through the service: to, from, subject, text and HTML", async () => {
      const address = newAddress()
      await send(ready(), address)
      expect(server.refusals).toEqual([])
      const received = server.received.filter((mail) => mail.to === address)
      expect(received).toHaveLength(1)
      const sent = message(address)
      expect(received[0]).toMatchObject({
        service: id,
        to: address,
        from: FROM,
        subject: sent.subject,
        text: sent.text,
        html: sent.html,
      })
    })

    it("sends with the key from its variable and a sendVerificationRequest of the user's", async () => {
      const [provider] = normalizeProviders(
        [make({ sendVerificationRequest: () => {}, [customFetch]: server.fetch })],
        { [`AUTH_${id.toUpperCase()}_KEY`]: KEY, AUTH_EMAIL_FROM: FROM },
      ).values()
      const address = newAddress()
      await send(provider as EmailConfig, address)
      expect(server.received.filter((mail) => mail.to === address)).toHaveLength(1)
    })

    it("throws a plain Error naming the variable without a key, and sends nothing", async () => {
      const provider = make({
        sendVerificationRequest: () => {},
        from: FROM,
        [customFetch]: server.fetch,
      })
      const before = server.requests.length
      const error = await send(provider, newAddress()).catch((error: unknown) => error)
      expect(error).toBeInstanceOf(Error)
      expect(error).not.toBeInstanceOf(EmailApiError)
      expect((error as Error).message).toContain(
        `without an API key: set AUTH_${id.toUpperCase()}_KEY`,
      )
      expect(server.requests.length).toBe(before)
    })

    it("throws without a sender, and sends nothing", async () => {
      const provider = make({ apiKey: KEY, [customFetch]: server.fetch })
      const before = server.requests.length
      await expect(send(provider, newAddress())).rejects.toThrow(
        /without a sender: set AUTH_EMAIL_FROM/,
      )
      expect(server.requests.length).toBe(before)
    })

    it.each([
      ["a refusal", "invalid", /refused the mail \(HTTP 4\d\d\)/],
      ["a rate limit", "rateLimited", /rate-limited the mail \(HTTP 429/],
      ["a server error", "serverError", /failed to send the mail \(HTTP 5\d\d\)/],
    ] as const)("throws EmailApiError on %s, without the address", async (_, mode, wording) => {
      server.mode(id, mode)
      const address = newAddress()
      const error = await send(ready(), address).catch((error: unknown) => error)
      expect(error).toBeInstanceOf(EmailApiError)
      const { message: text, status } = error as EmailApiError
      expect(text).toMatch(wording)
      expect(text).not.toContain("sign-in")
      expect(status).toBeGreaterThanOrEqual(400)
      expect(text.toLowerCase()).not.toContain(address.toLowerCase())
      expect(JSON.stringify(error)).not.toContain(address)
    })

    it("throws EmailApiError on a wrong key", async () => {
      const provider = make({ apiKey: "wrong", from: FROM, [customFetch]: server.fetch })
      await expect(send(provider, newAddress())).rejects.toBeInstanceOf(EmailApiError)
    })
  })

  it("Loops, which only fills its own template, has no sendMail", () => {
    const loops = Loops({ apiKey: KEY, transactionalId: LOOPS_TRANSACTIONAL_ID })
    expect(loops).not.toHaveProperty("sendMail")
    const [filled] = normalizeProviders([Loops()], {
      AUTH_LOOPS_KEY: KEY,
      AUTH_LOOPS_TRANSACTIONAL_ID: LOOPS_TRANSACTIONAL_ID,
    }).values()
    expect((filled as EmailConfig).sendMail).toBeUndefined()
  })
})
