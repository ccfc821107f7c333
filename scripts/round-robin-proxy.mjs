// The reverse proxy of `pnpm demo:two`: one public port whose requests go to the demo's
// instances in turn (round robin), as a load balancer spreads them over a site's servers. Each
// response carries `x-latch-demo-instance: <name>`, so that a person sees them alternate.
//
// It forwards requests as they came (method, path, headers, body, streamed both ways), except for
// `x-forwarded-for`, which it sets to the client's address: the instances trust that header for
// the client's address (adapter-node's ADDRESS_HEADER), so a client must not be able to write it.
import { Agent, createServer, request } from "node:http"

/** Hop-by-hop headers (RFC 9110, section 7.6.1): they concern one connection, not the request. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
])

/** Headers without the hop-by-hop ones, and without those `connection` names. */
function endToEnd(headers) {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.includes(name)),
  )
}

/**
 * Listens on `host:port` and forwards each request to the next of `targets`. Resolves once
 * listening, to `{ close() }`.
 *
 * @param {{ host: string, port: number, targets: Array<{ name: string, url: string }> }} options
 * @returns {Promise<{ close: () => Promise<void> }>}
 */
export function startRoundRobinProxy({ host, port, targets }) {
  // Connections to the instances are kept open between requests, as a load balancer does.
  const agent = new Agent({ keepAlive: true })
  let next = 0
  const server = createServer((incoming, outgoing) => {
    const target = targets[next]
    next = (next + 1) % targets.length
    const headers = {
      ...endToEnd(incoming.headers),
      "x-forwarded-for": incoming.socket.remoteAddress,
    }
    const upstream = request(
      new URL(incoming.url ?? "/", target.url),
      { method: incoming.method, headers, agent },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, {
          ...endToEnd(response.headers),
          "x-latch-demo-instance": target.name,
        })
        response.pipe(outgoing)
      },
    )
    upstream.on("error", (error) => {
      if (outgoing.headersSent) return outgoing.destroy(error)
      outgoing.writeHead(502, {
        "content-type": "text/plain",
        "x-latch-demo-instance": target.name,
      })
      outgoing.end(`instance ${target.name} did not answer: ${error.message}\n`)
    })
    // A client that goes away abandons its request at the instance too.
    outgoing.on("close", () => {
      if (!outgoing.writableFinished) upstream.destroy()
    })
    incoming.pipe(upstream)
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, () =>
      resolve({
        close: () =>
          new Promise((done) => {
            server.close(() => done())
            server.closeAllConnections()
            agent.destroy()
          }),
      }),
    )
  })
}
