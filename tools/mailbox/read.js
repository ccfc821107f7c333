// Decoding of received mail, and reading the mails a sink stored in a directory. No SMTP here,
// so an app can read a mailbox without depending on the SMTP server.
//
// Decoding covers what mailers send for sign-in mails: folded headers, RFC 2047 encoded words,
// multipart bodies (nested), quoted-printable and base64 parts, UTF-8 text.
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

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
