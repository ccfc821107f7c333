// A local SMTP sink: receives every mail sent to 127.0.0.1:<port>, decodes it (headers, the
// text and HTML parts) and keeps it in memory and, optionally, as a JSON file per mail in a
// directory that another process can read (the demo's /dev/mailbox page).
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { SMTPServer } from "smtp-server"
import { parseMail } from "./read.js"

export { decodeHeader, parseMail, readMailbox } from "./read.js"

/**
 * Starts the sink on 127.0.0.1. `port` 0 picks a free port. With `dir`, every mail is also
 * written there as JSON. Any sender, any recipient, no authentication (loopback only).
 */
export async function startMailbox({ port = 0, host = "127.0.0.1", dir } = {}) {
  if (dir) mkdirSync(dir, { recursive: true })
  const messages = []
  const waiters = []
  let sequence = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, done) {
      const chunks = []
      stream.on("data", (chunk) => chunks.push(chunk))
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8")
        const mail = {
          id: `${Date.now().toString().padStart(15, "0")}-${String(++sequence).padStart(6, "0")}`,
          receivedAt: new Date().toISOString(),
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
          },
          ...parseMail(raw),
          raw,
        }
        messages.push(mail)
        if (dir) writeFileSync(join(dir, `${mail.id}.json`), JSON.stringify(mail))
        for (const waiter of [...waiters]) {
          if (waiter.match(mail)) {
            waiters.splice(waiters.indexOf(waiter), 1)
            waiter.resolve(mail)
          }
        }
        done()
      })
    },
  })
  await new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  return {
    port: server.server.address().port,
    messages,
    /** The next mail (or one already received and not yet taken) whose recipients include `to`. */
    nextFor(to, timeout = 5_000) {
      const match = (mail) => mail.envelope.to.includes(to) && !mail.taken
      const found = messages.find(match)
      if (found) {
        found.taken = true
        return Promise.resolve(found)
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve(mail) {
            clearTimeout(timer)
            mail.taken = true
            resolve(mail)
          },
        }
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1)
          reject(new Error(`no mail to ${to} within ${timeout} ms`))
        }, timeout)
        waiters.push(waiter)
      })
    },
    /** Mails to `to` received so far. */
    to(address) {
      return messages.filter((mail) => mail.envelope.to.includes(address))
    },
    close() {
      return new Promise((resolve) => server.close(resolve))
    },
  }
}

export { startMailApi } from "./api.js"
