// A local SMTP sink: receives every mail sent to 127.0.0.1:<port>, decodes it (headers, the
// text and HTML parts) and keeps it in memory and, optionally, as a JSON file per mail in a
// directory that another process can read (the demo's /dev/mailbox page).
//
// Decoding covers what mailers send for sign-in mails: folded headers, RFC 2047 encoded words,
// multipart bodies (nested), quoted-printable and base64 parts, UTF-8 text.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { SMTPServer } from "smtp-server"

const utf8 = new TextDecoder()

/** Header block → lowercase name → unfolded value (the first occurrence wins). */
function parseHeaders(block) {
  const headers = {}
  const unfolded = block.replace(/\r?\n[ \t]+/g, " ")
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(":")
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    if (!(name in headers)) headers[name] = line.slice(colon + 1).trim()
  }
  return headers
}

/** Quoted-printable → bytes (RFC 2045 §6.7); `header` also maps `_` to a space (RFC 2047). */
function decodeQuotedPrintable(text, header = false) {
  const bytes = []
  const source = header ? text.replace(/_/g, " ") : text.replace(/=\r?\n/g, "")
  for (let i = 0; i < source.length; i++) {
    const char = source[i]
    const hex = source.slice(i + 1, i + 3)
    if (char === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16))
      i += 2
    } else {
      for (const byte of Buffer.from(char, "utf8")) bytes.push(byte)
    }
  }
  return Uint8Array.from(bytes)
}

/** `=?UTF-8?Q?…?=` and `=?UTF-8?B?…?=` words → text (RFC 2047). */
export function decodeHeader(value = "") {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, _charset, encoding, data) =>
      utf8.decode(
        encoding.toUpperCase() === "B"
          ? Buffer.from(data, "base64")
          : decodeQuotedPrintable(data, true),
      ),
    )
}

/** A header parameter such as `boundary` or `charset`. */
function parameter(value, name) {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*("([^"]*)"|[^;\\s]+)`, "i").exec(value ?? "")
  return match ? (match[2] ?? match[1]) : undefined
}

function decodeBody(body, encoding = "7bit") {
  switch (encoding.toLowerCase()) {
    case "quoted-printable":
      return utf8.decode(decodeQuotedPrintable(body))
    case "base64":
      return utf8.decode(Buffer.from(body.replace(/\s+/g, ""), "base64"))
    default:
      return body
  }
}

/** Splits an entity into its header block and body. */
function splitEntity(raw) {
  const match = /\r?\n\r?\n/.exec(raw)
  if (!match) return { headers: parseHeaders(raw), body: "" }
  return {
    headers: parseHeaders(raw.slice(0, match.index)),
    body: raw.slice(match.index + match[0].length),
  }
}

/** Collects the text/plain and text/html parts of an entity, descending into multiparts. */
function collectParts(raw, into) {
  const { headers, body } = splitEntity(raw)
  const type = (headers["content-type"] ?? "text/plain").split(";")[0].trim().toLowerCase()
  if (type.startsWith("multipart/")) {
    const boundary = parameter(headers["content-type"], "boundary")
    if (!boundary) return
    const delimiter = `--${boundary}`
    const sections = body.split(delimiter).slice(1)
    for (const section of sections) {
      if (section.startsWith("--")) break
      collectParts(section.replace(/^\r?\n/, ""), into)
    }
    return
  }
  const text = decodeBody(body, headers["content-transfer-encoding"]).replace(/\r\n/g, "\n")
  if (type === "text/plain" && into.text === undefined) into.text = text
  if (type === "text/html" && into.html === undefined) into.html = text
}

/**
 * A raw RFC 5322 message → `{ from, to, subject, date, text, html, headers }`. Header values are
 * decoded; `text` and `html` are the first text/plain and text/html parts, if any.
 */
export function parseMail(raw) {
  const { headers } = splitEntity(raw)
  const parts = {}
  collectParts(raw, parts)
  return {
    from: decodeHeader(headers.from),
    to: decodeHeader(headers.to),
    subject: decodeHeader(headers.subject),
    date: headers.date,
    text: parts.text,
    html: parts.html,
    headers,
  }
}

/** Reads the mails a sink stored in `dir`, newest first. */
export function readMailbox(dir) {
  let names
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".json"))
  } catch {
    return []
  }
  return names
    .sort()
    .reverse()
    .map((name) => JSON.parse(readFileSync(join(dir, name), "utf8")))
}

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
