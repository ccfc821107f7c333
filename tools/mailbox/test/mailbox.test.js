import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import nodemailer from "nodemailer"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseMail, readMailbox, startMailbox } from "../index.js"

let mailbox
let dir
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "latch-mailbox-"))
  mailbox = await startMailbox({ dir })
})
afterAll(async () => {
  await mailbox.close()
  rmSync(dir, { recursive: true, force: true })
})

const send = (message) =>
  nodemailer
    .createTransport({ host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true })
    .sendMail({ from: "Sender <sender@example.com>", ...message })

describe("mailbox", () => {
  it("receives a mail and decodes its subject, text and HTML parts", async () => {
    const longLine = `https://example.com/callback?token=${"x".repeat(120)}&email=a%40b.c`
    await send({
      to: "bob@example.com",
      subject: "Connexion à café.example ✓",
      text: `Bonjour, voilà le lien :\n${longLine}\n`,
      html: `<p>Bonjour — <a href="${longLine}">se connecter</a></p>`,
    })
    const mail = await mailbox.nextFor("bob@example.com")
    expect(mail.envelope.to).toEqual(["bob@example.com"])
    expect(mail.subject).toBe("Connexion à café.example ✓")
    expect(mail.from).toBe("Sender <sender@example.com>")
    expect(mail.text).toContain("voilà")
    expect(mail.text).toContain(longLine)
    expect(mail.html).toContain(`href="${longLine}"`)
  })

  it("waits for a mail that has not arrived yet, and stores it in the directory", async () => {
    const waiting = mailbox.nextFor("carol@example.com")
    await send({ to: "carol@example.com", subject: "Later", text: "plain only" })
    const mail = await waiting
    expect(mail.text.trim()).toBe("plain only")
    expect(mail.html).toBeUndefined()
    expect(readMailbox(dir).map((stored) => stored.subject)).toContain("Later")
    expect(readMailbox(dir)[0].subject).toBe("Later")
  })

  it("rejects when no mail comes", async () => {
    await expect(mailbox.nextFor("nobody@example.com", 50)).rejects.toThrow(/no mail/)
  })

  it("decodes base64 parts and encoded-word headers", () => {
    const raw = [
      "From: =?UTF-8?B?w4lsaXNl?= <e@example.com>",
      "To: x@example.com",
      "Subject: =?UTF-8?Q?caf=C3=A9_au_lait?=",
      'Content-Type: multipart/alternative; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from("héllo").toString("base64"),
      "--b1--",
      "",
    ].join("\r\n")
    const mail = parseMail(raw)
    expect(mail.from).toBe("Élise <e@example.com>")
    expect(mail.subject).toBe("café au lait")
    expect(mail.text).toBe("héllo")
  })
})
