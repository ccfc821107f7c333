// Sending one generated request to the demo over raw HTTP. `node:http` rather than fetch: fetch
// normalizes paths (dot segments, `%2e`), refuses some header values and merges duplicates, and
// the fuzzer needs all of those to reach the server as written.
import { request as httpRequest } from "node:http"

/** What is kept of a body: enough to look for stack traces and URLs, never megabytes. */
export const BODY_KEEP = 64 * 1024

/** A body description (see generators.mjs) as the bytes to send. */
export function bodyBytes(body) {
  if (!body) return undefined
  if (body.base64 !== undefined) return Buffer.from(body.base64, "base64")
  if (body.repeat !== undefined) {
    const unit = Buffer.from(body.repeat)
    return Buffer.concat([
      Buffer.from(body.prefix ?? ""),
      Buffer.alloc(unit.length * body.count, unit),
      Buffer.from(body.suffix ?? ""),
    ])
  }
  return Buffer.from(body.text ?? "")
}

/**
 * Sends a concrete request (`{ method, path, headers: [[name, value]], body, chunked }`) to
 * `port` on 127.0.0.1 and resolves to `{ status, headers: [[name, value]], body, latency }`,
 * or `{ error, latency }` when the server did not answer (reset, timeout).
 */
export function send(port, concrete, { timeout = 60_000 } = {}) {
  const bytes = bodyBytes(concrete.body)
  concrete.bodyLength = bytes?.length ?? 0
  const flat = []
  // With headers given as a list Node adds no Host: send the one a browser would.
  if (!concrete.headers.some(([name]) => /^host$/i.test(name)))
    flat.push("host", `localhost:${port}`)
  for (const [name, value] of concrete.headers) flat.push(name, value)
  if (
    bytes &&
    !concrete.chunked &&
    !concrete.headers.some(([name]) => /^content-length$/i.test(name))
  )
    flat.push("content-length", String(bytes.length))
  const started = performance.now()
  return new Promise((resolve) => {
    let settled = false
    const done = (result) => {
      if (settled) return
      settled = true
      resolve({ ...result, latency: performance.now() - started })
    }
    let req
    try {
      req = httpRequest({
        host: "127.0.0.1",
        port,
        method: concrete.method,
        path: concrete.path,
        headers: flat,
        // A connection per request, no pooled agent (the fuzzer's workers bound how many are in
        // flight). A pool holds on to a connection whose body is still being written after the
        // server answered and stopped reading it (a 400 or 413 to a multi-megabyte body): the
        // requests queued behind it waited about 6 s and some were reset — the client's queue,
        // not the server, which meanwhile answers other connections at once.
        agent: false,
        // Answers may carry long headers (a Location echoing a long path): read them all.
        maxHeaderSize: 1 << 20,
      })
    } catch (error) {
      // The request cannot even be written (a character Node refuses): not the server's fault.
      resolve({ unsendable: String(error.code ?? error.message), latency: 0 })
      return
    }
    req.setTimeout(timeout, () => {
      req.destroy(new Error(`no answer within ${timeout} ms`))
    })
    req.on("error", (error) => done({ error: String(error.code ?? error.message) }))
    req.on("response", (res) => {
      const chunks = []
      let kept = 0
      res.on("data", (chunk) => {
        if (kept >= BODY_KEEP) return
        chunks.push(chunk)
        kept += chunk.length
      })
      res.on("error", (error) => done({ error: String(error.code ?? error.message) }))
      res.on("end", () => {
        const headers = []
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          headers.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]])
        done({
          status: res.statusCode,
          headers,
          body: Buffer.concat(chunks).subarray(0, BODY_KEEP).toString("utf8"),
        })
      })
    })
    if (bytes && concrete.chunked) {
      // Several writes: the server sees a chunked body arriving in pieces.
      const step = Math.max(1, Math.ceil(bytes.length / 3))
      for (let i = 0; i < bytes.length; i += step) req.write(bytes.subarray(i, i + step))
      req.end()
    } else req.end(bytes)
  })
}
