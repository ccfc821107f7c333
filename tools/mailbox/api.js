// The local mailbox's HTTP side: a server on 127.0.0.1 that answers the send request of Resend's
// API (POST /emails, `Authorization: Bearer <key>`, a JSON body with from, to, subject, html and
// text; https://resend.com/docs/api-reference/emails/send-email) and its documented errors, and
// keeps what it receives in the same JSON form as the SMTP sink, so that one mailbox page shows
// mails sent either way. For development and tests: the demo routes its Resend provider here.
import { randomUUID } from "node:crypto"
import { mkdirSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { join } from "node:path"

let sequence = 0

function answer(res, status, body) {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}

/** Resend's error shape: `{ statusCode, name, message }`. */
function error(res, status, name, message) {
  answer(res, status, { statusCode: status, name, message })
}

async function readJson(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"))
  } catch {
    return undefined
  }
}

/**
 * Starts the API on 127.0.0.1 (`port` 0 picks a free one). Only `apiKey` is accepted. With
 * `dir`, every mail is written there as JSON, as the SMTP sink writes its mails.
 */
export async function startMailApi({ port = 0, host = "127.0.0.1", dir, apiKey }) {
  if (!apiKey) throw new Error("startMailApi needs the apiKey it accepts")
  if (dir) mkdirSync(dir, { recursive: true })
  const messages = []
  const server = createServer(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/emails") {
      return error(res, 404, "not_found", "The requested endpoint does not exist.")
    }
    const auth = req.headers.authorization ?? ""
    if (!auth.startsWith("Bearer "))
      return error(res, 401, "missing_api_key", "Missing API key in the authorization header.")
    if (auth.slice(7) !== apiKey) return error(res, 403, "invalid_api_key", "API key is invalid")
    const body = await readJson(req)
    if (!body || typeof body !== "object")
      return error(res, 422, "validation_error", "Invalid JSON body.")
    const to = [body.to].flat().filter((value) => typeof value === "string")
    for (const [field, ok] of [
      ["from", typeof body.from === "string" && body.from !== ""],
      ["to", to.length > 0],
      ["subject", typeof body.subject === "string" && body.subject !== ""],
      ["html or text", typeof body.html === "string" || typeof body.text === "string"],
    ]) {
      if (!ok) return error(res, 422, "validation_error", `The \`${field}\` field is missing.`)
    }
    const id = randomUUID()
    const mail = {
      id: `${Date.now().toString().padStart(15, "0")}-api-${String(++sequence).padStart(6, "0")}`,
      receivedAt: new Date().toISOString(),
      envelope: { from: body.from, to },
      from: body.from,
      to: to.join(", "),
      subject: body.subject,
      date: new Date().toUTCString(),
      text: body.text,
      html: body.html,
      headers: { "x-sent-through": "resend-api", "x-resend-id": id },
      raw: "",
    }
    messages.push(mail)
    if (dir) writeFileSync(join(dir, `${mail.id}.json`), JSON.stringify(mail))
    answer(res, 200, { id })
  })
  await new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  return {
    port: server.address().port,
    url: `http://${host}:${server.address().port}`,
    messages,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}
